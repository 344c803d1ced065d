#!/usr/bin/env bash
# Many SuperNodes on one server, Tributary's Fleet API beside Flower's own SuperLink, in one run.
#
# Tributary: io.tributary.bench.FleetServerScale, a FleetServer (grpc-rere) serving
# flower-bench-app/ to N Java SuperNodes (io.tributary.bench.FlowerSuperNodes, N/JVMS per JVM),
# ROUNDS FedAvg rounds of a MB MB float32 model, every reply model + 1 (checked exactly each
# round, no evaluation, as the anchor's ServerApp); prints each round's seconds and the server
# process's CPU seconds, the server's heap after GC before any node and with all N online (per
# node: the difference / N), and its peak heap over the rounds.
# Anchor: Flower 1.27's flower-superlink and the benchmark ServerApp (flwr run, mode "all":
# ROUNDS rounds to every node at once, timed from before push_messages until every reply is
# pulled) with ANCHOR_N of the same Java SuperNodes; the SuperLink's RSS is read from /proc, and the
# CPU time of the SuperLink and what it starts (SuperExec, ServerApp) over the run.
#
# Usage: [REPS=5] tributary-benchmarks/scripts/run-fleet-scale.sh [N] [ROUNDS] [MB] [JVMS] [ANCHOR_N]
#        (defaults 1000 2 1 4 N); JAVA_XMX (default 2g) per SuperNode JVM, SERVER_XMX (4g).
#        REPS repetitions (reps.sh), each Tributary's server then Flower's with fresh nodes, so
#        the two interleave; a repetition whose Flower run fails (as at 1,000 nodes) records the
#        failure and goes on. Prints the medians, ranges and the docs/benchmarks.md rows.
# Expected at REPS=5 on an idle machine: N=100 (JVMS 2) about 8 minutes; N=1000 (JVMS 4) about
# 25 minutes (~5 a repetition, Flower's failing run included; REPS=3 takes ~15 but gives no
# median of 5).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
n=${1:-1000}
rounds=${2:-2}
mb=${3:-1}
jvms=${4:-4}
anchor_n=${5:-$n}
java_xmx=${JAVA_XMX:-2g}
server_xmx=${SERVER_XMX:-4g}
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
# shellcheck source=reps.sh
source "$here/reps.sh"
rows=("| Tributary \`FleetServer\` | $n | {trib_rounds_s~:.2f} | **{trib_median_s:.2f}** ({trib_median_s~:.2f}) | {trib_cpu_s:.1f} | heap after GC +{trib_heap_kib_node:.1f} KiB | {trib_peak_mib:,.0f} MiB | {load1_rep~:.1f} |"
  "| Flower SuperLink + ServerApp | $anchor_n | failed in {flower_failed+:.0f} of {flower_ran+:.0f} | **{flower_median_s:.2f}** ({flower_median_s~:.2f}) | {flower_cpu_s:.2f} | RSS +{flower_rss_kib_node:.0f} KiB | | |")
repeat_self "$0" "$@"
peers="$root/../shared/peers"
[[ -f $peers/setup-flower.sh ]] || { echo "no Flower snapshot at $peers" >&2; exit 1; }
if [[ -z ${SKIP_BUILD:-} ]]; then build_benchmarks; fi
jar="$root/tributary-benchmarks/target/benchmarks.jar"
venv="$root/target/flower-venv"
bash "$peers/setup-flower.sh" "$venv" > /dev/null
export PYTHONPATH="$peers/flower/framework/py:$peers/flower/shim" PYTHONDONTWRITEBYTECODE=1 \
  PYTHONUNBUFFERED=1
py="$venv/bin/python"
run="$out/fleet-scale"
rm -rf "$run"
mkdir -p "$run/bin" "$run/flwr-home" "$run/ffs"
cp -r "$here/flower-bench-app" "$run/app"
free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pids=()
stop() {  # SIGTERM to what this script started and to their children, by process id
  for p in "${pids[@]}"; do
    pkill -TERM -P "$p" 2> /dev/null || true
    kill -TERM "$p" 2> /dev/null || true
  done
}
trap stop EXIT

start_nodes() {  # ADDRESS TOTAL PREFIX: TOTAL Java SuperNodes over JVMS JVMs
  local per=$(( ($2 + jvms - 1) / jvms )) left=$2 i=0
  while ((left > 0)); do
    local k=$((left < per ? left : per))
    "$JAVA_HOME/bin/java" "-Xmx$java_xmx" -cp "$jar" io.tributary.bench.FlowerSuperNodes "$1" "$k" \
      > "$run/$3-nodes-$i.out" 2> "$run/$3-nodes-$i.log" &
    pids+=($!)
    left=$((left - k)); i=$((i + 1))
  done
}
stop_nodes() {  # PREFIX
  for f in "$run/$1"-nodes-*.out; do :; done
  stop; pids=()
}

echo "load before Tributary: $(uptime)" | tee "$run/uptime.txt" >&2
port=$(free_port)
"$JAVA_HOME/bin/java" "-Xmx$server_xmx" -cp "$jar" io.tributary.bench.FleetServerScale "$port" \
  "$run/app" "$n" "$rounds" "$mb" > "$run/tributary-server.out" 2> "$run/tributary-server.log" &
pids+=($!); server=$!
until grep -q LISTENING "$run/tributary-server.out" 2> /dev/null; do
  kill -0 "$server" 2> /dev/null || { echo "the server ended; see $run/tributary-server.log" >&2; exit 1; }
  sleep 0.5
done
start_nodes "127.0.0.1:$port" "$n" tributary
while ! grep -q DONE "$run/tributary-server.out"; do
  kill -0 "$server" 2> /dev/null || { echo "the server ended; see $run/tributary-server.log" >&2; exit 1; }
  sleep 1
done
echo "load after Tributary: $(uptime)" | tee -a "$run/uptime.txt" >&2
stop_nodes tributary
sleep 5

# Flower's console scripts, which the SuperLink starts as subprocesses
for spec in flower-superlink:flwr.server.app:run_superlink \
    flower-superexec:flwr.supercore.cli:flower_superexec \
    flwr-serverapp:flwr.server.serverapp:flwr_serverapp flwr:flwr.cli.app:app; do
  IFS=: read -r name module fn <<< "$spec"
  printf '#!/bin/sh\nexec "%s" -c '\''import sys; from %s import %s; sys.argv[0] = "%s"; sys.exit(%s())'\'' "$@"\n' \
    "$py" "$module" "$fn" "$name" "$fn" > "$run/bin/$name"
  chmod +x "$run/bin/$name"
done
export PATH="$run/bin:$venv/bin:$PATH" FLWR_HOME="$run/flwr-home"
fleet=$(free_port); appio=$(free_port); control=$(free_port)
printf '[superlink]\ndefault = "bench"\n\n[superlink.bench]\naddress = "127.0.0.1:%s"\ninsecure = true\n' \
  "$control" > "$run/flwr-home/config.toml"
echo "load before Flower: $(uptime)" | tee -a "$run/uptime.txt" >&2
flower-superlink --insecure --fleet-api-address "127.0.0.1:$fleet" \
  --serverappio-api-address "127.0.0.1:$appio" --control-api-address "127.0.0.1:$control" \
  --storage-dir "$run/ffs" > "$run/superlink.log" 2>&1 &
pids+=($!); superlink=$!
until "$py" -c "import socket; socket.create_connection(('127.0.0.1', $fleet)).close(); socket.create_connection(('127.0.0.1', $control)).close()" 2> /dev/null; do
  sleep 0.5
done
rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
# CPU seconds of process $1 and every live descendant (the SuperExec, the ServerApp), each with
# its reaped children's: what the Flower side spent, as the Tributary server's process CPU time.
tree_cpu() {
  "$py" - "$1" <<'PYCPU'
import os, sys
kids, stat = {}, {}
for p in filter(str.isdigit, os.listdir("/proc")):
    try:
        f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        continue
    kids.setdefault(f[1], []).append(p)
    stat[p] = sum(int(x) for x in f[11:15])
todo, ticks = [sys.argv[1]], 0
while todo:
    p = todo.pop()
    ticks += stat.get(p, 0)
    todo += kids.get(p, [])
print(f"{ticks / os.sysconf('SC_CLK_TCK'):.2f}")
PYCPU
}
echo "SUPERLINK_RSS_KB before $(rss "$superlink")" > "$run/superlink-rss.txt"
start_nodes "127.0.0.1:$fleet" "$anchor_n" flower
until (( $(cat "$run"/flower-nodes-*.out 2> /dev/null | grep -c '^ACTIVE') == $(ls "$run"/flower-nodes-*.out | wc -l) )); do
  sleep 1
done
echo "SUPERLINK_RSS_KB online $(rss "$superlink")" >> "$run/superlink-rss.txt"
echo "SUPERLINK_CPU_S before $(tree_cpu "$superlink")" > "$run/superlink-cpu.txt"
flwr run "$run/app" bench --run-config "mode=\"all\"" --run-config "nodes=$anchor_n" \
  --run-config "reps=$rounds" --run-config "model-mb=$mb" \
  --run-config "out-file=\"$run/flower.json\"" > "$run/flwr-run.log" 2>&1
end=$((SECONDS + 3600))
until [[ -f $run/flower.json ]]; do
  ((SECONDS < end)) || { echo "no $run/flower.json; see $run/*.log" >&2; exit 1; }
  sleep 5
  # a run the SuperLink ended without the ServerApp's result (finished:failed, :stopped)
  status=$(flwr ls bench --format json 2> /dev/null | "$py" -c \
    'import json, sys; print(json.load(sys.stdin)["runs"][0]["status"])' 2> /dev/null || true)
  if [[ $status == finished:* && ! -f $run/flower.json ]]; then
    sleep 2
    [[ -f $run/flower.json ]] && break
    echo "Flower's run ended $status without a result; see $run/superlink.log and" \
      "flwr log RUN_ID bench --show" >&2
    echo "load after Flower: $(uptime)" | tee -a "$run/uptime.txt" >&2
    [[ -n ${REP:-} ]] || exit 1
    break # a repetition records the failure (flower_failed) and the Tributary figures
  fi
done
echo "SUPERLINK_RSS_KB after $(rss "$superlink")" >> "$run/superlink-rss.txt"
echo "SUPERLINK_CPU_S after $(tree_cpu "$superlink")" >> "$run/superlink-cpu.txt"
echo "load after Flower: $(uptime)" | tee -a "$run/uptime.txt" >&2

"$py" - "$run" "$n" "$anchor_n" <<'PY'
import json, statistics as st, sys
run, n, anchor_n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mem, rounds, cpu, peak = {}, [], [], None
for line in open(f"{run}/tributary-server.out"):
    f = line.split()
    if f[0] == "MEMORY":
        mem[f[1]] = int(f[3])
    elif f[0] == "ROUND":
        rounds.append(float(f[2]))
        cpu.append(float(f[5]))
        assert f[4] == "0", line
    elif f[0] == "PEAK":
        peak = int(f[1])
    elif f[0] == "ONLINE":
        print("Tributary: " + line.strip())
print(f"Tributary FleetServer, {n} Java SuperNodes: round s {[round(r, 2) for r in rounds]} "
      f"median {st.median(rounds):.2f}; server CPU s per round {cpu} (the first from the run's "
      f"start); heap after GC {mem['before'] / 2**20:.1f} MiB before, "
      f"{mem['online'] / 2**20:.1f} MiB online (+{(mem['online'] - mem['before']) / n / 1024:.1f} "
      f"KiB/node); peak heap over the rounds {peak / 2**20:.0f} MiB")
import os
def figure(key, value):
    if os.environ.get("FIGURES") and os.environ.get("REP"):
        with open(os.environ["FIGURES"], "a") as f:
            f.write(f"{os.environ['REP']}\t{key}\t{value}\n")
figure("trib_median_s", st.median(rounds))
for r in rounds:
    figure("trib_rounds_s", r)
figure("trib_cpu_s", sum(cpu))
figure("trib_heap_kib_node", (mem["online"] - mem["before"]) / n / 1024)
figure("trib_peak_mib", peak / 2**20)
figure("flower_ran", 1)
if not os.path.exists(f"{run}/flower.json"):
    figure("flower_failed", 1)
    print(f"Flower SuperLink + ServerApp, {anchor_n} Java SuperNodes: the run failed (no result)")
    sys.exit(0)
figure("flower_failed", 0)
fl = json.load(open(f"{run}/flower.json"))
rs = [r for r in fl["rounds"] if r["nodes"] == anchor_n]
assert all(x["exact"] for r in rs for x in r["replies"])
rss = dict(l.split()[1:] for l in open(f"{run}/superlink-rss.txt"))
print(f"Flower SuperLink + ServerApp, {anchor_n} Java SuperNodes: round s "
      f"{[round(r['round_s'], 2) for r in rs]} median {st.median(r['round_s'] for r in rs):.2f}; "
      f"SuperLink RSS {int(rss['before']) / 1024:.0f} MiB before, {int(rss['online']) / 1024:.0f} "
      f"MiB online (+{(int(rss['online']) - int(rss['before'])) / anchor_n:.0f} KiB/node), "
      f"{int(rss['after']) / 1024:.0f} MiB after the rounds")
cpu = dict(l.split()[1:] for l in open(f"{run}/superlink-cpu.txt"))
figure("flower_median_s", st.median(r["round_s"] for r in rs))
figure("flower_rss_kib_node", (int(rss["online"]) - int(rss["before"])) / anchor_n)
figure("flower_cpu_s", float(cpu["after"]) - float(cpu["before"]))
print(f"Flower SuperLink + SuperExec + ServerApp CPU s over the run (ServerApp start included): "
      f"{float(cpu['after']) - float(cpu['before']):.2f}")
PY
cat "$run/uptime.txt"
