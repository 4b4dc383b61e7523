#!/usr/bin/env bash
# Runs `txgen prove` on every small formal configuration (the ones the test
# suite proves, and the larger aware-variant icache_formal it leaves out) and
# collects the reports in OUT/prove.md. About 3 min (105 s of CPU), one proof at a time.
#
#   scripts/prove_all.sh [OUT]        (default out/prove_all)
#
# Exits 1 if any property is not proven.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
txgen="${TXGEN:-$root/build/txgen}"
out="${1:-out/prove_all}"
mkdir -p "$out"
: >"$out/prove.md"
status=0
while read -r config block; do
  "$txgen" prove --require-proof --config "$root/tests/configs/$config.json" --block "$block" \
    --out "$out/$config/$block" >>"$out/prove.md" || status=1
done <<'EOF'
lds_formal bd_codec
icache_formal bd_codec
lds_formal lds_ctrl
icache_formal_naive icache_tx
icache_formal_txfirst icache_tx
icache_formal icache_tx
walk_formal walk_sched
dhsl_small dhsl
iommu_small iommu
iommu_fcfs iommu
iommu_tiny iommu
EOF
cat "$out/prove.md"
exit $status
