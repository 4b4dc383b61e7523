#!/bin/sh
# The transaction-level engine tracks the golden models: replays every
# synthetic workload (whole default streams) through both and fails when the
# transaction-level L2-TLB requests of any replay (baseline or path) differ
# from the model's by more than the tolerance (txn-check, 5 % unless given).
# Usage: eval_txn.sh TXGEN EVAL_EXE CONFIG OUT [TOLERANCE_PERCENT]
set -eu
txgen=$1 exe=$2 config=$3 out=$4 tolerance=${5:-5}
mkdir -p "$out"
traces=""
for kind in atax bicg mvt gesummv gups bfs lds_heavy; do
  "$txgen" trace --config "$config" --kind "$kind" --out "$out/$kind.trace"
  traces="$traces --trace $out/$kind.trace"
done
# shellcheck disable=SC2086
status=0
"$exe" --engine txn-check --txn-tolerance "$tolerance" $traces --out "$out/check" > "$out/check.log" 2>&1 || status=$?
grep -e 'txn vs model' -e 'error' "$out/check.log"
exit "$status"
