#!/usr/bin/env bash
# Regenerates the checked-in RTL of every preset under rtl/<config name>/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
txgen="${TXGEN:-$root/build/txgen}"
for cfg in "$root"/configs/*.json; do
  name="$(basename "$cfg" .json)"
  rm -rf "$root/rtl/$name"
  "$txgen" gen --config "$cfg" --out "$root/rtl/$name"
done
