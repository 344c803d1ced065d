#!/usr/bin/env bash
# `tributary convert` of a large .npz to a numpy.ndarray .pb against numpy doing the same work, for
# docs/benchmarks.md (issue 22, item 7): peak RSS and wall time (JVM start included) of
#   ./tributary convert in.npz out.pb --tensor-type numpy.ndarray
# and of convert_anchor.py's numpy (np.load, np.save of each array into a BytesIO, the Parameters
# message written to the file as it goes), plain and with Tributary's fsync and rename, each under
# /usr/bin/time -v, RUNS times in rotating order after one untimed round that warms the page cache.
# Checks that the outputs decode to the archive's arrays and are the same bytes, then prints the
# medians with the largest tensor's size, which peak RSS is judged against.
#
# Usage: tributary-benchmarks/scripts/run-convert.sh [RUNS] [MEGABYTES]   (defaults $REPS or 5, 400)
#   Expected on an idle machine at 5 runs of 400 MB: about 2 minutes stored, 3 deflated.
#   COMPRESSED=1 makes the archive with np.savez_compressed instead of np.savez. BASELINE_JAR=JAR
#   adds a row for `java -jar JAR convert ...` (such as a tributary.jar built before streaming), whose
#   output is checked too. Needs python3 with
#   numpy, GNU time at /usr/bin/time and about 4 x MEGABYTES of disk under
#   tributary-benchmarks/target/convert-bench; the files are deleted afterwards.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
runs=${1:-${REPS:-5}}
mb=${2:-400}
dir=$root/tributary-benchmarks/target/convert-bench
mkdir -p "$dir"
trap 'rm -f "$dir"/*.npz "$dir"/*.pb "$dir"/*.tmp "$dir"/.*.tmp' EXIT

[[ -x /usr/bin/time ]] || { echo "run-convert.sh: needs GNU time at /usr/bin/time" >&2; exit 1; }
echo "building the CLI if needed..." >&2
"$root/tributary" --version >/dev/null

python3 "$here/convert_anchor.py" make "$dir/in.npz" --megabytes "$mb" ${COMPRESSED:+--compressed} >&2

declare -A cmd
cmd[tributary]="$root/tributary convert $dir/in.npz $dir/tributary.pb --tensor-type numpy.ndarray"
cmd[numpy]="python3 $here/convert_anchor.py anchor $dir/in.npz $dir/numpy.pb"
cmd[numpy-fsync]="python3 $here/convert_anchor.py anchor $dir/in.npz $dir/numpy-fsync.pb --fsync"
names=(tributary numpy numpy-fsync)
if [[ -n ${BASELINE_JAR:-} ]]; then
  cmd[baseline]="$JAVA_HOME/bin/java -jar $BASELINE_JAR convert $dir/in.npz $dir/baseline.pb --tensor-type numpy.ndarray"
  names+=(baseline)
fi

samples=$dir/samples.tsv
: >"$samples"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1e6}' /proc/meminfo) memory," \
  "$("$JAVA_HOME/bin/java" -version 2>&1 | head -1), $(python3 -c 'import numpy, sys; print("numpy", numpy.__version__, "python", sys.version.split()[0])')," \
  "load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${names[@]}"; do  # untimed: page cache and jar warm
  ${cmd[$name]} >/dev/null
done
for ((i = 0; i < runs; i++)); do
  for ((k = 0; k < ${#names[@]}; k++)); do
    name=${names[$(((i + k) % ${#names[@]}))]}
    rm -f "$dir/$name.pb"
    /usr/bin/time -v -o "$dir/time.txt" ${cmd[$name]} >/dev/null
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.txt")
    printf '%s\t%s\t%s\n' "$name" "$rss" "$wall" >>"$samples"
    echo "run $((i + 1)) $name: max RSS ${rss} KB, wall $wall" >&2
  done
done
python3 "$here/convert_anchor.py" check "$dir/tributary.pb" "$dir/numpy.pb" "$dir/in.npz"
cmp "$dir/numpy.pb" "$dir/numpy-fsync.pb"
if [[ -n ${BASELINE_JAR:-} ]]; then
  cmp "$dir/tributary.pb" "$dir/baseline.pb"
fi

python3 - "$samples" "$dir/in.npz" "${names[@]}" <<'PY'
import os, statistics, sys
import numpy as np
samples, npz, names = sys.argv[1], sys.argv[2], sys.argv[3:]
def seconds(t):
    s = 0.0
    for part in t.split(":"):
        s = s * 60 + float(part)
    return s
rows = {}
for line in open(samples):
    name, rss, wall = line.split("\t")
    rows.setdefault(name, []).append((int(rss) / 1024, seconds(wall.strip())))
with np.load(npz) as z:
    largest = max(z[n].nbytes for n in z.files) / 2**20
size = os.path.getsize(npz) / 2**20
print(f"input: {size:.0f} MiB .npz, largest tensor {largest:.1f} MiB")
print("| command | runs | peak RSS, median (min-max) | RSS / largest tensor | wall time, median (min-max) |")
print("|---|---|---|---|---|")
for name in names:
    r = [x[0] for x in rows[name]]
    w = [x[1] for x in rows[name]]
    print(f"| {name} | {len(r)} | {statistics.median(r):.0f} MiB ({min(r):.0f}-{max(r):.0f}) "
          f"| {statistics.median(r) / largest:.2f}x | {statistics.median(w):.2f} s ({min(w):.2f}-{max(w):.2f}) |")
t = statistics.median(x[1] for x in rows["tributary"])
for anchor in [n for n in names[1:] if n.startswith("numpy")]:
    paired = [a[1] / b[1] for a, b in zip(rows["tributary"], rows[anchor])]
    print(f"tributary / {anchor} wall time: {t / statistics.median(x[1] for x in rows[anchor]):.2f} of the medians;"
          f" per round {statistics.median(paired):.2f} median ({min(paired):.2f}-{max(paired):.2f}),"
          f" tributary faster in {sum(p < 1 for p in paired)} of {len(paired)}")
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
