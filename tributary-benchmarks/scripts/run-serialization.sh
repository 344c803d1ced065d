#!/usr/bin/env bash
# Runs the serialization benchmarks and their anchors in one go and prints the table for
# docs/benchmarks.md: numpy (np.save/np.load through BytesIO), then JMH (Tributary's NPY and
# proto.ndarray codecs, protobuf-java's generated code, a bare memory copy), then numpy again,
# so a drift in machine speed shows up on both sides of the ratio.
#
# Usage: tributary-benchmarks/scripts/run-serialization.sh [MEGABYTES]   (default 100)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
mb=${1:-100}
# shellcheck source=../../.ci/find-jdk.sh
source "$root/.ci/find-jdk.sh"
JAVA_HOME=$(tributary_find_jdk) || { tributary_no_jdk_message; exit 1; }
export JAVA_HOME
out="$root/tributary-benchmarks/target/results"
mkdir -p "$out"

echo "building benchmarks..." >&2
(cd "$root" && ./mvnw -q -B -DskipTests -pl tributary-benchmarks -am package)

echo "numpy anchor (1/2)..." >&2
python3 "$here/numpy_anchor.py" --megabytes "$mb" > "$out/numpy-1.json"
echo "JMH..." >&2
"$JAVA_HOME/bin/java" -jar "$root/tributary-benchmarks/target/benchmarks.jar" \
  'NpyBenchmark|ProtoValueBenchmark|MemoryBandwidthBenchmark' -p megabytes="$mb" \
  -rf json -rff "$out/jmh-serialization.json" >&2
echo "numpy anchor (2/2)..." >&2
python3 "$here/numpy_anchor.py" --megabytes "$mb" > "$out/numpy-2.json"

python3 "$here/report.py" "$out/jmh-serialization.json" "$out/numpy-1.json" "$out/numpy-2.json"
