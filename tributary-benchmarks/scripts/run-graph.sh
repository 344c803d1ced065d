#!/usr/bin/env bash
# Runs the local-training benchmarks beside their numpy anchors in one go and prints a table (the
# current figures against PyTorch come from run-pytorch.sh): numpy (graph_anchor.py), then JMH (MatMulBenchmark,
# TwoNnEpochBenchmark), then numpy again, so a drift in machine speed shows on both sides.
#
# numpy's BLAS is held to one thread. OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, which this machine may
# set to work around old OpenBLAS builds and which slow a current numpy, are unset for the numpy
# commands only; graph_anchor.py records the kernel OpenBLAS then picks (threadpoolctl).
#
# Usage: tributary-benchmarks/scripts/run-graph.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1

numpy_one_thread() {
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
    MKL_NUM_THREADS=1 python3 "$here/graph_anchor.py" "$@"
}

build_benchmarks

echo "numpy anchor (1/2)..." >&2
numpy_one_thread > "$out/numpy-graph-1.json"
echo "JMH..." >&2
"$JAVA_HOME/bin/java" -jar "$root/tributary-benchmarks/target/benchmarks.jar" \
  'MatMulBenchmark|TwoNnEpochBenchmark' -rf json -rff "$out/jmh-graph.json" >&2
echo "numpy anchor (2/2)..." >&2
numpy_one_thread > "$out/numpy-graph-2.json"

python3 "$here/graph_report.py" "$out/jmh-graph.json" "$out/numpy-graph-1.json" \
  "$out/numpy-graph-2.json"
