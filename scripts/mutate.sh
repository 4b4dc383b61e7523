#!/usr/bin/env bash
# Mutation testing (docs/verification.md, "Mutation testing"): mutates the
# generated RTL of one co-simulation configuration at one point at a time
# (scripts/mutate_rtl.pl: operators, constants off by one, mux arms swapped,
# conditions inverted, inversions removed, reset values), rebuilds that
# configuration's co-simulation, runs its tests and reports each mutant as
# killed, survived or did-not-build. A survivor is then checked for
# equivalence with the original by Yosys (scripts/equiv_check.sh, matching the
# mutated module's ports and registers): a mutant proven equivalent changes no
# behaviour and is not counted against the tests.
#
# usage: scripts/mutate.sh [--seed S] [--only K] [--files REGEX] [--build DIR] [--out DIR] [--summary] BLOCK CONFIG_NAME [N]
#   N        mutants, default 20, drawn from every kind in turn (seeded)
#   --seed   default 1; the same seed, N and RTL give the same mutants
#   --only   run mutant K (1-based) of that list alone (replay)
#   --files  mutate only the RTL files whose names match REGEX (grep -E), e.g.
#            '^tx_path_' for the path's own glue, whose member blocks have
#            their own runs
#   --build  the CMake build tree, default build/ (one mutation run per tree
#            at a time: the tree's RTL is edited in place and put back at exit)
#   --out    default out/mutate/CONFIG_NAME; results.tsv and summary.md
#   --summary only rewrite OUT/summary.md from OUT/results.tsv
# Not in CI: each mutant re-verilates and recompiles its configuration.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seed=1
only=0
summary_only=0
files_re=""
build="$root/build"
out=""
usage() { sed -n 's/^# usage: //p' "$0" >&2; exit 2; }
while (( $# > 0 )); do
  case "$1" in
    --seed)  [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "--seed needs a number" >&2; usage; }
             seed="$2"; shift 2 ;;
    --only)  [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "--only needs a positive number" >&2; usage; }
             only="$2"; shift 2 ;;
    --files) [[ -n "${2:-}" ]] || usage; files_re="$2"; shift 2 ;;
    --build) [[ -n "${2:-}" ]] || usage; build="$2"; shift 2 ;;
    --out)   [[ -n "${2:-}" ]] || usage; out="$2"; shift 2 ;;
    --summary) summary_only=1; shift ;;
    -h|--help) usage ;;
    -*)      echo "unknown option $1" >&2; usage ;;
    *)       break ;;
  esac
done
(( $# == 2 || $# == 3 )) || usage
block="$1"
name="$2"
count="${3:-20}"
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a positive number" >&2; usage; }
line="$("$root/scripts/cosim_configs.sh" "$name")" || exit 2
read -r listed_block _ <<< "$line"
[[ "$listed_block" == "$block" ]] ||
  { echo "$(basename "$0"): configuration '$name' is co-simulated for block '$listed_block', not '$block'" >&2; exit 2; }

target="txgen_cosim_${block}_${name}"
out="${out:-$root/out/mutate/$name}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# write_summary: OUT/summary.md from OUT/results.tsv.
write_summary() {
  awk -F'\t' -v block="$block" -v name="$name" -v seed="$seed" '
    NR == 1 { next }
    { n[$7]++; gsub(/\|/, "\\|", $5); gsub(/\|/, "\\|", $6)
      rows = rows sprintf("| %s | %s:%s | %s | `%s` -> `%s` | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8) }
    END {
      behaving = n["killed"] + n["survived"]
      printf "# Mutation run: %s on %s (seed %s)\n\n", block, name, seed
      printf "%d mutants: %d killed, %d survived, %d equivalent (proven by Yosys), %d did not build.\n",
             NR - 1, n["killed"], n["survived"], n["equivalent"], n["did-not-build"]
      if (behaving > 0)
        printf "Killed %d of the %d mutants not proven equivalent (%.1f %%).\n\n", n["killed"], behaving, 100 * n["killed"] / behaving
      printf "| mutant | where | kind | change | result | s |\n|---:|---|---|---|---|---:|\n%s", rows
    }' "$out/results.tsv" > "$out/summary.md"
}

if (( summary_only )); then
  [[ -f "$out/results.tsv" ]] || { echo "no $out/results.tsv" >&2; exit 2; }
  write_summary
  sed -n 3,4p "$out/summary.md"
  exit 0
fi

[[ -f "$build/build.ninja" ]] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
build="$(cd "$build" && pwd)"

build_target() { nice -n 10 cmake --build "$build" --target "$target" -j 2 > "$1" 2>&1; }
exe_path() { find "$build" -name "$target" -type f -perm -u+x | head -1; }

echo "== build $target" >&2
build_target "$out/build.log" || { tail -30 "$out/build.log" >&2; exit 1; }
# The block's generated RTL in the tree (cmake/TxgenCosim.cmake): build/cosim/NAME/rtl*/.
rtl=""
for dir in "$build/cosim/$name"/rtl*; do
  grep -q "^${block}_" "$dir/files.f" 2> /dev/null && rtl="$dir"
done
[[ -n "$rtl" ]] || { echo "no generated $block RTL under $build/cosim/$name" >&2; exit 1; }
exe="$(exe_path)"
pristine="$out/original"
rm -rf "$pristine"
cp -r "$rtl" "$pristine"
restore() { cp "$pristine"/*.v "$rtl"/; }
trap restore EXIT

# The unmutated tests must pass; their time bounds a mutant's (a hang is a kill).
start=$SECONDS
"$exe" --gtest_brief=1 > "$out/original.log" 2>&1 ||
  { echo "the unmutated tests fail: $out/original.log" >&2; exit 1; }
limit=$(( (SECONDS - start) * 4 + 60 ))

# Behavioural SRAM stand-ins (the memories a chip would take as macros) are not mutated.
mapfile -t files < <(grep -E -- "${files_re:-.}" "$rtl/files.f" | grep -v '_sram\.v$' | sed "s|^|$rtl/|")
(( ${#files[@]} > 0 )) || { echo "no RTL file of $rtl/files.f matches --files '$files_re'" >&2; exit 2; }
mapfile -t points < <("$root/scripts/mutate_rtl.pl" list --seed "$seed" --count "$count" "${files[@]}")
(( ${#points[@]} > 0 )) || { echo "no mutation point in $rtl" >&2; exit 1; }
(( only <= ${#points[@]} )) || { echo "--only $only: there are ${#points[@]} mutants" >&2; exit 2; }

# run_mutant K FILE LINE COL KIND FROM TO: prints the result word.
run_mutant() {
  local k=$1 file=$2 line=$3 col=$4 from=$6 to=$7
  local dir="$out/m$k"
  rm -rf "$dir"
  mkdir -p "$dir"
  restore
  "$root/scripts/mutate_rtl.pl" apply "$file" "$line" "$col" "$from" "$to"
  cp -r "$rtl" "$dir/rtl"
  if ! build_target "$dir/build.log"; then
    echo did-not-build
  elif ! timeout "$limit" "$exe" --gtest_brief=1 --gtest_fail_fast > "$dir/test.log" 2>&1; then
    echo killed
  elif timeout 600 "$root/scripts/equiv_check.sh" --ports-and-registers "$pristine" "$dir/rtl" > "$dir/equiv.log" 2>&1; then
    echo equivalent
  else
    echo survived
  fi
}

printf 'mutant\tfile\tline\tkind\tfrom\tto\tresult\tseconds\n' > "$out/results.tsv"
for (( k = 1; k <= ${#points[@]}; k++ )); do
  (( only == 0 || only == k )) || continue
  IFS=$'\t' read -r file line col kind from to <<< "${points[k-1]}"
  start=$SECONDS
  result="$(run_mutant "$k" "$file" "$line" "$col" "$kind" "$from" "$to")"
  took=$(( SECONDS - start ))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$(basename "$file")" "$line" "$kind" "$from" "$to" "$result" "$took" \
    >> "$out/results.tsv"
  printf '[%d/%d] %s:%s %s "%s" -> "%s": %s (%d s)\n' "$k" "${#points[@]}" "$(basename "$file")" "$line" \
    "$kind" "$from" "$to" "$result" "$took" >&2
done
restore
trap - EXIT
build_target "$out/build.log" || echo "warning: rebuilding the unmutated $target failed: $out/build.log" >&2

write_summary
sed -n 3,4p "$out/summary.md"
echo "table: $out/summary.md; a mutant again: $0 --seed $seed --only K $block $name $count"
