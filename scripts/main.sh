#!/usr/bin/env bash
# README command 1: install, build the CLI, then the main job on the default
# configuration (or CONFIG.json): generate RTL, co-simulate every block against
# its golden model, synthesize it, measure its power on the co-simulation's
# traffic, and write one combined report
# out/<config>/report.md (and report.json).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
config="${1:-$root/configs/default.json}"
name="$(basename "$config" .json)"
out="$root/out/$name"
"$root/scripts/setup.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$root/build.log" 2>&1 ||
  { cat "$root/build.log"; exit 1; }
echo "== build the txgen CLI (the co-simulations build their own binaries)"
cmake --build "$root/build" --target txgen -j "$(nproc)" >> "$root/build.log" 2>&1 ||
  { tail -50 "$root/build.log"; exit 1; }
txgen="$root/build/txgen"
mkdir -p "$out"
echo "== generate"
"$txgen" gen --config "$config" --out "$out/rtl"
blocks="$("$txgen" report --config "$config" --format names)"
# Synthesis (one Yosys process, single-threaded) runs beside the co-simulations,
# whose builds leave a core idle while Verilator translates.
synthesize_all() {
  for block in $blocks; do
    "$txgen" synth --config "$config" --block "$block" --out "$out/synth/$block" > "$out/synth_$block.log"
  done
}
echo "== synthesize $(echo $blocks) (Yosys + OpenSTA, osu018), in the background"
synthesize_all &
synthesis=$!
trap 'kill "$synthesis" 2>/dev/null || true' EXIT  # a failed co-simulation ends the job
# The co-simulations build in the CLI's own tree: the generator library it just
# compiled is reused, and the model library compiles once for every block.
# (scripts/build.sh puts the tree back to the whole test suite.)
for block in $blocks; do
  echo "== co-simulate $block (RTL vs golden model, lock step)"
  "$txgen" cosim --config "$config" --block "$block" --out "$out/cosim/$block" --build-dir "$root/build" \
    > "$out/cosim_$block.log"
  grep -E "cycles/s|co-simulation (passed|FAILED)" "$out/cosim_$block.log" || true
done
# Power on the same traffic: the random tests re-run with their waveforms, the
# first 5,000 cycles replayed into each mapped netlist (docs/power.md).
for block in $blocks; do
  echo "== power of $block (co-simulation activity, gate-level replay, OpenSTA)"
  "$txgen" power --config "$config" --block "$block" --out "$out/power/$block" --build-dir "$root/build" \
    --cycles 2000 --replay-cycles 5000 > "$out/power_$block.log" 2>&1 ||
    { tail -20 "$out/power_$block.log"; exit 1; }
done
echo "== wait for synthesis"
wait "$synthesis" || { echo "synthesis failed: logs $out/synth_*.log"; exit 1; }
"$root/scripts/combined_report.sh" "$txgen" "$config" "$out"
cat "$out/report.md"
echo "== reports in $out (report.md, report.json)"
