#!/usr/bin/env bash
# Runs the serialization benchmarks and their anchors in one go and prints the table for
# docs/benchmarks.md: numpy (np.save/np.load through BytesIO), then JMH (Tributary's NPY and
# proto.ndarray codecs, protobuf-java's generated code, a bare memory copy), then numpy again,
# so a drift in machine speed shows up on both sides of the ratio.
#
# Usage: tributary-benchmarks/scripts/run-serialization.sh [MEGABYTES]   (default 100)
# JMH takes 15 measured single shots of each case (medians); numpy 2 x its own repetitions.
# Expected on an idle machine: about 5 minutes at 100 MB.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mb=${1:-100}
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1

build_benchmarks
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

echo "numpy anchor (1/2)..." >&2
python3 "$here/numpy_anchor.py" --megabytes "$mb" > "$out/numpy-1.json"
echo "JMH..." >&2
"$JAVA_HOME/bin/java" -jar "$root/tributary-benchmarks/target/benchmarks.jar" \
  'NpyBenchmark|ProtoValueBenchmark|MemoryBandwidthBenchmark' -p megabytes="$mb" \
  -rf json -rff "$out/jmh-serialization.json" >&2
echo "numpy anchor (2/2)..." >&2
python3 "$here/numpy_anchor.py" --megabytes "$mb" > "$out/numpy-2.json"

python3 "$here/report.py" "$out/jmh-serialization.json" "$out/numpy-1.json" "$out/numpy-2.json"
echo "load average at the start: $load_start${under_load:+ ($under_load)}; at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
