#!/usr/bin/env bash
# Configures and builds txgen, its model, co-simulation and tests into build/.
# The compiler's and Verilator's output goes to build/build.log; the terminal
# shows progress, and on a failure the failed steps.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/progress.sh"
log="$root/build/build.log"
# The empty TXGEN_COSIM_CONFIG / TXGEN_EVAL_CONFIG undo a main job's or a
# `txgen cosim --build-dir build`'s single-co-simulation set-up of this tree.
progress_run "configure" "$root/build/configure.log" \
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTXGEN_COSIM_CONFIG= -DTXGEN_EVAL_CONFIG= ||
  { tail -n 40 "$root/build/configure.log"; exit 1; }
progress_run "build (generator, models, Verilated RTL, tests)" "$log" \
  cmake --build "$root/build" -j "$(nproc)" || { build_failure "$log"; exit 1; }
