#!/usr/bin/env bash
# Runs AggregationRulesBenchmark and its numpy anchor in one go and prints the table for
# docs/benchmarks.md ("Aggregation rules (issue 18)"): numpy (Flower's aggregate, median, trimmed
# mean, Krum, Multi-Krum, Bulyan), then JMH (the same rules in AggregationRules, and the weighted
# mean and median aggregators through ExecutionContext.invoke), then numpy again, so a drift in
# machine speed shows up on both sides of the ratios. The load average is recorded before each.
#
# Usage: tributary-benchmarks/scripts/run-aggregation-rules.sh [CLIENTS] [ELEMENTS]  (100, 1000000)
# Extra JMH options in JMH_ARGS (e.g. JMH_ARGS='-i 1'); numpy options in ANCHOR_ARGS (e.g.
# ANCHOR_ARGS='--only aggregate_median'); BENCH, the JMH benchmarks' regex, picks a subset (e.g.
# BENCH='AggregationRulesBenchmark.(median|federatedMedian)$').
# Needs about 4 GB of free memory (JVM -Xmx3g; numpy holds the updates and a stacked copy).
# Samples: JMH 5 single shots per rule; numpy 3 per function per run, 6 pooled. On an idle
# machine at 100 x 1M: each numpy run about 2.5 minutes, JMH about 4.
# The numpy Bulyan computes each pair's distance once, as Tributary's does, with the same bits as
# Flower's aggregate_bulyan (which recomputes Krum's n x n distances for each of its n - 2f
# picks, about 270 s a sample here: ANCHOR_ARGS='--only aggregate_bulyan_flower' times it).
# Preconditions: the 1-minute load average at most MAX_LOAD (default 1.0; ALLOW_LOAD=1 runs
# anyway and marks the figures as taken under load).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
clients=${1:-100}
elements=${2:-1000000}
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
failed=()
# shellcheck source=load-check.sh
source "$here/load-check.sh"
check_load
if ((${#failed[@]})); then
  printf 'precondition failed: %s\n' "${failed[@]}" >&2
  exit 1
fi

build_benchmarks

anchor() {
  # shellcheck disable=SC2086
  python3 "$here/aggregation_rules_anchor.py" --clients "$clients" --elements "$elements" \
    ${ANCHOR_ARGS:-} > "$out/numpy-rules-$1.json"
}

echo "numpy anchor (1/2)..." >&2
cat /proc/loadavg > "$out/load-rules-numpy-1.txt"
anchor 1
echo "JMH..." >&2
cat /proc/loadavg > "$out/load-rules-jmh.txt"
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" -jar "$root/tributary-benchmarks/target/benchmarks.jar" \
  "${BENCH:-AggregationRulesBenchmark}" -p clients="$clients" -p elements="$elements" ${JMH_ARGS:-} \
  -rf json -rff "$out/jmh-aggregation-rules.json" >&2
echo "numpy anchor (2/2)..." >&2
cat /proc/loadavg > "$out/load-rules-numpy-2.txt"
anchor 2
cat /proc/loadavg > "$out/load-rules-end.txt"

python3 "$here/aggregation_rules_report.py" "$out/jmh-aggregation-rules.json" \
  "$out/numpy-rules-1.json" "$out/numpy-rules-2.json" \
  --load "numpy 1: $(cat "$out/load-rules-numpy-1.txt")" \
  --load "JMH: $(cat "$out/load-rules-jmh.txt")" \
  --load "numpy 2: $(cat "$out/load-rules-numpy-2.txt")" \
  --load "end: $(cat "$out/load-rules-end.txt")"
if [[ -n $under_load ]]; then
  echo "note: $under_load"
fi
