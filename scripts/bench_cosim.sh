#!/usr/bin/env bash
# Co-simulation speed of every block and configuration (docs/verification.md,
# "Co-simulation speed"). Per configuration, its random tests run once as CI
# runs them ("test": stimulus generation and scoreboards included), then again
# recording every harness's inputs, which are replayed into the Verilated RTL
# alone, the golden model alone and the lock-step pair (TXGEN_COSIM_BENCH=1,
# verif/cosim_util.h). Figures are cycles per CPU second of the simulating
# thread, the replays' the median of --runs. Writes OUT/bench.md (the table
# with the machine it ran on), OUT/bench.csv and one log per configuration.
#
# usage: scripts/bench_cosim.sh [--cycles N] [--runs R] [--out DIR] [BLOCK|CONFIG_NAME ...]
#   --cycles  random cycles per test (TXGEN_COSIM_CYCLES; tests keep their minimum), default 200000
#   --runs    replays per engine, default 3
#   --out     default out/bench
# Not a test: it builds the co-simulation binaries it needs in build/ and takes
# minutes (Table 1's tx_path alone several).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cycles=200000
runs=3
out="$root/out/bench"
usage() { sed -n 's/^# usage: //p' "$0" >&2; exit 2; }
while (( $# > 0 )); do
  case "$1" in
    --cycles) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "--cycles needs a positive number" >&2; usage; }
              cycles="$2"; shift 2 ;;
    --runs)   [[ "${2:-}" =~ ^[1-9][0-9]?$ ]] || { echo "--runs needs a number 1-99" >&2; usage; }
              runs="$2"; shift 2 ;;
    --out)    [[ -n "${2:-}" ]] || usage; out="$2"; shift 2 ;;
    -h|--help) usage ;;
    -*)       echo "unknown option $1" >&2; usage ;;
    *)        break ;;
  esac
done
mapfile -t configs < <("$root/scripts/cosim_configs.sh" "$@")
(( ${#configs[@]} > 0 )) || exit 2

build="$root/build"
mkdir -p "$out"
"$root/scripts/build_cosim.sh" "$out/build.log" "$@"

csv="$out/bench.csv"
echo "block,config,test,cycles,test_cps,rtl_cps,model_cps,pair_cps,pair_vs_rtl,pair_allocs_per_cycle" > "$csv"
for line in "${configs[@]}"; do
  read -r block name _ <<< "$line"
  log="$out/$name.log"
  echo "== $block $name" >&2
  if ! TXGEN_COSIM_BENCH=1 TXGEN_COSIM_CYCLES="$cycles" TXGEN_BENCH_RUNS="$runs" \
       nice -n 10 "$build/tests/cosim/txgen_cosim_${block}_${name}" \
       --gtest_filter='*Random*:*RoundTrip*' > "$log" 2>&1; then
    echo "bench_cosim: $block $name failed, see $log" >&2
    exit 1
  fi
  sed -nE "s/^\[bench\] ${name}_([A-Za-z0-9_]+) cycles=([0-9]+) test_cps=([0-9]+) rtl_cps=([0-9]+) model_cps=([0-9]+) pair_cps=([0-9]+) pair_vs_rtl=([0-9.]+)( pair_allocs_per_cycle=([0-9.]+))?$/$block,$name,\1,\2,\3,\4,\5,\6,\7,\9/p" \
    "$log" >> "$csv"
done

# Markdown: M cycles/s with 3 significant digits, the ratio in percent.
{
  echo "Co-simulation speed, cycles per CPU second (M = 10^6); $(date -u +%Y-%m-%d),"
  echo "$(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GB;"
  echo "$(verilator --version | cut -d' ' -f1-2), $(g++ --version | head -1);"
  echo "\`scripts/bench_cosim.sh --cycles $cycles --runs $runs\`."
  echo
  echo "| block | configuration | test | cycles | test | RTL alone | model alone | lock-step | lock-step / RTL | lock-step allocations / cycle |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 {
    printf "| %s | %s | %s | %d | %.3g M | %.3g M | %.3g M | %.3g M | %.0f %% | %s |\n",
           $1, $2, $3, $4, $5 / 1e6, $6 / 1e6, $7 / 1e6, $8 / 1e6, 100 * $9, $10 == "" ? "-" : $10 }' "$csv"
} > "$out/bench.md"
cat "$out/bench.md"
