# shellcheck shell=bash
# Sourced by the benchmark scripts that compare against an anchor: check_load reads the load
# average into load1, load5 and load15, and when the 1-minute figure is above MAX_LOAD (default
# 1.0) either sets under_load (ALLOW_LOAD=1: the figures are marked as taken under load) or adds
# a precondition failure to the caller's `failed` array. Inside a repetition of reps.sh's
# repeat_self (REP set) it only reads the load: the first process checked it once, at the start.
#
# The load average sees only this machine's processes, and a shared host can run its cores at
# half speed while it stays below 1. So check_load also runs host_probe.py (~3 s), prints its
# line (into the benchmark's log) and keeps it in host_probe; with PROBE_MAX_S set, an interpreter
# figure above it is a failed precondition too (or, with ALLOW_LOAD=1, marks the figures as taken
# on a slow host). Set PROBE_MAX_S a little above the figure this machine gives when it is quiet.
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
  check_host
}

# The host's speed now (host_probe.py), against PROBE_MAX_S when it is set.
check_host() {
  local probe rc=0
  probe="$(dirname "${BASH_SOURCE[0]}")/host_probe.py"
  host_probe=$(python3 "$probe" ${PROBE_MAX_S:+--max-interpreter "$PROBE_MAX_S"} 2>/dev/null) \
    || rc=$?
  if ((rc == 3)); then
    local slow="$host_probe: the interpreter figure is above PROBE_MAX_S=$PROBE_MAX_S, the host runs slower than when it is quiet"
    if [[ ${ALLOW_LOAD:-0} == 1 ]]; then
      under_load="${under_load:+$under_load; }$slow (ALLOW_LOAD=1): figures taken on a slow host"
    else
      failed+=("$slow (wait, or ALLOW_LOAD=1 to run anyway)")
    fi
  elif ((rc != 0)); then
    host_probe="host probe: not run (host_probe.py exit $rc; numpy importable by python3?)"
  fi
  echo "$host_probe" >&2
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
