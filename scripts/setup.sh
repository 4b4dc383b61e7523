#!/usr/bin/env bash
# Installs the Debian 12 packages txgen needs (skips apt when all are present).
set -euo pipefail
packages=(
  g++ make cmake ninja-build pkg-config zlib1g-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev
  verilator iverilog libsystemc-dev
  yosys opensta qflow-tech-osu018 z3
  gnuplot-nox
  slurm-wlm munge
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup: all packages present"
  exit 0
fi
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
echo "setup: installing ${missing[*]}"
log=$(mktemp)
# quiet unless it fails
if ! { "${sudo_cmd[@]}" apt-get update -qq &&
       DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
     > "$log" 2>&1; then
  cat "$log"
  echo "setup: apt-get failed" >&2
  exit 1
fi
rm -f "$log"
echo "setup: done"
