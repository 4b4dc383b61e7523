#!/usr/bin/env bash
# Configures and builds txgen, its model, co-simulation and tests into build/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# The empty TXGEN_COSIM_CONFIG / TXGEN_EVAL_CONFIG undo a main job's or a
# `txgen cosim --build-dir build`'s single-co-simulation set-up of this tree.
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTXGEN_COSIM_CONFIG= -DTXGEN_EVAL_CONFIG=
cmake --build "$root/build" -j "$(nproc)"
