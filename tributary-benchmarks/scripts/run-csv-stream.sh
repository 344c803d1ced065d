#!/usr/bin/env bash
# `tributary simulate --dataset csv:PATH` on a CSV much larger than the heap, for docs/benchmarks.md
# (issue 31, item 1): the file is read once to index the clients and spill their rows as float32,
# then client by client, so the heap holds the index, the test set and a round's clients only.
# Makes MEGABYTES of CSV (csv_clients_make.py: 1000 clients, 32 features, 10 classes), then runs
#   TRIBUTARY_JAVA_OPTS=-XmxHEAP ./tributary simulate --dataset csv:FILE --label-column label ...
# under /usr/bin/time -v, and, as the anchor in the same run, `./tributary --version` (the JVM's own
# footprint). Prints the file size, peak RSS, wall time and the load average.
#
# With FORMAT parquet the CSV is then converted, batch by batch, to a Snappy Parquet file with
# pyarrow, and simulate reads --dataset parquet:FILE instead (ParquetClients: row by row, spilled
# the same way).
#
# Usage: [REPS=5] tributary-benchmarks/scripts/run-csv-stream.sh [MEGABYTES] [HEAP] [csv|parquet]
#   (defaults 2048, 256m, csv). REPS repetitions (reps.sh), each the anchor then simulate, the
#   data made once for all of them; prints the medians, ranges and the docs/benchmarks.md row.
#   Expected at REPS=5 on an idle machine: about 6 minutes for 2048 MB of CSV (the data ~1 min,
#   each repetition ~1 min); parquet about the same plus its conversion.
#   Needs python3 with numpy (and, for parquet, $PYTHON or target/interop-venv/bin/python with
#   pyarrow: the interop tests make that venv), GNU time at /usr/bin/time and about 1.6 x
#   MEGABYTES of disk under tributary-benchmarks/target/csv-bench (the data and the spill file in
#   the same directory); the files are deleted afterwards.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
# shellcheck source=reps.sh
source "$here/reps.sh"
mb=${1:-2048}
heap=${2:-256m}
format=${3:-csv}
case $format in csv | parquet) ;; *) echo "run-csv-stream.sh: FORMAT is csv or parquet" >&2; exit 2 ;; esac
dir=$root/tributary-benchmarks/target/csv-bench
mkdir -p "$dir"
[[ -x /usr/bin/time ]] || { echo "run-csv-stream.sh: needs GNU time at /usr/bin/time" >&2; exit 1; }
data="$dir/data.$format"
if [[ -z ${REP:-} ]]; then
  # The first process makes the data once for every repetition and deletes it at the end.
  trap 'rm -rf "$dir"/data.csv "$dir"/data.parquet "$dir"/run "$dir"/tmp' EXIT
  require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
  echo "building the CLI if needed..." >&2
  "$root/tributary" --version >/dev/null
  python3 "$here/csv_clients_make.py" "$dir/data.csv" --megabytes "$mb" >&2
fi
if [[ -z ${REP:-} && $format == parquet ]]; then
  py=${PYTHON:-$root/target/interop-venv/bin/python}
  "$py" - "$dir/data.csv" "$dir/data.parquet" <<'PY'
import sys
import pyarrow.csv as csv
import pyarrow.parquet as pq
reader = csv.open_csv(sys.argv[1])
with pq.ParquetWriter(sys.argv[2], reader.schema) as writer:
    for batch in reader:
        writer.write_batch(batch)
PY
  rm "$dir/data.csv"
fi
label=CSV
[[ $format == parquet ]] && label=Parquet
rows=("| $label, $(du -m "$data" | cut -f1) MB | ${heap/m/ MiB} | {rss_mib:.0f} MiB ({rss_mib~:.0f}) | {anchor_rss_mib:.0f} MiB ({anchor_rss_mib~:.0f}) | {wall_s:.1f} s ({wall_s~:.1f}) |")
repeat_self "$0" "$@"
rm -rf "$dir/run" "$dir/tmp"
mkdir -p "$dir/tmp"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1e6}' /proc/meminfo) memory," \
  "$("$JAVA_HOME/bin/java" -version 2>&1 | head -1), load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
echo "file: $(du -m "$data" | cut -f1) MB of $format ($mb MB as CSV)"
/usr/bin/time -v -o "$dir/time.txt" "$root/tributary" --version >/dev/null
anchor_kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$dir/time.txt")
echo "anchor (tributary --version): max RSS $anchor_kb KB"
figure anchor_rss_mib "$(echo "$anchor_kb / 1024" | bc -l)"
TRIBUTARY_JAVA_OPTS="-Xmx$heap -Djava.io.tmpdir=$dir/tmp" /usr/bin/time -v -o "$dir/time.txt" \
  "$root/tributary" simulate --dataset "$format:$data" --label-column label --clients 1000 \
  --clients-per-round 20 --rounds 3 --local-epochs 1 --batch-size 64 --test-fraction 0.01 \
  --set train_eval_every=1000 --threads 2 --out "$dir/run" | tail -2
kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$dir/time.txt")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.txt")
figure rss_mib "$(echo "$kb / 1024" | bc -l)"
figure wall_s "$(awk -F: '{s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s}' <<<"$wall")"
echo "simulate -Xmx$heap: max RSS $(awk -F': ' '/Maximum resident/ {print $2}' "$dir/time.txt") KB," \
  "wall $(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.txt")," \
  "load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
