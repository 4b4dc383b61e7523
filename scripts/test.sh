#!/usr/bin/env bash
# README command 2: install, build, run the whole test suite. Full output in
# build/build.log and build/ctest.log; the terminal shows progress and a summary.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/progress.sh"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "$root/build"
log="$root/build/ctest.log"
rc=0
progress_run "tests" "$log" ctest --output-on-failure -j "$(nproc)" || rc=$?
# ctest's own summary: the pass rate, the failed tests and the time
sed -n '/tests passed, /,$p' "$log" | grep -avE '^Errors while running CTest' || true
if ((rc != 0)); then
  echo "failed tests' output: $log (ctest --rerun-failed --output-on-failure reruns them)"
fi
exit $rc
