# Sourced by scripts/setup.sh (bash). Kept apart so a test can feed it ninja's output.

# stdin: `cmake --build` output. Prints ninja's "[n/m] Building CXX object .../x.cpp.o" lines as
# "setup: <label> 42 % [n/m] x.cpp" (one line per step, so a log or a CI shows where it is), and
# nothing when ninja had no work to do.
build_progress() {
  local label=$1 line n m what
  while IFS= read -r line || [[ -n $line ]]; do  # the last line may lack its newline
    [[ $line =~ ^\[([0-9]+)/([0-9]+)\]\ (.*)$ ]] || continue
    n=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]} what=${BASH_REMATCH[3]}
    case $what in
      Building*) what=${what##*/}; what=${what%.o} ;;   # the source file
      Linking*) what="linking ${what##* }" ;;
      *) what=${what%% *} ;;                              # "Generating ...", custom commands
    esac
    printf 'setup: %s %3d %% [%d/%d] %s\n' "$label" $((100 * n / m)) "$n" "$m" "$what"
  done
}

# Emscripten 3.1.6's pthread glue warns "Blocking on the main thread is very dangerous" the first time
# the page's thread waits for the pool's workers, i.e. on every load that runs a world on 2+ threads.
# Those waits are the design (short; the main thread works alongside its workers) and blocking is
# allowed, so the warning only alarms readers, and no setting removes it outside MINIMAL_RUNTIME:
# the call is taken out of the glue the pages load. Idempotent.
quiet_blocking_warning() {
  local glue=$1
  [[ -f $glue ]] || return 0
  if grep -q 'warnOnce("Blocking on the main thread' "$glue"; then
    sed -i 's/warnOnce("Blocking on the main thread is very dangerous[^"]*")/void 0/' "$glue"
  fi
}
