#!/usr/bin/env bash
# Times the FedProx protocol's local step (mclr, batch 10, SGD) two ways in one go, numpy
# (step_anchor.py, one BLAS thread) around JMH's McLrStepBenchmark, and prints nanoseconds per step
# and the ratio for docs/benchmarks.md ("Simulation").
#
# Usage: tributary-benchmarks/scripts/run-step.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1

numpy_one_thread() {
  (cd "$here" && env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 \
    OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 python3 step_anchor.py)
}

build_benchmarks

echo "numpy step (1/2)..." >&2
numpy_one_thread > "$out/numpy-step-1.json"
echo "JMH McLrStepBenchmark..." >&2
"$JAVA_HOME/bin/java" -jar "$root/tributary-benchmarks/target/benchmarks.jar" McLrStepBenchmark \
  -rf json -rff "$out/jmh-step.json" >&2
echo "numpy step (2/2)..." >&2
numpy_one_thread > "$out/numpy-step-2.json"

python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
jmh = json.load(open(f"{out}/jmh-step.json"))[0]["primaryMetric"]
raw = [v for fork in jmh["rawData"] for v in fork]
t = statistics.median(raw)
n1 = json.load(open(f"{out}/numpy-step-1.json"))["median_ns_per_step"]
n2 = json.load(open(f"{out}/numpy-step-2.json"))["median_ns_per_step"]
print(f"mclr local step (60 -> 10, batch 10, SGD); results in {out}")
print()
print("| side | ns per step (median) |")
print("|---|---:|")
print(f"| numpy (1/2) | {n1:,.0f} |")
print(f"| Tributary (JMH McLrStepBenchmark, median of {len(raw)} iterations) | {t:,.0f} |")
print(f"| numpy (2/2) | {n2:,.0f} |")
print()
print(f"numpy / Tributary: {min(n1, n2) / t:.1f}x (faster numpy pass) to {max(n1, n2) / t:.1f}x")
PY
