#!/usr/bin/env bash
# Runs the aggregation benchmark and its anchors in one go and prints the table for
# docs/benchmarks.md: numpy (Flower's FedAvg aggregate), then JMH (Tributary's weighted mean
# through ExecutionContext.invoke, and a STREAM-style triad on the same threads), then numpy
# again, so a drift in machine speed shows up on both sides of the ratios.
#
# Usage: tributary-benchmarks/scripts/run-aggregation.sh [CLIENTS] [ELEMENTS]  (100, 10000000)
# Needs about 10 GB of free memory (the updates are held in memory on both sides).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
clients=${1:-100}
elements=${2:-10000000}
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"

build_benchmarks

echo "numpy anchor (1/2)..." >&2
python3 "$here/numpy_fedavg.py" --clients "$clients" --elements "$elements" > "$out/numpy-fedavg-1.json"
echo "JMH..." >&2
"$JAVA_HOME/bin/java" -jar "$root/tributary-benchmarks/target/benchmarks.jar" \
  'AggregationBenchmark' -p clients="$clients" -p elements="$elements" \
  -rf json -rff "$out/jmh-aggregation.json" >&2
echo "numpy anchor (2/2)..." >&2
python3 "$here/numpy_fedavg.py" --clients "$clients" --elements "$elements" > "$out/numpy-fedavg-2.json"

python3 "$here/aggregation_report.py" "$out/jmh-aggregation.json" "$out/numpy-fedavg-1.json" \
  "$out/numpy-fedavg-2.json"
