#!/usr/bin/env bash
# Proves that two revisions of the generator emit equivalent RTL for every
# configuration the older one ships (configs/, configs/sweeps/, tests/configs/):
# builds `txgen` at each revision in a git worktree under WORK, generates every
# configuration with both, and runs scripts/equiv_check.sh over the two trees.
#
#   scripts/equiv_revs.sh [--ports-and-registers] [--rename FILE] OLD_REV NEW_REV WORK [MODULE_REGEX]
#
# --rename FILE goes to equiv_check.sh (registers NEW_REV renamed).
#
# The typed-layer port was proven with
#   scripts/equiv_revs.sh --ports-and-registers 0d61630 96a08c6 /tmp/port
# (docs/hdl.md, "The typed-layer port, proven").
set -euo pipefail
mode=()
if [[ ${1:-} == --ports-and-registers ]]; then
  mode=(--ports-and-registers)
  shift
fi
if [[ ${1:-} == --rename ]]; then
  [[ -f ${2:-} ]] || { echo "equiv_revs: no rename file ${2:-}" >&2; exit 2; }
  mode+=(--rename "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
  shift 2
fi
if (($# < 3)); then
  echo "usage: $0 [--ports-and-registers] [--rename FILE] OLD_REV NEW_REV WORK [MODULE_REGEX]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
old_rev=$1 new_rev=$2 work=$3 filter=${4:-.}
mkdir -p "$work"
work="$(cd "$work" && pwd)"

# build_at REV: the txgen binary of REV, built once in WORK/tree_REV
build_at() {
  local tree="$work/tree_$1"
  [[ -d $tree ]] || git -C "$root" worktree add -f --detach "$tree" "$1" >/dev/null
  cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTXGEN_BUILD_TESTS=OFF >/dev/null
  cmake --build "$tree/build" --target txgen >/dev/null
  echo "$tree/build/txgen"
}

old_txgen=$(build_at "$old_rev")
new_txgen=$(build_at "$new_rev")
rm -rf "$work/old" "$work/new"
shopt -s nullglob
for config in "$work/tree_$old_rev"/configs/*.json "$work/tree_$old_rev"/configs/sweeps/*/*.json \
              "$work/tree_$old_rev"/tests/configs/*.json; do
  name=$(basename "$config" .json)
  "$old_txgen" gen --config "$config" --out "$work/old/$name" >/dev/null
  "$new_txgen" gen --config "$config" --out "$work/new/$name" >/dev/null
done
"$root/scripts/equiv_check.sh" "${mode[@]}" "$work/old" "$work/new" "$filter"
