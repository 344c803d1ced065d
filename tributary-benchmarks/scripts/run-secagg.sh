#!/usr/bin/env bash
# Secure aggregation's cost for docs/benchmarks.md ("Secure aggregation (issue 19)"): a plain round
# (the anchor) and a SecAgg+ round of the same clients and model, Java server and clients in one
# JVM over in-process gRPC (tributary-flower-secagg's SecureAggregationBenchmark, run by Maven).
# Every size runs REPS times, plain and SecAgg+ taking turns within each repetition; prints each
# size's median round seconds (range), SecAgg+ / plain per repetition, the bytes per client (exact)
# and the failures, as the table's rows.
#
# Usage: [REPS=5] tributary-benchmarks/scripts/run-secagg.sh [CLIENTS...] [-- PARAMETERS]
#        (defaults: 20 50 100 clients, 100000 parameters)
# Expected at REPS=5 on an idle machine: about 4 minutes (Maven's start and the compile check
# ~1, each size's pair of rounds 3-10 s).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
reps=${REPS:-5}
clients=()
params=100000
while (($#)); do
  case $1 in
    --) params=${2:?PARAMETERS after --}; shift 2 ;;
    *) clients+=("$1"); shift ;;
  esac
done
((${#clients[@]})) || clients=(20 50 100)
sizes=$(printf "%sx$params," "${clients[@]}")
sizes=${sizes%,}
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +'%Y-%m-%d %H:%M UTC')
log="$out/secagg-$(date +%Y%m%d-%H%M%S).log"
echo "SecAgg+ against plain rounds, sizes $sizes, $reps repetitions; log in $log" >&2
(cd "$root" && ./mvnw -B -ntp -o test -pl tributary-flower-secagg -am -Dtest=SecureAggregationBenchmark \
  -Dtributary.bench.secagg="$sizes" -Dtributary.bench.secagg.reps="$reps" \
  -Dsurefire.failIfNoSpecifiedTests=false -DskipITs -Dtributary.fuzz.skip=true) > "$log" 2>&1 \
  || { tail -40 "$log" >&2; echo "run-secagg.sh: the Maven run failed; log: $log" >&2; exit 1; }
python3 - "$log" "$reps" "$started" "$load_start" "$(cut -d' ' -f1-3 /proc/loadavg)" "${under_load:-}" <<'PY'
import re, statistics as st, sys
log, reps, started, load_start, load_end, under = sys.argv[1:7]
line = re.compile(r"secagg bench: (plain|SecAgg\+): (\d+) clients: round ([0-9.]+) s .*?failures (\d+), "
                  r"per client (\d+) bytes down, (\d+) bytes up; load ([0-9.]+)")
runs = {}
for m in line.finditer(open(log).read()):
    kind, n = m.group(1), int(m.group(2))
    runs.setdefault(n, {"plain": [], "SecAgg+": []})[kind].append(
        (float(m.group(3)), int(m.group(4)), int(m.group(5)), int(m.group(6)), float(m.group(7))))
if not runs:
    sys.exit(f"run-secagg.sh: no 'secagg bench:' lines in {log}")
print(f"SecAgg+ against plain rounds: median of {reps} (range), {started}; load average {load_start} "
      f"at the start, {load_end} at the end{' (' + under + ')' if under else ''}")
print("| clients | round s, plain / SecAgg+ | SecAgg+ / plain | down per client, plain / SecAgg+ "
      "| up per client, plain / SecAgg+ | failures | load average |")
print("|---:|---|---|---|---|---:|---|")
for n, sides in sorted(runs.items()):
    p, s = sides["plain"], sides["SecAgg+"]
    med = lambda xs: st.median(xs)
    ps, ss = [x[0] for x in p], [x[0] for x in s]
    ratio = [b / a for a, b in zip(ps, ss) if a > 0]
    loads = [x[4] for x in p + s]
    print(f"| {n} | {med(ps):.2f} ({min(ps):.2f}-{max(ps):.2f}) / {med(ss):.2f} ({min(ss):.2f}-{max(ss):.2f}) "
          f"| {med(ratio):.1f}x ({min(ratio):.1f}-{max(ratio):.1f}) "
          f"| {p[-1][2]:,} / {s[-1][2]:,} B | {p[-1][3]:,} / {s[-1][3]:,} B "
          f"| {sum(x[1] for x in p + s)} | {min(loads):.1f}-{max(loads):.1f} |")
PY
