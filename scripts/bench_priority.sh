#!/usr/bin/env bash
# Runs a command (a benchmark) at the highest priority against other sessions' work:
#   scripts/bench_priority.sh node tests/bench/ab.mjs --a A --b B
# With autogroups on (/proc/sys/kernel/sched_autogroup_enabled = 1) the scheduler shares the CPU
# between sessions first, and nice only ranks processes within their own session's group, so
# `nice -n -20` alone does not keep other sessions' builds off our cores. This starts the command
# in a session of its own (setsid), raises that session's group to -20 and the command to nice -20.
# Needs root (negative nice values). Threaded timings taken without it on a shared machine mostly
# measure the other processes.
set -euo pipefail
(($#)) || { echo "usage: scripts/bench_priority.sh COMMAND [ARGS...]" >&2; exit 2; }
exec setsid -w bash -c 'echo -20 > /proc/self/autogroup 2>/dev/null || true; exec nice -n -20 "$@"' bench_priority "$@"
