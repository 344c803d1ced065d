#!/usr/bin/env bash
# Flower transport under load: CLIENTS clients (default 1000) connect at once over loopback, each
# with its own TCP connection, to `tributary server` running in its own JVM; one round (fit and
# evaluate) of a float32 model of ELEMENTS parameters (default 1,000,000) must complete. Client i
# of N adds i/N to every parameter (FlowerSwarm), so the aggregate is checked: every parameter of
# final.npz must be (N-1)/(2N). Prints the round time, the server's peak RSS (/usr/bin/time -v)
# and its peak heap (largest heap before a collection in -Xlog:gc), with the load average.
#
# Usage: [REPS=5] tributary-benchmarks/scripts/run-flower-load.sh [CLIENTS] [ELEMENTS]
#        SERVER_XMX (default 2g) and SWARM_XMX (default 6g) set the two JVMs' heaps; SERVER_ARGS
#        adds options to `tributary server` (such as --max-concurrent-clients 32). REPS
#        repetitions (reps.sh), each a fresh server and swarm; prints the medians, ranges and the
#        docs/benchmarks.md row (KEEP_GOING=1 goes on past a failed repetition and counts
#        them: a server below the heap its clients need ends with exit 1). Expected at REPS=5
#        on an idle machine (1000 clients, 1M parameters): about 5 minutes (~45 s a round,
#        ~15 s of start-up each).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
clients=${1:-1000}
elements=${2:-1000000}
server_xmx=${SERVER_XMX:-2g}
swarm_xmx=${SWARM_XMX:-6g}
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
# shellcheck source=reps.sh
source "$here/reps.sh"
rows=("| ${server_xmx/g/ GiB} | **{round_s:.1f}** ({round_s~:.1f}) | {failures:.0f} ({failures~:.0f}) | {failed_rep+:.0f} of {failed_rep#:.0f} (the server's end: {server_end_s:.1f} s, {server_end_s~:.1f}) | {server_rss_mib:,.0f} MiB ({server_rss_mib~:.0f}) |")
repeat_self "$0" "$@"

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  echo "building tributary-cli and benchmarks..." >&2
  (cd "$root" && ./mvnw -q -B -DskipTests -pl tributary-cli,tributary-benchmarks -am package)
fi

run="$out/flower-load"
rm -rf "$run"
mkdir -p "$run"
python3 -c "import numpy as np; np.savez('$run/init.npz', w=np.zeros($elements, np.float32))"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

echo "load before: $(uptime)" | tee "$run/uptime.txt" >&2
/usr/bin/time -v -o "$run/server-time.txt" "$JAVA_HOME/bin/java" "-Xmx$server_xmx" \
  "-Xlog:gc:file=$run/server-gc.log" -jar "$root/tributary-cli/target/tributary.jar" server \
  --address "127.0.0.1:$port" --rounds 1 --min-clients "$clients" --initial "$run/init.npz" \
  --out "$run/out" --client-wait 300 --round-timeout 300 ${SERVER_ARGS:-} > "$run/server.log" 2>&1 &
server=$!
sleep 2
start=$(date +%s.%N)
"$JAVA_HOME/bin/java" "-Xmx$swarm_xmx" -cp "$root/tributary-benchmarks/target/benchmarks.jar" \
  io.tributary.bench.FlowerSwarm "127.0.0.1:$port" "$clients" > "$run/swarm.out" \
  2> "$run/swarm.log" &
swarm=$!
server_status=0
wait "$server" || server_status=$?
server_end=$(date +%s.%N)
if ((server_status != 0)); then
  # Its clients would go on retrying the server that is gone for about two minutes (their
  # reconnect back-off): what is measured is how soon the server ends.
  sleep 5
  kill "$swarm" 2> /dev/null || true
fi
swarm_status=0
wait "$swarm" || swarm_status=$?
end=$(date +%s.%N)
cat "$run/swarm.out" >&2
echo "load after: $(uptime)" | tee -a "$run/uptime.txt" >&2
if ((server_status != 0)); then
  server_s=$(echo "$server_end - $start" | bc)
  figure server_end_s "$server_s"
  echo "the server ended with exit status $server_status $server_s s after the clients started;" \
    "its last lines:" >&2
  grep -v ' joined \| disconnected' "$run/server.log" | tail -5 >&2
  exit 1
fi
if ((swarm_status != 0)); then
  echo "the swarm ended with exit status $swarm_status: $(tail -1 "$run/swarm.out")" >&2
  exit 1
fi

python3 - "$run" "$clients" "$start" "$end" "$server_xmx" "$swarm_xmx" <<'PY'
import json, re, sys
import numpy as np
run, n, start, end, sxmx, cxmx = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
m = [json.loads(l) for l in open(f"{run}/out/metrics.jsonl")]
assert len(m) == 1, m
m = m[0]
w = np.load(f"{run}/out/final.npz")["w"]
want = (n - 1) / (2 * n)
err = float(np.max(np.abs(w - want)))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(f"{run}/server-time.txt").read()).group(1))
heap = max(int(x) for x in re.findall(r"(\d+)M->\d+M", open(f"{run}/server-gc.log").read()) or [0])
print(f"clients {n}, parameters {w.size}, round {m['seconds']:.2f} s "
      f"(fit + evaluate; {m['failures']} failures), swarm wall {end - start:.1f} s")
print(f"bytes down {m['bytes_down'] / 1e9:.2f} GB, up {m['bytes_up'] / 1e9:.2f} GB, "
      f"aggregate max |w - {want:.4f}| = {err:.2e}")
import os
if os.environ.get("FIGURES") and os.environ.get("REP"):
    with open(os.environ["FIGURES"], "a") as f:
        for k, v in (("round_s", m["seconds"]), ("failures", m["failures"]),
                     ("server_rss_mib", rss / 1024), ("server_heap_mib", heap),
                     ("swarm_wall_s", end - start)):
            f.write(f"{os.environ['REP']}\t{k}\t{v}\n")
print(f"server -Xmx{sxmx}: peak RSS {rss / 1024:.0f} MiB, peak heap (before GC) {heap} MiB; swarm -Xmx{cxmx}")
assert m["failures"] == 0 and m["clients"] == n, m
assert err < 1e-4, err
PY
cat "$run/uptime.txt"
