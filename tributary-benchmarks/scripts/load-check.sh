# shellcheck shell=bash
# Sourced by the benchmark scripts that compare against an anchor: check_load reads the load
# average into load1, load5 and load15, and when the 1-minute figure is above MAX_LOAD (default
# 1.0) either sets under_load (ALLOW_LOAD=1: the figures are marked as taken under load) or adds
# a precondition failure to the caller's `failed` array. Inside a repetition of reps.sh's
# repeat_self (REP set) it only reads the load: the first process checked it once, at the start.
check_load() {
  local max=${MAX_LOAD:-1.0}
  read -r load1 load5 load15 _ < /proc/loadavg
  under_load=""
  # Inside a repetition of repeat_self (reps.sh, REP set) the first process has checked already.
  [[ -n ${REP:-} ]] && return 0
  if ! python3 -c "import sys; sys.exit(0 if $load1 <= $max else 1)"; then
    if [[ ${ALLOW_LOAD:-0} == 1 ]]; then
      under_load="load average $load1 is above $max at the start (ALLOW_LOAD=1): figures taken under load"
      echo "warning: $under_load" >&2
    else
      failed+=("load average $load1 is above $max (wait, or ALLOW_LOAD=1 to run anyway)")
    fi
  fi
}

# For the scripts with no other preconditions: check_load, then stop with the failed
# precondition named (exit 1) unless the machine is idle enough or ALLOW_LOAD=1.
require_idle() {
  idle_checked=1
  failed=()
  check_load
  if ((${#failed[@]})); then
    printf 'precondition failed: %s\n' "${failed[@]}" >&2
    exit 1
  fi
}
