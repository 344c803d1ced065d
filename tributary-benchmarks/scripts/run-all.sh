#!/usr/bin/env bash
# Every table of docs/benchmarks.md, one script after another at REPS=5 (median of 5 or more, the
# anchor in the same run, the load recorded at start and end by each script), then a summary of
# each one's duration and exit status. Before each script it waits (up to WAIT_IDLE_S, default
# 600) for the 1-minute load average to fall to MAX_LOAD (default 1.0): the previous script's
# JVMs leave the load high for a minute or two, and every script refuses to start above it
# (ALLOW_LOAD=1 passes through to run anyway, marking the figures as taken under load). With
# PROBE_MAX_S set it also waits for the host probe (host_probe.py) to show a quiet host, which the
# load average cannot see; the probe's figures are printed before each script either way.
#
# Usage: tributary-benchmarks/scripts/run-all.sh [--dry-run] [NAME...]
#   --dry-run: list the commands and their expected durations, run nothing.
#   NAME...: only these (see --dry-run for the names); default: all of them.
# Output: each script's output in tributary-benchmarks/target/results/all-DATE/NAME.log (its
# table rows at the end), the summary on stdout. Expected on an idle machine: about 3 hours.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
s=tributary-benchmarks/scripts

# NAME|expected minutes at REPS=5 on an idle machine|command (run in the repository root)
benchmarks=(
  "serialization|5|$s/run-serialization.sh"
  "pytorch|3|THREADS='1 2' CNN_SAMPLES=2000 $s/run-pytorch.sh"
  "format-speed|3|$s/run-format.sh speed"
  "format-large|2|$s/run-format.sh large"
  "format-sparse|4|$s/run-format.sh sparse"
  "convert|2|$s/run-convert.sh 5 400"
  "convert-deflated|3|COMPRESSED=1 $s/run-convert.sh 5 400"
  "aggregation|3|$s/run-aggregation.sh"
  "rounds|4|$s/run-rounds.sh 100000 2 10 100 1000 10000"
  "aggregation-rules|4|$s/run-aggregation-rules.sh"
  "rank-one-sum|2|$s/run-rank-one-sum.sh"
  "fedprox-vector|8|VECTOR=1 $s/run-fedprox-protocol.sh"
  "fedprox-plain|9|$s/run-fedprox-protocol.sh"
  "csv-stream|6|$s/run-csv-stream.sh 2048 256m csv"
  "parquet-stream|7|$s/run-csv-stream.sh 2048 256m parquet"
  "launcher|10|$s/run-launcher.sh table"
  "flower-load|5|SERVER_XMX=2g $s/run-flower-load.sh 1000 1000000"
  "flower-throughput|17|$s/run-flower-throughput.sh 1000"
  "secagg|4|$s/run-secagg.sh 20 50 100"
  "supernode|5|$s/run-flower-supernode.sh 100 5 100 1"
  "fleet-100|8|$s/run-fleet-scale.sh 100 2 1 2 100"
  "fleet-1000|25|$s/run-fleet-scale.sh 1000 2 1 4 1000"
  "spark-overhead-scale|15|$s/run-spark.sh overhead,scale"
  "spark-product|8|$s/run-spark.sh product"
  "spark-population|24|$s/run-spark.sh population"
  "spark-million|15|MILLION_CLIENTS=100000 MILLION_ENGINES=cluster $s/run-spark.sh million"
  "spark-traffic|15|TRAFFIC_CLIENTS=4000 $s/run-spark.sh traffic"
)

dry=0
[[ ${1:-} == --dry-run ]] && { dry=1; shift; }
want=" $* "
picked=()
total=0
for b in "${benchmarks[@]}"; do
  IFS='|' read -r name minutes cmd <<<"$b"
  [[ $# -eq 0 || $want == *" $name "* ]] || continue
  picked+=("$b")
  total=$((total + minutes))
done
((${#picked[@]})) || { echo "run-all.sh: no benchmark named $*; --dry-run lists them" >&2; exit 2; }

if ((dry)); then
  printf '%-22s %8s  %s\n' name "expected" "command (REPS=${REPS:-5})"
  for b in "${picked[@]}"; do
    IFS='|' read -r name minutes cmd <<<"$b"
    printf '%-22s %6s m  %s\n' "$name" "$minutes" "$cmd"
  done
  echo "total: about $total minutes, plus the waits for an idle machine between scripts"
  exit 0
fi

export REPS=${REPS:-5}
dir="$root/tributary-benchmarks/target/results/all-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$dir"
max=${MAX_LOAD:-1.0}
# With PROBE_MAX_S set, the host probe's interpreter figure must be at most that too (load-check.sh).
# The line of the probe that passed is kept in probe and printed, so the probe runs once per check.
quiet_host() {
  [[ -z ${PROBE_MAX_S:-} ]] \
    || probe=$(python3 "$here/host_probe.py" --max-interpreter "$PROBE_MAX_S" 2>/dev/null)
}
summary=()
for b in "${picked[@]}"; do
  IFS='|' read -r name minutes cmd <<<"$b"
  waited=0
  until { probe=""; python3 -c "import sys; sys.exit(0 if $(cut -d' ' -f1 /proc/loadavg) <= $max else 1)" \
      && quiet_host; } || [[ ${ALLOW_LOAD:-0} == 1 ]] || ((waited >= ${WAIT_IDLE_S:-600})); do
    sleep 10; waited=$((waited + 10))
  done
  [[ -n $probe ]] || probe=$(python3 "$here/host_probe.py" 2>/dev/null) || probe="host probe: not run"
  echo "== $name (expected ~$minutes min; load $(cut -d' ' -f1-3 /proc/loadavg) after waiting ${waited} s; $probe): $cmd" >&2
  t0=$SECONDS
  (cd "$root" && bash -c "$cmd") > "$dir/$name.log" 2>&1
  rc=$?
  took=$((SECONDS - t0))
  summary+=("$(printf '%-22s %4d:%02d %8s m  exit %d  %s' "$name" $((took / 60)) $((took % 60)) "~$minutes" "$rc" "$dir/$name.log")")
  echo "   done in $((took / 60)) min $((took % 60)) s, exit $rc" >&2
done
echo "run-all.sh: REPS=$REPS, logs in $dir"
printf '%-22s %7s %10s\n' name took expected
printf '%s\n' "${summary[@]}"
