#!/usr/bin/env bash
# Synthesizes one block for each configuration given and prints a single
# markdown table, one row per configuration (area, cells, flip-flops, timing),
# e.g. FCFS against SIMT-aware at several buffer sizes:
#   scripts/synth_sweep.sh walk_sched out/sweep configs/sweeps/walk_sched/*.json
#   JOBS=2 scripts/synth_sweep.sh ...   # two configurations at once (largest first)
# Each run's full reports stay under OUT/<config name>/.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 BLOCK OUT_DIR CONFIG..." >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
txgen="${TXGEN:-$root/build/txgen}"
jobs="${JOBS:-1}"
block="$1"
out="$2"
shift 2

# Largest configuration first (by file size of its generated RTL), so that two
# jobs finish together instead of the biggest starting last.
order=()
while read -r _ config; do order+=("$config"); done < <(
  for config in "$@"; do
    "$txgen" gen --config "$config" --block "$block" --out "$out/.gen" > /dev/null
    echo "$(cat "$out"/.gen/*.v | wc -c) $config"
    rm -rf "$out/.gen"
  done | sort -rn)
printf '%s\n' "${order[@]}" |
  xargs -P "$jobs" -I{} sh -c 'name=$(basename "$1" .json); echo "== synthesize $2 for $name" >&2;
    "$0" synth --config "$1" --block "$2" --out "$3/$name" > "$3/$name.log" 2>&1 ||
    { cat "$3/$name.log" >&2; exit 255; }' "$txgen" {} "$block" "$out"

rows=()
note=""
for config in "$@"; do
  name="$(basename "$config" .json)"
  table="$out/$name/$block.synth.md"
  # the module table (the first one; the overhead table follows)
  mapfile -t lines < <(awk '/^\| module/ { t++ } t == 1 && /^\|/' "$table")
  [ ${#rows[@]} -eq 0 ] && rows+=("${lines[@]:0:2}")  # header and alignment row once
  rows+=("${lines[@]:2}")
  note="$(awk '/^### Overhead/ { exit } /^\| module/ { t = 1 } t && !/^\|/ && !/^$/' "$table")"
done
{
  printf '%s\n' "${rows[@]}"
  printf '\n%s\n' "$note"
} | tee "$out/$block.sweep.md"
