#!/usr/bin/env bash
# Tables of the shared-L1 sweep (configs/sweeps/tx_path_agg.json): for every
# (T, C, latency) point and workload, the baseline's and the path's speedup
# over the private baseline (T = C = U, the generated latency), and their L2-TLB
# requests relative to it; then each workload's best point (Table 6.2's form).
# Usage: scripts/agg_study.sh SWEEP_DIR   (after `txgen sweep ... --out SWEEP_DIR`)
set -euo pipefail
dir="${1:?usage: agg_study.sh SWEEP_DIR}"
[ -d "$dir/points" ] || { echo "agg_study.sh: $dir/points: no such directory" >&2; exit 2; }
field() { sed -n "s/.*\"$2\": *\"\{0,1\}\([a-z0-9]*\)\"\{0,1\}.*/\1/p" "$1" | head -1; }
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for point in "$dir"/points/*/; do
  cfg="$point/config.json"
  cus=$(field "$cfg" cus) tlbs=$(field "$cfg" tlbs) clusters=$(field "$cfg" clusters) lat=$(field "$cfg" latency)
  for csv in "$point"/eval_*/eval.csv; do
    [ -f "$csv" ] || continue
    awk -F, -v c="$cus" -v t="${tlbs:-$cus}" -v k="${clusters:-${tlbs:-$cus}}" -v l="${lat:-rtl}" \
      'NR > 1 && $1 != "" { print c, t, k, l, $1, $2, $3, $9 }' "$csv"
  done
done > "$rows"
[ -s "$rows" ] || { echo "agg_study.sh: no eval results under $dir/points" >&2; exit 2; }
awk '
  { key = $2 "x" $3 " " $4; w = $5; cyc[key, w, $6] = $7; l2[key, w, $6] = $8; u = $1
    if (!(key in seen)) { seen[key] = 1; keys[++nk] = key; tl[key] = $2; cl[key] = $3 }
    if (!(w in ws)) { ws[w] = 1; wl[++nw] = w } }
  END {
    priv = u "x" u " rtl"
    split("baseline path baseline", design, " ")
    split("speedup of the baseline (the shared L1 alone) over the private baseline|speedup of the path (the shared L1 with the LDS and I-cache below it) over the private baseline|L2-TLB requests of the baseline, relative to the private baseline", title, "|")
    for (m = 1; m <= 3; ++m) {
      printf "%s%s:\n\n| T x C | latency |", (m > 1 ? "\n" : ""), toupper(substr(title[m], 1, 1)) substr(title[m], 2)
      for (i = 1; i <= nw; ++i) printf " %s |", wl[i]
      printf "\n|---|---|"; for (i = 1; i <= nw; ++i) printf "---:|"; printf "\n"
      for (n = 1; n <= nk; ++n) {
        k = keys[n]; split(k, kk, " "); printf "| %s | %s |", kk[1], kk[2]
        for (i = 1; i <= nw; ++i) {
          w = wl[i]; d = design[m]; b0 = cyc[priv, w, "baseline"]
          if (b0 == "" || cyc[k, w, d] == "") { printf " - |"; continue }
          v = m < 3 ? b0 / cyc[k, w, d] : l2[k, w, d] / l2[priv, w, "baseline"]
          printf " %.2f |", v
          if (m == 1 && v > best[w, kk[2]]) { best[w, kk[2]] = v; bk[w, kk[2]] = kk[1] }
          if (m == 2 && v > bestp[w, kk[2]]) { bestp[w, kk[2]] = v; bpk[w, kk[2]] = kk[1] }
        }
        printf "\n"
      }
    }
    printf "\nBest point per workload (speedup over the private baseline):\n\n"
    printf "| workload | baseline, rtl latency | baseline, document latency | path, rtl latency | path, document latency |\n|---|---|---|---|---|\n"
    for (i = 1; i <= nw; ++i) {
      w = wl[i]; printf "| %s |", w
      printf " %s %.2fx | %s %.2fx |", bk[w, "rtl"], best[w, "rtl"], bk[w, "document"], best[w, "document"]
      printf " %s %.2fx | %s %.2fx |\n", bpk[w, "rtl"], bestp[w, "rtl"], bpk[w, "document"], bestp[w, "document"]
    }
  }' < <(sort -k2,2nr -k3,3nr -k4,4r -k5,5 "$rows")
