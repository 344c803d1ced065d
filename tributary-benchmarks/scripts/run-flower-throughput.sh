#!/usr/bin/env bash
# One Flower client exchanging a large float32 model with the Java server over loopback Netty
# (FlowerThroughputBenchmark.flowerRound: FitIns down, FitRes up, EvaluateIns down, for
# numpy.ndarray and proto.ndarray), against gRPC's own ceiling measured in the same JMH fork
# (grpcEcho: a bare grpc-java bidi echo of one BytesValue of the same size each way). Prints the
# median time of each, the throughput in GB/s (model bytes moved / time; 3 transfers for a round,
# 2 for the echo) and the ratio, with the JMH JVM's peak RSS and the load average.
#
# Usage: tributary-benchmarks/scripts/run-flower-throughput.sh [MEGABYTES] [ITERATIONS]
#        (defaults: 1000, i.e. a 1 GB model, and 3 measured iterations after 1 warm-up).
#        The fork runs with -Xmx9g -XX:MaxDirectMemorySize=4g (see the benchmark's @Fork).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mb=${1:-1000}
iterations=${2:-3}
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
build_benchmarks

echo "load before: $(uptime)" | tee "$out/flower-throughput-uptime.txt" >&2
/usr/bin/time -v -o "$out/flower-throughput-time.txt" "$JAVA_HOME/bin/java" \
  -jar "$root/tributary-benchmarks/target/benchmarks.jar" FlowerThroughputBenchmark \
  -p megabytes="$mb" -wi 1 -i "$iterations" -rf json -rff "$out/jmh-flower-throughput.json" >&2
echo "load after: $(uptime)" | tee -a "$out/flower-throughput-uptime.txt" >&2

python3 - "$out/jmh-flower-throughput.json" "$out/flower-throughput-time.txt" "$mb" <<'PY'
import json, re, statistics, sys
runs = json.load(open(sys.argv[1]))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(sys.argv[2]).read()).group(1))
gb = int(sys.argv[3]) / 1000
rows = {}
for r in runs:
    name = r["benchmark"].rsplit(".", 1)[1]
    ms = [x for it in r["primaryMetric"]["rawData"] for x in it]
    rows[(name, r["params"]["tensorType"])] = statistics.median(ms) / 1000
echo = statistics.median([s for (n, _), s in rows.items() if n == "grpcEcho"])
echo_gbps = 2 * gb / echo
print(f"| run | median s | model transfers | GB/s | vs gRPC echo |")
print(f"|---|---:|---:|---:|---:|")
for (name, tt), s in sorted(rows.items()):
    moves = 3 if name == "flowerRound" else 2
    gbps = moves * gb / s
    label = f"Flower round, {tt}" if name == "flowerRound" else f"gRPC echo (fork with {tt})"
    print(f"| {label} | {s:.2f} | {moves} x {gb:g} GB | {gbps:.2f} | {gbps / echo_gbps:.2f} |")
print(f"\ngRPC echo median over both forks: {echo:.2f} s, {echo_gbps:.2f} GB/s; "
      f"peak RSS of the JMH JVMs {rss / 1024:.0f} MiB")
PY
cat "$out/flower-throughput-uptime.txt"
