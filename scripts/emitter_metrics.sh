#!/usr/bin/env bash
# Per block: emitter code lines (non-blank, non-comment lines of the block's
# gen/src/blocks/<block>*.cpp except its report) and the string literals in
# them that hold Verilog operators or constants (the typed layer's target: 0;
# names, comments and header lines do not count).
#   scripts/emitter_metrics.sh [REV]   (REV: a git revision; default the work tree)
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-}
list() { if [[ -n $rev ]]; then git ls-tree --name-only "$rev" gen/src/blocks/; else ls gen/src/blocks/*.cpp; fi; }
show() { if [[ -n $rev ]]; then git show "$rev:$1"; else cat "$1"; fi; }
printf '| block | files | code lines | literals with Verilog operators |\n|---|---:|---:|---:|\n'
# every block has a <block>_report.cpp; its emitter is the other <block>*.cpp
for b in $(list | sed -n 's|.*/\(.*\)_report\.cpp$|\1|p' | sort); do
  files=$(list | grep "/${b}\(_[a-z]*\)\{0,1\}\.cpp$" | grep -v '_report\.cpp$' || true)
  [[ -z $files ]] && continue
  text=$(for f in $files; do show "$f"; done)
  lines=$(grep -cv '^\s*\(//.*\)\{0,1\}$' <<<"$text" || true)
  # literals inside code (comment lines dropped), operators/constants inside them
  ops=$(grep -v '^\s*//' <<<"$text" | grep -o '"[^"]*"' |
        grep -cE '( [&|^+-] |~|==|!=|<=|>=| \? | : |<<|>>|\{[0-9]+\{|\[[0-9]+:[0-9]+\]|[0-9]'"'"'[bdh]|^"assign |always @)' || true)
  printf '| %s | %d | %d | %d |\n' "$b" "$(wc -w <<<"$files")" "$lines" "$ops"
done
