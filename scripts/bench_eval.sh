#!/usr/bin/env bash
# Speed of the evaluation (docs/verification.md, "Speed of the evaluation"):
# requests replayed per second by each engine with the wavefront replay, on
# tests/configs/tx_path_small.json and configs/seed000_table1_path.json, one
# replay at a time, and the speed of `txgen trace import` on a generated
# Accel-Sim trace. A benchmark, not a test: it prints a table and writes
# OUT/bench_eval.md.
# Usage: scripts/bench_eval.sh [OUT] [--rtl]   (--rtl also builds and times the
# Verilated engine: about 6 minutes of build per configuration)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/build/bench_eval}"
rtl=0
[[ "${2:-}" == "--rtl" ]] && rtl=1
txgen="$root/build/txgen"
eval_exe="$root/build/txgen_eval"
[[ -x "$txgen" && -x "$eval_exe" ]] || { echo "bench_eval: build first (scripts/build.sh)" >&2; exit 1; }
mkdir -p "$out"
md="$out/bench_eval.md"
kinds=(atax gups bfs lds_heavy)

# requests/s of each replay in an eval.json, "workload design rate" lines
rates() {
  sed -n 's/.*"design": "\([a-z]*\)".*/\1/p; s/.*"requests_per_second": \([0-9.e+]*\).*/\1/p; s/.*"workload": "\([a-z_]*\)".*/\1/p' "$1" |
    paste - - - | awk '{ printf "%s %s %.3f\n", $3, $1, $2 / 1e6 }'
}

{
  echo "### Replay speed (wavefront replay, M requests/s, one replay at a time, $(nproc) cores)"
  echo
  echo "| configuration | workload | design | model | txn | rtl |"
  echo "|---|---|---|---:|---:|---:|"
} > "$md"
for config in tests/configs/tx_path_small.json configs/seed000_table1_path.json; do
  name=$(basename "$config" .json)
  traces=()
  for k in "${kinds[@]}"; do
    "$txgen" trace --config "$root/$config" --kind "$k" --out "$out/$name/$k.trace" > /dev/null
    traces+=(--trace "$out/$name/$k.trace")
  done
  for engine in model txn; do
    "$eval_exe" --config "$root/$config" --engine "$engine" --jobs 1 "${traces[@]}" --out "$out/$name/$engine" \
      > "$out/$name/$engine.log" 2>&1
    rates "$out/$name/$engine/eval.json" > "$out/$name/$engine.rates"
  done
  if ((rtl)); then
    "$txgen" eval --config "$root/$config" --engine rtl --jobs 1 "${traces[@]}" --out "$out/$name/rtl" \
      > "$out/$name/rtl.log" 2>&1
    rates "$out/$name/rtl/eval.json" > "$out/$name/rtl.rates"
  else
    awk '{ print $1, $2, "-" }' "$out/$name/model.rates" > "$out/$name/rtl.rates"
  fi
  paste -d' ' "$out/$name/model.rates" "$out/$name/txn.rates" "$out/$name/rtl.rates" |
    awk -v c="$name" '{ printf "| %s | %s | %s | %s | %s | %s |\n", c, $1, $2, $3, $6, $9 }' >> "$md"
done

# An Accel-Sim trace of 2000 thread blocks x 8 warps, a third of the
# instructions global loads in the three address modes.
acc="$out/accelsim/traces"
mkdir -p "$acc"
printf 'MemcpyHtoD,0x00007f0000000000,1048576\nkernel-1.traceg\n' > "$acc/kernelslist.g"
awk 'BEGIN {
  print "-kernel name = bench_kernel"; print "-grid dim = (2000,1,1)"; print "-block dim = (256,1,1)";
  print "-shmem = 0"; print "-accelsim tracer version = 5"; print "";
  for (b = 0; b < 2000; ++b) {
    print "#BEGIN_TB"; printf "thread block = %d,0,0\n", b;
    for (w = 0; w < 8; ++w) {
      printf "warp = %d\ninsts = 6\n", w;
      print "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0";
      printf "0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x%x 4 0\n", 140737488355328 + (b * 8 + w) * 128;
      print "0020 ffffffff 1 R3 FFMA 3 R2 R2 R3 0 0";
      printf "0030 0000ffff 1 R4 LDG.E 1 R4 4 2 0x%x", 140737488355328 + b * 65536 + w * 4096;
      for (l = 1; l < 16; ++l) printf " %d", (l % 3 == 0) ? 8192 : 4; print " 0";
      printf "0040 0000000f 0 STG.E 2 R2 R3 4 0 0x%x 0x%x 0x%x 0x%x 0\n",
        140737488355328 + b * 4096, 140737488355328 + b * 4096 + 8192, 140737488355328 + w * 65536, 140737488355328;
      print "0050 ffffffff 0 EXIT 0 0 0";
    }
    print "#END_TB";
  }
}' > "$acc/kernel-1.traceg"
import_line=$("$txgen" trace import --from accelsim "$acc/kernelslist.g" --cus 8 --out "$out/accelsim.trace" | tail -1)
{
  echo
  echo "Import: $(du -h "$acc/kernel-1.traceg" | cut -f1) Accel-Sim kernel trace: ${import_line#txgen: }"
} >> "$md"
cat "$md"
