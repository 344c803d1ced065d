#!/usr/bin/env bash
# Rounds per second and peak heap of a synthetic round (broadcast, map, weighted mean) for a
# growing number of clients per round, in a JVM limited to -Xmx2g. Runs REPS times (reps.sh, a
# fresh JVM each) and prints the medians, ranges and the rows for docs/benchmarks.md.
#
# Usage: [REPS=5] tributary-benchmarks/scripts/run-rounds.sh [MODEL_ELEMENTS] [THREADS] [CLIENTS...]
#        (defaults: 100000, all processors, 10 100 1000 10000 100000)
# Expected at REPS=5 on an idle machine, with the table's `100000 2 10 100 1000 10000`: about
# 4 minutes (each count runs at least 5 s after a warm-up round).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
# shellcheck source=reps.sh
source "$here/reps.sh"
counts=("${@:3}")
((${#counts[@]})) || counts=(10 100 1000 10000 100000)
rows=("| clients per round | rounds/s | client updates/s | peak heap MiB |" "|---:|---:|---:|---:|")
for c in "${counts[@]}"; do
  rows+=("| $c | {rps_$c:.2f} ({rps_$c~:.2f}) | {ups_$c:.0f} | {heap_$c:.0f} ({heap_$c~:.0f}) |")
done
repeat_self "$0" "$@"
build_benchmarks
"$JAVA_HOME/bin/java" -Xmx2g -cp "$root/tributary-benchmarks/target/benchmarks.jar" \
  io.tributary.bench.RoundThroughput "$@" | tee "$out/rounds.txt"
# | clients | rounds | seconds per round | rounds/s | client updates/s | peak heap MiB |
while IFS='|' read -r _ clients _ _ rps ups heap _; do
  clients=${clients// /}
  [[ $clients =~ ^[0-9]+$ ]] || continue
  figure "rps_$clients" "${rps// /}"
  figure "ups_$clients" "${ups// /}"
  figure "heap_$clients" "${heap// /}"
done < "$out/rounds.txt"
