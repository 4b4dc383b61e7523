# Quiet long steps for the README's commands (sourced by scripts/*.sh): the
# full output goes to a log file, the terminal gets one progress line (rewritten
# in place on a terminal, a line per tenth of the work otherwise) and, on a
# failure, the part of the log that says why and the log's path.

# progress_run LABEL LOG COMMAND...: runs COMMAND with its output in LOG and
# shows LABEL with the last "[k/n]" (ninja) or "k/n Test" (ctest) count of LOG.
progress_run() {
  local label=$1 log=$2
  shift 2
  mkdir -p "$(dirname "$log")"
  "$@" > "$log" 2>&1 &
  local pid=$! last="" shown=-1 start=$SECONDS
  while kill -0 "$pid" 2> /dev/null; do
    sleep 2
    local count
    count=$(grep -aoE '^\[[0-9]+/[0-9]+\]|^ *[0-9]+/[0-9]+ Test' "$log" 2> /dev/null | tail -n 1 | grep -oE '[0-9]+/[0-9]+' || true)
    [[ -z $count || $count == "$last" ]] && continue
    last=$count
    if [[ -t 1 ]]; then
      printf '\r%s: %s (%ds)   ' "$label" "$count" $((SECONDS - start))
    else
      local tenth=$((10 * ${count%/*} / ${count#*/}))
      ((tenth > shown)) && { shown=$tenth; echo "$label: $count ($((SECONDS - start)) s)"; }
    fi
  done
  local rc=0
  wait "$pid" || rc=$?
  [[ -t 1 && -n $last ]] && printf '\n'
  echo "$label: $([[ $rc == 0 ]] && echo done || echo FAILED) in $((SECONDS - start)) s (log: $log)"
  return $rc
}

# build_failure LOG: the failed build steps and the errors under them.
build_failure() {
  local log=$1
  grep -a -A 25 -E '^FAILED:' "$log" | grep -a -vE '^\[[0-9]+/[0-9]+\]' | head -n 60
  echo "(the whole build output: $log)"
}
