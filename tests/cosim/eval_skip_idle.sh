#!/bin/sh
# Idle skipping must not change a result: replays every synthetic workload
# through the golden models jumping over idle cycles, once after a fixed point
# (the default) and once after the drain bound (the RTL engine's rule), and
# once stepping every cycle, and fails unless the eval.csv tables (cycles,
# hits, L2-TLB requests, latencies; no timings) and the eval_energy.csv
# tables (SRAM accesses, page-walk reads, energies) are identical.
# Usage: eval_skip_idle.sh TXGEN EVAL_EXE CONFIG OUT [EVAL OPTIONS...]
set -eu
txgen=$1 exe=$2 config=$3 out=$4
shift 4
mkdir -p "$out"
traces=""
for kind in atax bicg mvt gesummv gups bfs lds_heavy; do
  "$txgen" trace --config "$config" --kind "$kind" --requests 300 --out "$out/$kind.trace"
  traces="$traces --trace $out/$kind.trace"
done
# shellcheck disable=SC2086
"$exe" --engine model "$@" $traces --out "$out/skip" | grep 'simulated'
# shellcheck disable=SC2086
"$exe" --engine model "$@" --skip-by-drain $traces --out "$out/drain" | grep 'simulated'
# shellcheck disable=SC2086
"$exe" --engine model "$@" --no-skip-idle $traces --out "$out/every" > /dev/null
for rule in skip drain; do
  for table in eval.csv eval_energy.csv; do
    if ! diff "$out/every/$table" "$out/$rule/$table"; then
      echo "eval_skip_idle: skipping idle cycles ($rule) changed $table (< every cycle, > skipping)" >&2
      exit 1
    fi
  done
done
echo "eval_skip_idle: identical results"
