#!/usr/bin/env bash
# Shows that a generator change that only adds or edits formal properties
# leaves every module's text outside `ifdef FORMAL untouched.
#
#   scripts/formal_text_check.sh OLD_TXGEN NEW_TXGEN [CONFIG...]
#
# Generates every configuration (default: configs/*.json and
# tests/configs/*.json) with both binaries, removes the `ifdef FORMAL ...
# `endif regions (nesting-aware) from each file and compares the rest byte for
# byte. Prints one line per configuration; exits 1 if any file differs or is
# missing, 2 on bad arguments. Work files go to a temporary directory.
set -uo pipefail

if (($# < 2)); then
  echo "usage: $0 OLD_TXGEN NEW_TXGEN [CONFIG...]" >&2
  exit 2
fi
old_bin=$1 new_bin=$2
shift 2
root="$(cd "$(dirname "$0")/.." && pwd)"
if (($# == 0)); then set -- "$root"/configs/*.json "$root"/tests/configs/*.json; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the file without its FORMAL regions
strip_formal() {
  awk '
    depth == 0 && /^[ \t]*`ifdef FORMAL[ \t]*$/ { depth = 1; next }
    depth > 0 && /^[ \t]*`if(n)?def/ { depth++; next }
    depth > 0 && /^[ \t]*`endif/ { depth--; next }
    depth == 0 { print }' "$1"
}

fail=0
for cfg in "$@"; do
  name=$(basename "$cfg" .json)
  "$old_bin" gen --config "$cfg" --out "$work/old/$name" >/dev/null 2>&1 || { echo "skipped    $name (old generator rejects it)"; continue; }
  if ! "$new_bin" gen --config "$cfg" --out "$work/new/$name" >/dev/null 2>&1; then
    echo "DIFFERENT  $name (new generator rejects it)"
    fail=1
    continue
  fi
  files=0 with_formal=0 bad=""
  for f in "$work/old/$name"/*.v; do
    base=$(basename "$f")
    files=$((files + 1))
    new="$work/new/$name/$base"
    [[ -f $new ]] || { bad+=" $base(missing)"; continue; }
    grep -q '`ifdef FORMAL' "$new" && with_formal=$((with_formal + 1))
    cmp -s <(strip_formal "$f") <(strip_formal "$new") || bad+=" $base"
  done
  if [[ -n $bad ]]; then
    echo "DIFFERENT  $name:$bad"
    fail=1
  else
    echo "unchanged  $name ($files files, $with_formal with a FORMAL region)"
  fi
done
exit $fail
