#!/usr/bin/env bash
# README command 1: install, build, then the main job on the default
# configuration: generate RTL, co-simulate it against the golden model, and
# synthesize it for the area/timing report.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
config="${1:-$root/configs/default.json}"
out="$root/out/$(basename "$config" .json)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
txgen="$root/build/txgen"
echo "== generate"
"$txgen" gen --config "$config" --out "$out/rtl"
echo "== report"
"$txgen" report --config "$config"
blocks="$("$txgen" report --config "$config" --format names)"
for block in $blocks; do
  echo "== co-simulate $block (RTL vs golden model, lock step)"
  "$txgen" cosim --config "$config" --block "$block" --out "$out/cosim/$block"
done
for block in $blocks; do
  echo "== synthesize $block (Yosys + OpenSTA, osu018)"
  "$txgen" synth --config "$config" --block "$block" --out "$out/synth/$block"
done
echo "== reports in $out"
