#!/usr/bin/env bash
# Writes OUT/report.md and OUT/report.json from a main-job run (scripts/main.sh):
# per block the generated files, the co-simulation verdict with its speed, the
# synthesis table, the power table (when the job measured it) and the storage
# figures of `txgen report`.
#   scripts/combined_report.sh TXGEN CONFIG OUT
set -euo pipefail
txgen=$1 config=$2 out=$3
blocks="$("$txgen" report --config "$config" --format names)"
{
  echo "# txgen main job: $(basename "$config" .json)"
  echo
  echo "Generated RTL: $(wc -l < "$out/rtl/files.f") modules in \`$out/rtl\` (files.f, manifest.json)."
  echo
  echo "## Co-simulation (RTL against the golden model, every output every cycle)"
  echo
  echo "| block | result | tests | random cycles/s |"
  echo "|---|---|---:|---|"
  for block in $blocks; do
    log="$out/cosim_$block.log"
    verdict=$(grep -q "co-simulation passed" "$log" && echo passed || echo FAILED)
    tests=$(grep -oE "\[  PASSED  \] [0-9]+ tests?" "$log" | grep -oE "[0-9]+" | head -1 || true)
    # the runs of 10^4 cycles or more: "[cosim] NAME: N cycles, X cycles/s"
    speed=$(awk '/^\[cosim\] [^ ]+: [0-9]+ cycles, [0-9]+ cycles\/s/ && $3 + 0 >= 10000 { printf "%.2f M ", $5 / 1e6 }' "$log" || true)
    echo "| $block | $verdict | ${tests:-0} | $speed |"
  done
  echo
  echo "## Synthesis (osu018, 2.5 ns)"
  echo
  for block in $blocks; do
    # the module table; then the whole structure (logic + SRAM macros) where
    # the block has macros, else the logic overhead against the baseline
    md="$out/synth/$block/$block.synth.md"
    skip='^### SRAM macros'
    if grep -q '^### Whole structure' "$md"; then skip='^### (SRAM macros|Overhead)'; fi
    awk -v skip="$skip" '/^### / { keep = ($0 !~ skip) }
      keep && /^\|/ { print; table = 1; next }
      table { print ""; table = 0 }' "$md"
  done
  echo
  if [ -d "$out/power" ]; then
    echo "## Power (the co-simulation's random traffic, gate level, osu018, 2.5 ns)"
    echo
    for block in $blocks; do
      # the module table and the note under it (docs/power.md)
      md="$out/power/$block/$block.power.md"
      [ -f "$md" ] || continue
      awk '/^### Power/ { keep = 1 } /^SRAM macros|^Energy per/ { keep = 0 }
        keep && /^\|/ { print; table = 1; next }
        table { print ""; table = 0 }' "$md"
    done
    echo
  fi
  "$txgen" report --config "$config" | sed 's/^# /## /'
} > "$out/report.md"
{
  echo "{\"config\": \"$(basename "$config" .json)\", \"blocks\": {"
  sep=""
  for block in $blocks; do
    verdict=$(grep -q "co-simulation passed" "$out/cosim_$block.log" && echo true || echo false)
    power="$out/power/$block/$block.power.json"
    echo "$sep\"$block\": {\"cosim_passed\": $verdict, \"synthesis\": $(cat "$out/synth/$block/$block.synth.json"),"
    [ -f "$power" ] && echo "\"power\": $(cat "$power"),"
    echo "\"report\": $("$txgen" report --config "$config" --block "$block" --format json)}"
    sep=","
  done
  echo "}}"
} > "$out/report.json"
