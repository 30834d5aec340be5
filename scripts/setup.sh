#!/usr/bin/env bash
# Installs what is missing and builds what is stale; cheap when everything is in place.
# Usage: scripts/setup.sh start|test|bench
set -euo pipefail
mode="${1:-start}"
cd "$(dirname "$0")/.."

# --- system packages (Debian) ---------------------------------------------------------------
packages=(g++ cmake ninja-build emscripten)
case "$mode" in
  # clang + libclang-rt-14-dev: the sanitizer build (build-asan) and the libFuzzer harnesses
  test) packages+=(doctest-dev chromium fonts-liberation clang libclang-rt-14-dev) ;;
  bench) packages+=(chromium fonts-liberation) ;;  # the page part opens the article in Chromium
  start) ;;
  *) echo "usage: scripts/setup.sh start|test|bench" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  line="apt-get install -y --no-install-recommends ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "softbody needs system packages that are missing. Install them with:" >&2
    echo "  sudo apt-get update && sudo $line" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  # --no-install-recommends keeps chromium from pulling ~100 desktop packages.
  DEBIAN_FRONTEND=noninteractive $line -qq >/dev/null
fi

# --- npm dependencies -------------------------------------------------------------------------
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

# --- builds -------------------------------------------------------------------------------------
export NODE_PATH=/usr/share/nodejs  # emscripten's acorn optimizer lives there; node 20 does not look
# Unit tests build wherever doctest is installed, so switching between modes does not reconfigure.
tests=OFF
[[ -f /usr/include/doctest/doctest.h ]] && tests=ON

# A first build is long and would otherwise be silent for minutes: say so, and show each step.
source scripts/build_progress.sh
if [[ ! -f web/src/wasm/softbody.wasm ]]; then
  echo "setup: first build of the physics (C++ to WebAssembly, then its multi-threaded twin): this takes"
  echo "setup: several minutes (about 6 on 2 busy cores); later starts rebuild only what changed"
fi

configure() {  # dir, extra cmake arguments...: configure only when missing or the test switch changed
  local dir=$1; shift
  if [[ ! -f "$dir/build.ninja" ]] || ! grep -q "^SOFTBODY_TESTS:BOOL=$tests\$" "$dir/CMakeCache.txt"; then
    echo "setup: configuring $dir"
    "$@" -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSOFTBODY_TESTS=$tests >/dev/null 2>&1 \
      || { echo "setup: configuring $dir failed; run the same cmake command by hand to see why" >&2; exit 1; }
  fi
}
# emcmake would set the test runner to node --experimental-wasm-threads, which node 20 rejects.
build() {  # dir [target] [label]: incremental build; progress per step, the full output on failure
  local dir=$1 target=${2:-} label=${3:-$1} log status=0
  log=$(mktemp)
  cmake --build "$dir" ${target:+--target "$target"} 2>&1 | tee "$log" | build_progress "$label" || status=$?
  if ((status)); then cat "$log" >&2; rm -f "$log"; echo "setup: build of $label failed" >&2; exit 1; fi
  grep -q "no work to do" "$log" || echo "setup: built $label"
  rm -f "$log"
}
configure build-wasm emcmake cmake "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch"
build build-wasm "" "the wasm module (build-wasm)"
# The multi-threaded module (softbody-mt.*, into web/public/wasm-mt/): the pages load it when they
# are cross-origin isolated, and the benchmark's threaded wasm rows use it.
build build-wasm softbody_wasm_mt "the multi-threaded module"
quiet_blocking_warning web/public/wasm-mt/softbody-mt.mjs
if [[ "$mode" != start ]]; then
  configure build-native cmake
  build build-native "" "the native build (build-native)"
fi
if [[ "$mode" == test ]]; then
  # The doctest suite and the fuzz harnesses under AddressSanitizer + UBSan (clang: libFuzzer).
  configure build-asan env CC=clang CXX=clang++ cmake -DSOFTBODY_SANITIZE=ON -DSOFTBODY_FUZZ=ON -DSOFTBODY_BENCH=OFF
  build build-asan "" "the sanitizer build (build-asan)"
fi
[[ -f web/src/wasm/softbody.wasm ]] || { echo "setup: wasm build produced no web/src/wasm/softbody.wasm" >&2; exit 1; }
