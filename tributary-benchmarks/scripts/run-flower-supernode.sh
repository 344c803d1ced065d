#!/usr/bin/env bash
# Today's Flower, end to end: a real Flower 1.27 SuperLink (flower-superlink --insecure, from the
# snapshot in ../shared/peers/flower, venv by setup-flower.sh) and the benchmark Flower App in
# flower-bench-app/, whose ServerApp times rounds of one float32 model (model + 1 comes back,
# checked exactly) from before it pushes the train messages until it holds every reply.
#
# Two SuperLinks run side by side: one serving the Fleet API over grpc-rere, one over Flower
# 1.27's REST transport (--fleet-api-type rest, the HTTP design Flower 1.40+ serves under
# /v1/fleet); 1.27 serves one Fleet transport per SuperLink, and its own flower-supernode --rest
# cannot join its REST SuperLink (404), so Python nodes join the gRPC one.
# Part 1, in one run: a Python flower-supernode running the App's numpy ClientApp and one Java
# SuperNode over gRPC (io.tributary.bench.FlowerSuperNodes, the same arithmetic), REPS rounds of
# MB MB to each node alone, then REPS rounds to both at once; then one Java SuperNode over HTTP on
# the REST SuperLink, REPS rounds of MB MB.
# Part 2: MANY Java SuperNodes over HTTP in one JVM (under /usr/bin/time -v) join the REST
# SuperLink; 3 rounds of MANY_MB MB to all of them at once; the JVM prints its heap after GC and
# RSS before the nodes start, once all are active and after the rounds, from which memory per node
# is computed.
#
# Usage: tributary-benchmarks/scripts/run-flower-supernode.sh [MB] [REPS] [MANY] [MANY_MB]
#        (defaults 100, $REPS or 5, 100, 1); JAVA_XMX (default 3g) is the Java SuperNodes' heap;
#        PARTS (default "1 2") picks the parts to run. In part 1 the Python and the Java node take
#        turns round by round (the ServerApp's mode "each"), so the anchor interleaves; the output
#        ends with the docs/benchmarks.md rows (medians over REPS rounds, range in brackets).
# Expected on an idle machine at REPS=5 (100 MB, 100 nodes of 1 MB): about 5 minutes (Flower's
# venv set-up ~1 on a first run, part 1 ~3, part 2 ~1).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mb=${1:-100}
reps=${2:-${REPS:-5}}
many=${3:-100}
many_mb=${4:-1}
java_xmx=${JAVA_XMX:-3g}
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
peers="$root/../shared/peers"
[[ -f $peers/setup-flower.sh ]] || { echo "no Flower snapshot at $peers" >&2; exit 1; }

if [[ -z ${SKIP_BUILD:-} ]]; then build_benchmarks; fi
venv="$root/target/flower-venv"
bash "$peers/setup-flower.sh" "$venv" > /dev/null
export PYTHONPATH="$peers/flower/framework/py:$peers/flower/shim" PYTHONDONTWRITEBYTECODE=1 \
  PYTHONUNBUFFERED=1
py="$venv/bin/python"

run="$out/flower-supernode"
rm -rf "$run"
mkdir -p "$run/bin" "$run/flwr-home" "$run/ffs"
# Flower's console scripts, which the SuperLink and SuperNode start as subprocesses
for spec in flower-superlink:flwr.server.app:run_superlink \
    flower-supernode:flwr.supernode.cli:flower_supernode \
    flower-superexec:flwr.supercore.cli:flower_superexec \
    flwr-serverapp:flwr.server.serverapp:flwr_serverapp \
    flwr-clientapp:flwr.supernode.cli:flwr_clientapp flwr:flwr.cli.app:app; do
  IFS=: read -r name module fn <<< "$spec"
  printf '#!/bin/sh\nexec "%s" -c '\''import sys; from %s import %s; sys.argv[0] = "%s"; sys.exit(%s())'\'' "$@"\n' \
    "$py" "$module" "$fn" "$name" "$fn" > "$run/bin/$name"
  chmod +x "$run/bin/$name"
done
export PATH="$run/bin:$venv/bin:$PATH" FLWR_HOME="$run/flwr-home"
free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
fleet=$(free_port); appio=$(free_port); control=$(free_port)
rfleet=$(free_port); rappio=$(free_port); rcontrol=$(free_port)
printf '[superlink]\ndefault = "bench"\n\n[superlink.bench]\naddress = "127.0.0.1:%s"\ninsecure = true\n\n[superlink.rest]\naddress = "127.0.0.1:%s"\ninsecure = true\n' \
  "$control" "$rcontrol" > "$run/flwr-home/config.toml"
cp -r "$here/flower-bench-app" "$run/app"

pids=()
stop() {  # SIGTERM to what this script started and to their children, by process id
  for p in "${pids[@]}"; do
    pkill -TERM -P "$p" 2> /dev/null || true
    kill -TERM "$p" 2> /dev/null || true
  done
}
trap stop EXIT

await_file() {  # FILE SECONDS
  local end=$((SECONDS + $2))
  until [[ -f $1 ]]; do
    ((SECONDS < end)) || { echo "no $1 after $2 s; see $run/*.log" >&2; exit 1; }
    sleep 1
  done
}

flower-superlink --insecure --fleet-api-address "127.0.0.1:$fleet" \
  --serverappio-api-address "127.0.0.1:$appio" --control-api-address "127.0.0.1:$control" \
  --storage-dir "$run/ffs" > "$run/superlink.log" 2>&1 &
pids+=($!)
mkdir -p "$run/ffs-rest"
flower-superlink --insecure --fleet-api-type rest --fleet-api-address "127.0.0.1:$rfleet" \
  --serverappio-api-address "127.0.0.1:$rappio" --control-api-address "127.0.0.1:$rcontrol" \
  --storage-dir "$run/ffs-rest" > "$run/superlink-rest.log" 2>&1 &
pids+=($!)
for ports in "$fleet $control" "$rfleet $rcontrol"; do
  read -r f c <<< "$ports"
  until "$py" -c "import socket; socket.create_connection(('127.0.0.1', $f)).close(); socket.create_connection(('127.0.0.1', $c)).close()" 2> /dev/null; do
    sleep 0.5
  done
done
jar="$root/tributary-benchmarks/target/benchmarks.jar"

parts=${PARTS:-1 2}
: > "$run/uptime.txt"
if [[ $parts == *1* ]]; then
echo "load before part 1: $(uptime)" | tee -a "$run/uptime.txt" >&2
flower-supernode --insecure --superlink "127.0.0.1:$fleet" \
  --clientappio-api-address "127.0.0.1:$(free_port)" --node-config "k=1" > "$run/python-supernode.log" 2>&1 &
pids+=($!); py_node=$!
"$JAVA_HOME/bin/java" "-Xmx$java_xmx" -cp "$jar" io.tributary.bench.FlowerSuperNodes \
  "127.0.0.1:$fleet" 1 > "$run/java-supernode.out" 2> "$run/java-supernode.log" &
pids+=($!); java_node=$!
flwr run "$run/app" bench --run-config "mode=\"each\"" --run-config "nodes=2" \
  --run-config "reps=$reps" --run-config "model-mb=$mb" \
  --run-config "out-file=\"$run/part1.json\"" > "$run/flwr-run-1.log" 2>&1
await_file "$run/part1.json" 1800
echo "load after part 1: $(uptime)" | tee -a "$run/uptime.txt" >&2
pkill -TERM -P "$py_node" 2> /dev/null || true
kill -TERM "$py_node" "$java_node" 2> /dev/null || true
wait "$java_node" 2> /dev/null || true
echo "load before part 1 (HTTP): $(uptime)" | tee -a "$run/uptime.txt" >&2
"$JAVA_HOME/bin/java" "-Xmx$java_xmx" -cp "$jar" io.tributary.bench.FlowerSuperNodes \
  "127.0.0.1:$rfleet" 1 -1 http > "$run/java-http-supernode.out" 2> "$run/java-http-supernode.log" &
pids+=($!); java_node=$!
flwr run "$run/app" rest --run-config "mode=\"each\"" --run-config "nodes=1" \
  --run-config "reps=$reps" --run-config "model-mb=$mb" \
  --run-config "out-file=\"$run/part1-http.json\"" > "$run/flwr-run-1h.log" 2>&1
await_file "$run/part1-http.json" 1800
echo "load after part 1 (HTTP): $(uptime)" | tee -a "$run/uptime.txt" >&2
kill -TERM "$java_node" 2> /dev/null || true
wait "$java_node" 2> /dev/null || true
fi

if [[ $parts == *2* ]]; then
echo "load before part 2: $(uptime)" | tee -a "$run/uptime.txt" >&2
/usr/bin/time -v -o "$run/java-many-time.txt" "$JAVA_HOME/bin/java" "-Xmx$java_xmx" \
  "-Xlog:gc:file=$run/java-many-gc.log" -cp "$jar" \
  io.tributary.bench.FlowerSuperNodes "127.0.0.1:$rfleet" "$many" $((many * 3)) http \
  > "$run/java-many.out" 2> "$run/java-many.log" &
pids+=($!); many_pid=$!
flwr run "$run/app" rest --run-config "mode=\"all\"" --run-config "nodes=$many" \
  --run-config "reps=3" --run-config "model-mb=$many_mb" \
  --run-config "out-file=\"$run/part2.json\"" > "$run/flwr-run-2.log" 2>&1
await_file "$run/part2.json" 1800
end=$((SECONDS + 600))
until grep -q "MEMORY after-round" "$run/java-many.out"; do
  kill -0 "$many_pid" 2> /dev/null && ((SECONDS < end)) \
    || { echo "the Java SuperNodes' JVM ended or hung; see $run/java-many.log" >&2; exit 1; }
  sleep 0.5
done
echo "load after part 2: $(uptime)" | tee -a "$run/uptime.txt" >&2
pkill -TERM -P "$many_pid" 2> /dev/null || true  # the JVM under /usr/bin/time, which then reports
wait "$many_pid" 2> /dev/null || true
fi

"$py" - "$run" <<'PY'
import json, os, re, statistics as st, sys
run = sys.argv[1]
med = st.median


def part1(p1):
    print(f"part 1: model {p1['model_bytes'] / 1e6:.0f} MB float32, one Python and one Java "
          "SuperNode over gRPC, then one Java SuperNode over HTTP")
    for java in (False, True):
        rs = [r for r in p1["rounds"] if r["nodes"] == 1 and r["replies"][0]["java"] == java]
        assert all(r["replies"][0]["exact"] for r in rs)
        rep = [r["replies"][0] for r in rs]
        print(f"  {'Java  ' if java else 'Python'} node alone: round s "
              f"{[round(r['round_s'], 2) for r in rs]} median {med(r['round_s'] for r in rs):.2f};"
              f" push {med(r['push_s'] for r in rs):.2f},"
              f" push->handler {med(x['to_handler_s'] for x in rep):.2f},"
              f" handler {med(x['handler_s'] for x in rep):.3f},"
              f" handler->reply held {med(x['from_handler_s'] for x in rep):.2f}")
    if os.path.exists(f"{run}/part1-http.json"):
        rs = json.load(open(f"{run}/part1-http.json"))["rounds"]
        assert all(r["replies"][0]["exact"] and r["replies"][0]["java"] for r in rs)
        rep = [r["replies"][0] for r in rs if r["nodes"] == 1]
        rs = [r for r in rs if r["nodes"] == 1]
        print(f"  Java node over HTTP alone: round s {[round(r['round_s'], 2) for r in rs]} "
              f"median {med(r['round_s'] for r in rs):.2f};"
              f" push {med(r['push_s'] for r in rs):.2f},"
              f" push->handler {med(x['to_handler_s'] for x in rep):.2f},"
              f" handler {med(x['handler_s'] for x in rep):.3f},"
              f" handler->reply held {med(x['from_handler_s'] for x in rep):.2f}")
    both = [r for r in p1["rounds"] if r["nodes"] == 2]
    assert all(x["exact"] for r in both for x in r["replies"])
    print(f"  both at once: round s {[round(r['round_s'], 2) for r in both]} "
          f"median {med(r['round_s'] for r in both):.2f}")
    # docs/benchmarks.md's rows: medians (range); vs Python: the Java round / the Python round
    # of the same repetition (the two take turns), median of those ratios.
    def rng(xs):
        return f"{med(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})"
    alone = [r for r in p1["rounds"] if r["nodes"] == 1]
    py_s = [r["round_s"] for r in alone if not r["replies"][0]["java"]]
    sides = [("Python `flower-supernode`, numpy, gRPC", False, alone),
             ("Java `SuperNode`, gRPC", True, alone)]
    if os.path.exists(f"{run}/part1-http.json"):
        http = [r for r in json.load(open(f"{run}/part1-http.json"))["rounds"] if r["nodes"] == 1]
        sides.append(("Java `SuperNode`, HTTP (`/api/v0/fleet`)", True, http))
    print()
    for label, java, rs in sides:
        rs = [r for r in rs if r["replies"][0]["java"] == java]
        rep = [r["replies"][0] for r in rs]
        secs = [r["round_s"] for r in rs]
        ratio = [s / p for s, p in zip(secs, py_s)]
        vs = "1" if not java else f"**{med(ratio):.2f}** ({min(ratio):.2f}-{max(ratio):.2f})"
        print(f"| {label} | **{rng(secs)}** | {med(r['push_s'] for r in rs):.2f} | "
              f"{med(x['to_handler_s'] for x in rep):.2f} | {med(x['handler_s'] for x in rep):.3f} | "
              f"{med(x['from_handler_s'] for x in rep):.2f} | {vs} |")
    print(f"| Python and Java at once, gRPC | **{rng([r['round_s'] for r in both])}** | | | | | |")


def part2(p2):
    rs = p2["rounds"]
    assert all(x["exact"] and x["java"] for r in rs for x in r["replies"])
    n = rs[0]["nodes"]
    print(f"part 2: {n} Java SuperNodes over HTTP in one JVM, model {p2['model_bytes'] / 1e6:.0f} MB: "
          f"round s {[round(r['round_s'], 2) for r in rs]} median "
          f"{med(r['round_s'] for r in rs):.2f}")
    mem = {}
    for line in open(f"{run}/java-many.out"):
        if line.startswith("MEMORY"):
            _, phase, nodes, heap, committed, rss = line.split()
            mem[phase] = (int(heap), int(committed), int(rss))
        if line.startswith("ACTIVE"):
            print("  " + line.strip())
    b = mem["before"]
    print(f"  before: heap after GC {b[0] / 2**20:.1f} MiB, committed {b[1] / 2**20:.0f} MiB, "
          f"RSS {b[2] / 2**20:.0f} MiB")
    for phase in ("active", "after-round"):
        h, c, r = mem[phase]
        print(f"  {phase}: heap after GC {h / 2**20:.1f} MiB (+{(h - b[0]) / n / 1024:.0f} "
              f"KiB/node), heap committed {c / 2**20:.0f} MiB, RSS {r / 2**20:.0f} MiB "
              f"(+{(r - b[2]) / n / 2**20:.2f} MiB/node), RSS - committed heap "
              f"{(r - c) / 2**20:.0f} MiB")
    t = open(f"{run}/java-many-time.txt").read()
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
    gc = open(f"{run}/java-many-gc.log").read()
    heap = max([int(x) for x in re.findall(r"(\d+)M->\d+M", gc)] or [0])
    print(f"  JVM peak RSS {peak / 1024:.0f} MiB, peak heap (largest before a GC) {heap} MiB")


if os.path.exists(f"{run}/part1.json"):
    part1(json.load(open(f"{run}/part1.json")))
if os.path.exists(f"{run}/part2.json"):
    part2(json.load(open(f"{run}/part2.json")))
PY
cat "$run/uptime.txt"
