# shellcheck shell=bash
# Sourced by the run-*.sh scripts whose one run measures each side once: repeat_self runs the
# script REPS times (default 5), each repetition the whole measurement with its anchor, so the
# sides interleave (ours, anchor, ours, anchor...) and a drift in machine speed touches both.
# The repetitions record their figures with `figure KEY VALUE`; the first process prints, from
# them, the median and range of each and the script's markdown rows for docs/benchmarks.md.
#
#   source bench-env.sh; source load-check.sh; source reps.sh
#   rows=('| CSV | {wall_s:.1f} s ({wall_s~:.1f}) |')
#     # {KEY}: the median, {KEY~}: min-max, {KEY+}: the sum, {KEY#}: the count (reps_table.py)
#   repeat_self "$0" "$@"    # returns only inside a repetition (REP is set there)
#   ... measure ..., figure wall_s 117.7
#
# A failed repetition ends the run, unless KEEP_GOING=1: then the next one starts, and the table
# counts the failures ({failed_rep+}: each repetition records failed_rep 0 or 1, and
# seconds_rep, its duration, whether it failed or not); a failed repetition's other figures are
# those it recorded before it failed.
# The load check (MAX_LOAD, ALLOW_LOAD=1) runs once, before the first repetition; the load
# average at the start and end of the whole run and at the start of each repetition is printed.
# The repetitions after the first run with SKIP_BUILD=1 (the jar the first one built).

# repeat_self SCRIPT ARGS...: in the first process, runs SCRIPT ARGS REPS times and prints the
# table, then exits; inside a repetition (REP set) it returns at once.
repeat_self() {
  [[ -n ${REP:-} ]] && { figure load1_rep "$(cut -d' ' -f1 /proc/loadavg)"; return 0; }
  local script=$1 reps=${REPS:-5} r t0 t1 status=0
  shift
  [[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "REPS is '$reps', not a positive integer" >&2; exit 2; }
  [[ -n ${idle_checked:-} ]] || require_idle # the script may have checked before its set-up
  local name started load_start
  name=$(basename "$script" .sh)
  started=$(date -u +'%Y-%m-%d %H:%M UTC')
  load_start=$(cut -d' ' -f1-3 /proc/loadavg)
  local dir="$out/reps-$name-$(date +%Y%m%d-%H%M%S)"
  mkdir -p "$dir"
  export FIGURES="$dir/figures.tsv"
  : > "$FIGURES"
  echo "$name: $reps repetitions, log of each in $dir (load average at the start: $load_start)" >&2
  for ((r = 1; r <= reps; r++)); do
    t0=$(date +%s.%N)
    REP=$r bash "$script" "$@" > "$dir/rep-$r.log" 2>&1 || { status=$?; }
    t1=$(date +%s.%N)
    printf '%s\tseconds_rep\t%s\n' "$r" "$(echo "$t1 - $t0" | bc)" >> "$FIGURES"
    printf '%s\tfailed_rep\t%s\n' "$r" "$((status != 0))" >> "$FIGURES"
    if ((status != 0)); then
      echo "repetition $r failed (exit $status); its log:" >&2
      tail -30 "$dir/rep-$r.log" >&2
      [[ ${KEEP_GOING:-0} == 1 ]] || exit "$status"
      status=0
    fi
    echo "repetition $r of $reps: $(printf '%.0f' "$(echo "$t1 - $t0" | bc)") s" >&2
    export SKIP_BUILD=1
  done
  local load_end
  load_end=$(cut -d' ' -f1-3 /proc/loadavg)
  local row_args=() row
  for row in ${rows[@]+"${rows[@]}"}; do row_args+=(--row "$row"); done
  python3 "$(dirname "${BASH_SOURCE[0]}")/reps_table.py" "$FIGURES" \
    --header "$name ${*:-}: median of $reps (range), $started; load average $load1 at the check, $load_start at the first repetition, $load_end at the end${under_load:+ ($under_load)}" \
    ${row_args[@]+"${row_args[@]}"}
  exit 0
}

# figure KEY VALUE: records one figure of this repetition (nothing when the script runs alone).
figure() {
  [[ -n ${FIGURES:-} && -n ${REP:-} ]] && printf '%s\t%s\t%s\n' "$REP" "$1" "$2" >> "$FIGURES"
  return 0
}
