#!/usr/bin/env bash
# Proves that two generations of the same configurations are equivalent.
#
#   scripts/equiv_check.sh [--ports-and-registers] [--rename FILE] OLD_DIR NEW_DIR [MODULE_REGEX]
#
# OLD_DIR and NEW_DIR are `txgen gen` outputs (a files.f and one module per
# file), or folders of such outputs with matching sub-folder names. Every
# module file of OLD must exist in NEW. Identical files pass as they are; for
# the others Yosys proves the two flattened modules equivalent over matching
# signal names (equiv_make, equiv_struct to merge identical logic, equiv_simple
# -seq 2, equiv_induct, equiv_status
# -assert: see ../shared/toolflow.md). Prints one line per module and exits
# non-zero if any module differs or is unproven; logs go to NEW/equiv/.
# --ports-and-registers matches only ports and registers (`*_q`), not the
# internal nets between them: a change that no port can see is equivalent
# (scripts/mutate.sh classifies its survivors so). It first tries the
# combinational proof of the next-state and output logic with every register
# paired by name and cut (ABC `iprove` on a miter; seconds where the sequential
# proof takes hours at 256+ entries); when the registers do not pair up or
# ABC finds a difference, the sequential proof above decides.
# --rename FILE: registers the new generator renamed, one "old new" pair of
# base names per line (foo for foo_q / foo_d; # starts a comment): OLD's
# files are read with the new names, so the registers still pair up.
set -uo pipefail

hide_nets=""
if [[ ${1:-} == --ports-and-registers ]]; then
  hide_nets="rename -hide gold/w:* gold/w:*_q %d; rename -hide gate/w:* gate/w:*_q %d;"
  shift
fi
renames=""
if [[ ${1:-} == --rename ]]; then
  renames=$2
  [[ -f $renames ]] || { echo "equiv_check: no rename file $renames" >&2; exit 2; }
  shift 2
fi
if (($# < 2)); then
  echo "usage: $0 [--ports-and-registers] [--rename FILE] OLD_DIR NEW_DIR [MODULE_REGEX]" >&2
  exit 2
fi
old_root=$(cd "$1" && pwd) || exit 2
if [[ -n $renames ]]; then
  # a copy of OLD with every renamed register's _q / _d under its new name
  renamed=$(mktemp -d)
  trap 'rm -rf "$renamed"' EXIT
  cp -rL "$old_root/." "$renamed/"
  script=$(sed -e 's/#.*//' "$renames" | awk 'NF == 2 {printf "s/\\b%s_([qd])\\b/%s_\\1/g;", $1, $2}')
  find "$renamed" -name '*.v' -exec sed -E -i "$script" {} +
  old_root=$renamed
fi
new_root=$(cd "$2" && pwd) || exit 2
filter=${3:-.}

# file list of a generation, absolute paths
files_of() { sed "s|^|$1/|" "$1/files.f" | tr '\n' ' '; }

# load_pair OLD NEW TOP PREP: the Yosys commands that read module TOP of both
# generations, run PREP on each, and leave them side by side as gold and gate
load_pair() {
  local old=$1 new=$2 top=$3 prep=$4
  echo "read_verilog $(files_of "$old"); hierarchy -top $top; $prep; rename $top gold; design -stash gold;
    read_verilog $(files_of "$new"); hierarchy -top $top; $prep; rename $top gate; design -stash gate;
    design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;"
}

# check_module OLD NEW TOP LOG: 0 when proven equivalent
check_module() {
  local old=$1 new=$2 top=$3 log=$4
  yosys -q -l "$log" -p "
    $(load_pair "$old" "$new" "$top" "proc; flatten")
    memory_map; opt_clean; async2sync; $hide_nets
    equiv_make gold gate eq; hierarchy -top eq; equiv_struct;
    equiv_simple -seq 2; equiv_induct; equiv_status -assert" >/dev/null 2>&1
}

# comb_check OLD NEW TOP LOG: 0 when the registers pair up by name and the
# combinational miter of next state and outputs is proven constant 0. An
# asynchronous reset becomes a reset at the edge on both sides
# (synth/equiv_adff_sync.v), so reset values are compared in the next state.
comb_check() {
  local old=$1 new=$2 top=$3 log=$4 aig=${4%.log}.aig
  local prep="proc; flatten; memory_map; opt_clean;
    techmap -map $adff_map t:\$adff; dffunmap; rename -hide w:* w:*_q %d i:* %d o:* %d; opt_clean;
    expose -dff -evert-dff; opt_clean"
  yosys -q -l "$log" -p "
    $(load_pair "$old" "$new" "$top" "$prep")
    miter -equiv -flatten gold gate miter; hierarchy -top miter;
    select -assert-count 0 t:\$*dff* t:\$*latch* t:\$mem*;
    opt_clean; techmap; opt_clean; aigmap; write_aiger $aig" >/dev/null 2>&1 || return 1
  yosys-abc -c "read_aiger $aig; strash; iprove" >>"$log" 2>&1
  grep -q "^UNSATISFIABLE" "$log"
}

adff_map="$(cd "$(dirname "$0")/.." && pwd)/synth/equiv_adff_sync.v"
pass=0
fail=0
check_dir() {
  local old=$1 new=$2 rel=$3
  mkdir -p "$new/equiv"
  for f in "$old"/*.v; do
    local name top
    name=$(basename "$f")
    top=${name%.v}
    [[ $top =~ $filter ]] || continue
    if [[ ! -f $new/$name ]]; then
      echo "MISSING    $rel$top"
      fail=$((fail + 1))
    elif cmp -s <(grep -v '^// ' "$f") <(grep -v '^// ' "$new/$name"); then
      echo "identical  $rel$top"
      pass=$((pass + 1))
    elif [[ -n $hide_nets ]] && comb_check "$old" "$new" "$top" "$new/equiv/$top.comb.log"; then
      echo "equivalent $rel$top   (combinational, registers paired)"
      pass=$((pass + 1))
    elif check_module "$old" "$new" "$top" "$new/equiv/$top.log"; then
      echo "equivalent $rel$top"
      pass=$((pass + 1))
    else
      echo "DIFFERENT  $rel$top   (log: $new/equiv/$top.log)"
      fail=$((fail + 1))
    fi
  done
}

if [[ -f $old_root/files.f ]]; then
  check_dir "$old_root" "$new_root" ""
else
  for d in "$old_root"/*/; do
    sub=$(basename "$d")
    [[ -f $d/files.f ]] || continue
    if [[ ! -d $new_root/$sub ]]; then
      echo "MISSING    $sub/"
      fail=$((fail + 1))
      continue
    fi
    check_dir "${d%/}" "$new_root/$sub" "$sub/"
  done
fi
echo "equiv_check: $pass passed, $fail failed"
((fail == 0))
