#!/usr/bin/env bash
# Measures how far ABC's result moves when nothing that matters changes: each
# module of each CONFIG.json:BLOCK is synthesized by `txgen synth`, then
# synthesized again by hand from the same RTL in every VARIANT:
#   rerun   the flow unchanged: shows whether a rerun is identical
#   NNNN    ABC delay target NNNN ps instead of the flow's (period less the
#           I/O delays, 1900 ps)
#   noabc   synth -noabc: ABC gets the same logic without Yosys' own quick
#           ABC pass first, i.e. in another structure (what an unrelated RTL
#           change does to it)
# Prints per module the area and minimum period of every variant and their
# ranges; the largest minimum-period range is the spread that `txgen qor check`
# tolerates (docs/synthesis.md).
#   scripts/abc_spread.sh OUT CONFIG.json:BLOCK...
#   VARIANTS="rerun 1800 2000 noabc" JOBS=2 scripts/abc_spread.sh ...
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUT CONFIG.json:BLOCK..." >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
txgen="${TXGEN:-$root/build/txgen}"
variants="${VARIANTS:-rerun 1800 2000 noabc}"
jobs="${JOBS:-1}"
out="$1"
shift
liberty=/usr/share/qflow/tech/osu018/osu018_stdcells.lib

# area and minimum period of one work directory: "AREA PERIOD"
figures() {
  local area slack period
  area=$(awk '/Chip area for module/ { a = $NF } END { print a }' "$1/stat.txt")
  slack=$(sed -n 's/^worst_slack_ns=//p' "$1/sta.log")
  period=$(grep -o 'create_clock[^#]*-period [0-9.]*' "$1"/*.sdc | awk '{ print $NF }')
  awk -v a="$area" -v s="$slack" -v p="$period" 'BEGIN { printf "%.1f %.3f\n", a, p - s }'
}

# Re-runs yosys and sta of WORK (a txgen synth work directory) as VARIANT
# into WORK.abc/VARIANT.
remap() {
  local work=$1 variant=$2 dir=$1.abc/$2 d=1900 top files
  top=$(basename "$work")
  files=$(sed "s|^|$(dirname "$work")/rtl/|" "$(dirname "$work")/rtl/files.f" | tr '\n' ' ')
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$work"/yosys_synth.tcl "$work"/sta.tcl "$work"/*.sdc "$dir"/
  case $variant in
    noabc) sed -i 's/^yosys synth -top \$top -flatten/& -noabc/' "$dir/yosys_synth.tcl" ;;
    [0-9]*) d=$variant ;;
  esac
  (cd "$dir" &&
    TXGEN_TOP=$top TXGEN_VERILOG="$files" TXGEN_LIBERTY=$liberty TXGEN_ABC_DELAY_PS=$d TXGEN_OUT_DIR=$dir \
      yosys -c yosys_synth.tcl > yosys.log 2>&1 &&
    TXGEN_TOP=$top TXGEN_NETLIST=$dir/netlist.v TXGEN_LIBERTY=$liberty TXGEN_SDC=$(ls "$dir"/*.sdc) \
      sta -no_splash -exit sta.tcl > sta.log 2>&1)
  grep -q TXGEN_STA_DONE "$dir/sta.log" || { echo "abc_spread: sta failed in $dir" >&2; return 1; }
}
export -f remap
export liberty

mkdir -p "$out"
works=()
for spec in "$@"; do
  config=${spec%:*} block=${spec##*:}
  name=$(basename "$config" .json)
  echo "== txgen synth $name $block" >&2
  "$txgen" synth --config "$config" --block "$block" --out "$out/$name" --jobs "$jobs" > /dev/null
  for top in $(tail -n +2 "$out/$name/$block.synth.csv" | cut -d, -f1); do works+=("$out/$name/$top"); done
done
for work in "${works[@]}"; do
  for variant in $variants; do echo "$work $variant"; done
done | xargs -P "$jobs" -L 1 bash -c 'remap "$@"' remap

{
  printf '| module | flow |'
  for variant in $variants; do printf ' %s |' "$variant"; done
  printf ' area range %% | min period range ns | rerun: same netlist |\n|---|---:|'
  for variant in $variants; do printf -- '---:|'; done
  printf -- '---:|---:|---|\n'
  for work in "${works[@]}"; do
    read -r a0 p0 < <(figures "$work")
    line="| $(basename "$work") | $a0 / $p0 |"
    amin=$a0 amax=$a0 pmin=$p0 pmax=$p0
    for variant in $variants; do
      read -r a p < <(figures "$work.abc/$variant")
      line+=" $a / $p |"
      amin=$(awk -v x="$a" -v y="$amin" 'BEGIN { print (x < y ? x : y) }')
      amax=$(awk -v x="$a" -v y="$amax" 'BEGIN { print (x > y ? x : y) }')
      pmin=$(awk -v x="$p" -v y="$pmin" 'BEGIN { print (x < y ? x : y) }')
      pmax=$(awk -v x="$p" -v y="$pmax" 'BEGIN { print (x > y ? x : y) }')
    done
    line+=" $(awk -v l="$amin" -v h="$amax" 'BEGIN { printf "%.2f", 100 * (h - l) / l }') |"
    line+=" $(awk -v l="$pmin" -v h="$pmax" 'BEGIN { printf "%.3f", h - l }') |"
    same="—"
    [ -d "$work.abc/rerun" ] && same=$(cmp -s "$work/netlist.v" "$work.abc/rerun/netlist.v" && echo yes || echo NO)
    line+=" $same |"
    echo "$line"
  done
  echo
  echo "Each cell: area um^2 / min period ns; variants: $variants (see scripts/abc_spread.sh)."
} | tee "$out/abc_spread.md"
