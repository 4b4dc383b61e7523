#!/usr/bin/env bash
# Where a co-simulation's time goes (docs/verification.md, "Co-simulation
# speed"). Per configuration, its random tests run once as CI runs them under
# `perf record` (user space, -F 1999), and every sample is put in one class by
# its symbol and object: the Verilated RTL (the V<top> classes and the
# Verilator runtime), the golden model (txgen::model), the harness (the rest
# of txgen::verif: driving ports, comparing, coverage, the lock-step loop), the
# test (stimulus, its random numbers and scoreboards: everything else in the
# executable) and the C/C++ runtime (libc, libstdc++, libm: allocation,
# copies). Writes OUT/profile.md (the table, with the machine), OUT/profile.csv
# and OUT/<config>.top (the ten hottest symbols of each configuration).
#
# usage: scripts/profile_cosim.sh [--cycles N] [--out DIR] [BLOCK|CONFIG_NAME ...]
#   --cycles  random cycles per test (TXGEN_COSIM_CYCLES; tests keep their minimum), default 100000
#   --out     default out/profile
# Not a test: needs perf (linux-perf) and the co-simulation binaries it builds in build/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cycles=100000
out="$root/out/profile"
usage() { sed -n 's/^# usage: //p' "$0" >&2; exit 2; }
while (( $# > 0 )); do
  case "$1" in
    --cycles) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "--cycles needs a positive number" >&2; usage; }
              cycles="$2"; shift 2 ;;
    --out)    [[ -n "${2:-}" ]] || usage; out="$2"; shift 2 ;;
    -h|--help) usage ;;
    -*)       echo "unknown option $1" >&2; usage ;;
    *)        break ;;
  esac
done
command -v perf > /dev/null || { echo "profile_cosim: perf not found (Debian package linux-perf)" >&2; exit 1; }
mapfile -t configs < <("$root/scripts/cosim_configs.sh" "$@")
(( ${#configs[@]} > 0 )) || exit 2

build="$root/build"
mkdir -p "$out"
"$root/scripts/build_cosim.sh" "$out/build.log" "$@"

# One class per sample, from perf's "overhead dso symbol" lines.
classify() {
  awk -v block="$1" -v name="$2" -v top="$3" '
    /^ *[0-9.]+%/ {
      pct = $1; sub(/%/, "", pct); dso = $2
      sym = $0; sub(/^ *[0-9.]+% +[^ ]+ +(\[[.k]\] +)?/, "", sym)
      sub(/ +$/, "", sym)
      # the scope of the function itself decides (template arguments name others)
      if (sym ~ /^V[A-Za-z0-9_]+(___|::)/ || sym ~ /^Verilated|^Vl|^vl_/ || dso ~ /verilated/) c = "rtl"
      else if (sym ~ /^txgen::model::/) c = "model"
      else if (sym ~ /^txgen::verif::Rng::|^std::mersenne_twister|^std::uniform_/) c = "test"
      else if (sym ~ /^txgen::verif::/) c = "harness"
      else if (dso ~ /^lib(c|stdc\+\+|m|gcc_s)[.-]/ || dso ~ /^ld-linux/) c = "runtime"
      else c = "test"
      share[c] += pct
      if (n < 10) { printf "%6.2f %% %-8s %s\n", pct, c, substr(sym, 1, 150) > top; n++ }
    }
    END {
      printf "%s,%s,%.1f,%.1f,%.1f,%.1f,%.1f\n", block, name,
             share["rtl"], share["model"], share["harness"], share["test"], share["runtime"]
    }'
}

csv="$out/profile.csv"
echo "block,config,rtl_pct,model_pct,harness_pct,test_pct,runtime_pct" > "$csv"
for line in "${configs[@]}"; do
  read -r block name _ <<< "$line"
  echo "== $block $name" >&2
  data="$out/$name.perf.data"
  if ! TXGEN_COSIM_CYCLES="$cycles" perf record -q -F 1999 -o "$data" -- \
       "$build/tests/cosim/txgen_cosim_${block}_${name}" --gtest_filter='*Random*:*RoundTrip*' \
       > "$out/$name.log" 2>&1; then
    echo "profile_cosim: $block $name failed, see $out/$name.log" >&2
    exit 1
  fi
  perf report -i "$data" --stdio --no-children -q --sort dso,symbol 2> /dev/null |
    classify "$block" "$name" "$out/$name.top" >> "$csv"
  rm -f "$data"
done

{
  echo "Co-simulation profile, share of CPU samples (perf, user space); $(date -u +%Y-%m-%d),"
  echo "$(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; \`scripts/profile_cosim.sh --cycles $cycles\`."
  echo
  echo "| block | configuration | Verilated RTL | model | harness | test (stimulus) | C/C++ runtime |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { printf "| %s | %s | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %.0f %% |\n", $1, $2, $3, $4, $5, $6, $7 }' "$csv"
} > "$out/profile.md"
cat "$out/profile.md"
