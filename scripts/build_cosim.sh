#!/usr/bin/env bash
# Builds the co-simulation executables of the named configurations (every one
# without an argument) in build/, configuring it first when needed, at low
# priority. The build's output goes to LOG; its tail is printed on a failure.
# For scripts/bench_cosim.sh, scripts/soak.sh and scripts/profile_cosim.sh.
# usage: scripts/build_cosim.sh LOG [BLOCK|CONFIG_NAME ...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
(( $# >= 1 )) || { sed -n 's/^# usage: //p' "$0" >&2; exit 2; }
log="$1"; shift
mapfile -t configs < <("$root/scripts/cosim_configs.sh" "$@")
(( ${#configs[@]} > 0 )) || exit 2
build="$root/build"
[[ -f "$build/build.ninja" ]] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
targets=()
for line in "${configs[@]}"; do
  read -r block name _ <<< "$line"
  targets+=("txgen_cosim_${block}_${name}")
done
echo "== build ${#targets[@]} co-simulation binaries" >&2
nice -n 10 cmake --build "$build" --target "${targets[@]}" -j 2 > "$log" 2>&1 ||
  { tail -30 "$log" >&2; exit 1; }
