#!/usr/bin/env bash
# Synthesizes one block for each configuration given and prints a single
# markdown table, one row per configuration (area, cells, flip-flops, timing),
# e.g. FCFS against SIMT-aware at several buffer sizes:
#   scripts/synth_sweep.sh walk_sched out/sweep configs/sweeps/walk_sched/*.json
# Each run's full reports stay under OUT/<config name>/.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 BLOCK OUT_DIR CONFIG..." >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
txgen="${TXGEN:-$root/build/txgen}"
block="$1"
out="$2"
shift 2
rows=()
note=""
for config in "$@"; do
  name="$(basename "$config" .json)"
  echo "== synthesize $block for $name" >&2
  "$txgen" synth --config "$config" --block "$block" --out "$out/$name" >&2
  table="$out/$name/$block.synth.md"
  mapfile -t lines < <(grep '^|' "$table")
  [ ${#rows[@]} -eq 0 ] && rows+=("${lines[@]:0:2}")  # header and alignment row once
  rows+=("${lines[@]:2}")
  note="$(grep -v -e '^|' -e '^#' -e '^$' "$table" || true)"
done
{
  printf '%s\n' "${rows[@]}"
  printf '\n%s\n' "$note"
} | tee "$out/$block.sweep.md"
