#!/usr/bin/env bash
# Lists the co-simulation configurations that tests/cosim/CMakeLists.txt
# registers, one "BLOCK NAME CONFIG_PATH" line each (path relative to the
# repository), for scripts/bench_cosim.sh and scripts/soak.sh.
# usage: scripts/cosim_configs.sh [BLOCK|NAME ...]   (no argument: every one)
# Exit 2 when an argument names no block and no configuration.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mapfile -t all < <(sed -nE \
  's/^txgen_add_(.*)_cosim\(([a-z0-9_]+) \$\{PROJECT_SOURCE_DIR\}\/([^ )]+)\).*/\1 \2 \3/p' \
  "$root/tests/cosim/CMakeLists.txt")
for want in "$@"; do
  found=0
  for line in "${all[@]}"; do
    read -r block name _ <<< "$line"
    [[ "$want" == "$block" || "$want" == "$name" ]] && found=1
  done
  if (( ! found )); then
    echo "$(basename "$0"): '$want' is neither a block nor a co-simulation configuration" \
         "(see tests/cosim/CMakeLists.txt)" >&2
    exit 2
  fi
done
for line in "${all[@]}"; do
  read -r block name _ <<< "$line"
  keep=$(( $# == 0 ))
  for want in "$@"; do
    [[ "$want" == "$block" || "$want" == "$name" ]] && keep=1
  done
  if (( keep )); then echo "$line"; fi
done
