#!/usr/bin/env bash
# Runs RankOneSumBenchmark (the float64 sum of eight one-step updates of a [99,999, 10] layer, one
# per call and eight per call) between two runs of its numpy anchor (rank_one_anchor.py: the same
# updates made, then added), and prints the table for docs/benchmarks.md.
#
# Usage: tributary-benchmarks/scripts/run-rank-one-sum.sh   (about 2 minutes on an idle machine)
# Preconditions: numpy importable by python3; the 1-minute load average at most
# MAX_LOAD (default 1.0; ALLOW_LOAD=1 runs anyway and marks the figures as taken under load).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
failed=()
python3 -c 'import numpy' 2>/dev/null || failed+=("numpy is not importable by python3")
# shellcheck source=load-check.sh
source "$here/load-check.sh"
check_load
if ((${#failed[@]})); then
  printf 'precondition failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
build_benchmarks
mkdir -p "$out"
stamp=$(date -u +%Y%m%d-%H%M%S)
echo "numpy anchor (1/2)..." >&2
python3 "$here/rank_one_anchor.py" > "$out/rank-one-numpy-1-$stamp.json"
echo "JMH: RankOneSumBenchmark..." >&2
"$JAVA_HOME/bin/java" -jar "$root/tributary-benchmarks/target/benchmarks.jar" RankOneSumBenchmark \
  -wi 4 -i 6 -w 2 -r 2 -rf json -rff "$out/rank-one-jmh-$stamp.json" >&2
echo "numpy anchor (2/2)..." >&2
python3 "$here/rank_one_anchor.py" > "$out/rank-one-numpy-2-$stamp.json"
python3 - "$out/rank-one-jmh-$stamp.json" "$out/rank-one-numpy-1-$stamp.json" \
  "$out/rank-one-numpy-2-$stamp.json" <<'PY'
import json, sys
jmh = json.load(open(sys.argv[1]))
numpy_ms = sorted(json.load(open(f))["median_ms"] for f in sys.argv[2:])
anchor = sum(numpy_ms) / len(numpy_ms)
print("| case | ms per sum of 8 | vs numpy |")
print("|---|---:|---:|")
print(f"| numpy (update made, then added; two runs) | {numpy_ms[0]:.2f} / {numpy_ms[1]:.2f} | 1.00x |")
for r in jmh:
    per = r["params"]["perCall"]
    ms = r["primaryMetric"]["score"]
    err = r["primaryMetric"]["scoreError"]
    print(f"| Tributary, {per} per call | {ms:.2f} (± {err:.2f}) | {anchor / ms:.1f}x |")
PY
echo "load average at the start: $load1 $load5 $load15${under_load:+ ($under_load)}; at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
