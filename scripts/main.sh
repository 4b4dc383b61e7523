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
echo "== co-simulate (RTL vs golden model, lock step)"
"$txgen" cosim --config "$config" --block bd_codec --out "$out/cosim"
echo "== synthesize (Yosys + OpenSTA, osu018)"
"$txgen" synth --config "$config" --block bd_codec --out "$out/synth"
echo "== reports in $out"
