#!/usr/bin/env bash
# What a simulation's per-client events cost: rounds of 10,000 generated clients (fit and
# evaluation, about 20,000 client events a round) run by `tributary simulate` without a listener
# (the anchor), then with `--ui` and a viewer reading the page's event stream (every client told
# to the LiveView, which counts it and re-renders the page at most every 100 ms), alternating so a
# drift in machine speed shows on both. Prints the median seconds per round of each, from
# metrics.jsonl (JVM start-up, data and each run's first round excluded), and the load average.
# Each pair's final.npz must be the same bytes.
#
# Usage: tributary-benchmarks/scripts/run-live-counts.sh [ROUNDS=4] [REPEATS=4] [CLIENTS=10000]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
rounds=${1:-4}
repeats=${2:-4}
clients=${3:-10000}
dir="$out/live-counts-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$dir"

simulate() {
  "$root/tributary" simulate --dataset generated:60,10,10 --model mclr --clients "$clients" \
    --clients-per-round "$clients" --rounds "$rounds" --seed 1 "$@"
}

# Seconds per round of a run: the `seconds` of each round in metrics.jsonl but the first (the
# JIT's warm-up).
round_seconds() {
  python3 -c 'import json,sys
for line in open(sys.argv[1]).readlines()[1:]:
    print(json.loads(line)["seconds"])' "$1/metrics.jsonl"
}

for ((i = 1; i <= repeats; i++)); do
  simulate --out "$dir/plain-$i" >"$dir/plain-$i.log" 2>&1
  round_seconds "$dir/plain-$i" >>"$dir/plain.txt"
  simulate --out "$dir/ui-$i" --ui 127.0.0.1:0 >"$dir/ui-$i.log" 2>&1 &
  pid=$!
  url=""
  for _ in $(seq 1 600); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$dir/ui-$i.log" 2>/dev/null | head -1 || true)
    [[ -n $url ]] && break
    sleep 0.05
  done
  [[ -n $url ]] || { echo "no live view address in $dir/ui-$i.log" >&2; kill "$pid"; exit 1; }
  curl -sN "${url}events" >"$dir/ui-$i.events" 2>/dev/null &
  viewer=$!
  wait "$pid"
  kill "$viewer" 2>/dev/null || true
  round_seconds "$dir/ui-$i" >>"$dir/ui.txt"
  cmp -s "$dir/plain-$i/final.npz" "$dir/ui-$i/final.npz" \
    || { echo "final.npz differs with the page" >&2; exit 1; }
done

median() {
  sort -g "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
echo "| clients per round | rounds | without a listener (s/round) | with --ui and a viewer (s/round) | load |"
echo "|---|---|---|---|---|"
echo "| $clients | $(((rounds - 1) * repeats)) each | $(median "$dir/plain.txt") | $(median "$dir/ui.txt") | $(cut -d' ' -f1-3 /proc/loadavg) |"
echo "results: $dir" >&2

# The same in one JVM, apart from start-up: no listener, a counting listener, a LiveView without
# and with a viewer (LiveCountsBench.java, beside this script).
"$JAVA_HOME/bin/java" ${TRIBUTARY_JAVA_OPTS:-} -cp "$root/tributary-cli/target/tributary.jar" \
  "$here/LiveCountsBench.java" "$clients" "$rounds" "$repeats"
