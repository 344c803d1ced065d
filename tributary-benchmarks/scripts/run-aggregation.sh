#!/usr/bin/env bash
# Runs the aggregation benchmark and its anchors in one go and prints the table for
# docs/benchmarks.md: numpy (Flower's FedAvg aggregate), then JMH (a STREAM-style triad, then
# Tributary's weighted mean through ExecutionContext.invoke, on the same threads), the triad again,
# then numpy again, so a drift in machine speed shows up on both sides of the ratios.
#
# Usage: tributary-benchmarks/scripts/run-aggregation.sh [CLIENTS] [ELEMENTS]  (100, 10000000)
# Needs about 10 GB of free memory (the updates are held in memory on both sides). About 3
# minutes on an idle machine.
#
# The anchor: a[i] = b[i] + s * c[i] over three arrays of 20M doubles (160 MB each, far beyond
# the 2 MiB L2 per core and 32 MiB L3 of the reference machine), split over the same threads as
# the weighted mean (JMH's threads parameter; 0: one per available processor), 20 warm-up and
# 20 measured shots, once before and once after the weighted mean (the table uses all 40).
# Bytes, the same rule on both sides (STREAM's): each element the kernel names is counted once
# per read and once per write, so the triad moves 3 x 8 bytes per element and the weighted mean
# (clients + 1) x 4 bytes per element (4.04 GB at 100 x 10M). Neither counts the write-allocate
# read of the written lines (Java's stores are not non-temporal): 1/4 of the triad's real
# traffic but 1% of the weighted mean's, so the ratio with real traffic (also printed) is about 3/4
# of the table's. The reference machine is a virtual machine: its memory bandwidth can change
# from day to day without showing in its load average (with the same code, the triad and the
# numpy anchors ran 2-2.7x faster on 2026-11-29 than on 2026-11-22), which is why the anchor runs
# in the same run, twice.
# Preconditions: the 1-minute load average at most MAX_LOAD (default 1.0; ALLOW_LOAD=1 runs
# anyway and marks the figures as taken under load).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
clients=${1:-100}
elements=${2:-10000000}
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

jmh() {
  "$JAVA_HOME/bin/java" -jar "$root/tributary-benchmarks/target/benchmarks.jar" \
    "$1" -p clients="$clients" -p elements="$elements" -rf json -rff "$2" >&2
}
echo "numpy anchor (1/2)..." >&2
python3 "$here/numpy_fedavg.py" --clients "$clients" --elements "$elements" > "$out/numpy-fedavg-1.json"
echo "JMH: triad, weighted mean..." >&2
jmh 'AggregationBenchmark' "$out/jmh-aggregation.json"
echo "JMH: triad again..." >&2
jmh 'AggregationBenchmark.streamTriad$' "$out/jmh-aggregation-triad-after.json"
echo "numpy anchor (2/2)..." >&2
python3 "$here/numpy_fedavg.py" --clients "$clients" --elements "$elements" > "$out/numpy-fedavg-2.json"

python3 "$here/aggregation_report.py" "$out/jmh-aggregation.json" "$out/numpy-fedavg-1.json" \
  "$out/numpy-fedavg-2.json" --triad-after "$out/jmh-aggregation-triad-after.json"
echo "load average at the start: $load1 $load5 $load15${under_load:+ ($under_load)}; at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
