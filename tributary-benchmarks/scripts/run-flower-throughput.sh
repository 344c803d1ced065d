#!/usr/bin/env bash
# One Flower client exchanging a large float32 model with the Java server over loopback Netty
# (FlowerThroughputBenchmark.flowerRound: FitIns down, FitRes up, EvaluateIns down, for
# numpy.ndarray and proto.ndarray), against gRPC's own ceiling measured in the same JMH fork
# (grpcEcho: a bare grpc-java bidi echo of one BytesValue of the same size each way). Prints the
# median time of each, the throughput in GB/s (model bytes moved / time; 3 transfers for a round,
# 2 for the echo) and the ratio, with the JMH JVM's peak RSS and the load average.
#
# Usage: [REPS=5] tributary-benchmarks/scripts/run-flower-throughput.sh [MEGABYTES] [ITERATIONS]
#        (defaults: 1000, i.e. a 1 GB model, and 1 measured iteration after 1 warm-up per
#        repetition). REPS repetitions (reps.sh), each the whole JMH run (rounds and echo), so the
#        round and its anchor interleave; prints the medians over the repetitions, the ranges and
#        the docs/benchmarks.md rows. Expected at REPS=5 on an idle machine: about 17 minutes
#        (about 200 s a repetition).
#        The fork runs with -Xmx9g -XX:MaxDirectMemorySize=4g (see the benchmark's @Fork).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mb=${1:-1000}
iterations=${2:-1}
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
# shellcheck source=reps.sh
source "$here/reps.sh"
rows=("| Flower round, \`numpy.ndarray\` | {round_numpy_s:.2f} ({round_numpy_s~:.2f}) | {numpy_vs_echo:.2f} ({numpy_vs_echo~:.2f}) |"
  "| Flower round, \`proto.ndarray\` | {round_proto_s:.2f} ({round_proto_s~:.2f}) | {proto_vs_echo:.2f} ({proto_vs_echo~:.2f}) |"
  "| gRPC echo | {echo_s:.2f} ({echo_s~:.2f}) | 1 |")
repeat_self "$0" "$@"
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
import os
if os.environ.get("FIGURES") and os.environ.get("REP"):
    with open(os.environ["FIGURES"], "a") as f:
        for (name, tt), t in rows.items():
            if name == "flowerRound":
                tag = "numpy" if tt == "numpy.ndarray" else "proto"
                f.write(f"{os.environ['REP']}\tround_{tag}_s\t{t}\n")
                f.write(f"{os.environ['REP']}\t{tag}_vs_echo\t{3 * gb / t / echo_gbps}\n")
        f.write(f"{os.environ['REP']}\techo_s\t{echo}\n")
print(f"\ngRPC echo median over both forks: {echo:.2f} s, {echo_gbps:.2f} GB/s; "
      f"peak RSS of the JMH JVMs {rss / 1024:.0f} MiB")
PY
cat "$out/flower-throughput-uptime.txt"
