#!/usr/bin/env bash
# Times `tributary simulate` from launch to exit under the JVM settings a launcher could add, for
# docs/benchmarks.md ("Launcher settings"): whether each one gains a user anything noticeable.
# Every variant runs the CLI jar that ./tributary runs, REPS times, the variants taking turns so a
# drift in machine speed touches them alike; the script prints each variant's median wall time
# and checks that every variant wrote the same final.npz (the default kernel's bits do not depend
# on the settings).
#
# Variants (VARIANTS="plain vector gc-c2 aot all" by default, run in that order):
#   plain        java -jar, no options: the portable Java kernels
#   vector       --add-modules jdk.incubator.vector: the Vector API kernels, the same bits
#   gc-c2        vector + -XX:+UseSerialGC -XX:InlineSmallCode=500 -XX:FreqInlineSize=150
#   aot          vector + -XX:AOTCache, made once beforehand by a 10-round FedAvg run on
#                Synthetic(1,1) with the same options (JDK 25+; skipped on older JDKs)
#   all          vector + gc-c2 + aot
# The last three are the start-up settings ./tributary used to add for simulate.
#
# Usage: [VARIANTS="..."] tributary-benchmarks/scripts/run-launcher.sh [REPS=5] [-- simulate args...]
#   default arguments: the digits run `tributary simulate` does with none.
#        tributary-benchmarks/scripts/run-launcher.sh table [REPS=5]
#   runs the docs/benchmarks.md table's three rows one after the other (the digits run;
#   fashion-mnist, 3 rounds; the FedProx protocol, 200 rounds), every variant in each, and prints
#   the rows. Each row's output gives the median of each variant, its range, in how many
#   repetitions it beat the anchor (`vector`) of the same repetition, and the load average at the
#   start and end. Expected on an idle machine at REPS=5: `table` about 10 minutes (digits ~2,
#   fashion-mnist ~5, protocol ~3, the AOT caches ~1); one row alone 2-5 minutes.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
if [[ ${1:-} == table ]]; then
  # One load check for the table; each row's run records its own load at start and end.
  : > "$out/launcher-table.txt"
  for row in "" "--dataset fashion-mnist --rounds 3" \
      "--algorithm fedavg --dataset synthetic:1,1 --model mclr --clients 30 --clients-per-round 10 --rounds 200 --local-epochs 20 --batch-size 10 --lr 0.01 --seed 1"; do
    # shellcheck disable=SC2086 # the row's arguments are words
    ALLOW_LOAD=1 bash "$0" "${2:-5}" -- $row | tee -a "$out/launcher-table.txt"
  done
  echo; echo "rows for docs/benchmarks.md:"; grep '^| ' "$out/launcher-table.txt" | tail -3
  exit 0
fi
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
reps=${1:-5}
shift || true
[[ ${1:-} == -- ]] && shift
args=("$@")

jar=$root/tributary-cli/target/tributary.jar
java=$JAVA_HOME/bin/java
"$root/tributary" --version >/dev/null # builds the jar when the sources changed
run_dir=$out/launcher-$(date +%Y%m%d-%H%M%S)
mkdir -p "$run_dir"

vector=(--add-modules jdk.incubator.vector)
gc_c2=(-XX:+UseSerialGC -XX:InlineSmallCode=500 -XX:FreqInlineSize=150)
read -r -a variants <<<"${VARIANTS:-plain vector gc-c2 aot all}"
major=$(tributary_java_major "$java")
if ((major < 25)); then
  mapfile -t variants < <(printf '%s\n' "${variants[@]}" | grep -v -x -e aot -e all)
fi
skip=()
for v in "${variants[@]}"; do
  if [[ $v == aot || $v == all ]]; then
    # The cache must be made with the settings it is used with; one per variant that uses it.
    flags=("${vector[@]}")
    [[ $v == all ]] && flags+=("${gc_c2[@]}")
    "$java" ${flags[@]+"${flags[@]}"} "-XX:AOTCacheOutput=$run_dir/$v.aot" \
      "-XX:ErrorFile=$run_dir/hs_err_$v.log" -jar "$jar" simulate \
      --algorithm fedavg --dataset synthetic:1,1 --model mclr --clients 30 --clients-per-round 10 \
      --rounds 10 --local-epochs 20 --batch-size 10 --lr 0.01 --seed 1 --out "$run_dir/train-$v" \
      >"$run_dir/train-$v.log" 2>&1 || true
    # JDK 25.0.3 sometimes crashes while writing the cache (archiveHeapWriter.cpp); a variant
    # without its cache would silently measure no cache at all, so it is dropped instead.
    if [[ ! -s $run_dir/$v.aot ]]; then
      echo "no AOT cache for $v (log: $run_dir/train-$v.log); variant dropped" >&2
      skip+=("$v")
    fi
  fi
done
if ((${#skip[@]})); then
  mapfile -t variants < <(printf '%s\n' "${variants[@]}" | grep -v -x -F "${skip[@]/#/-e}")
fi

flags_of() {
  case $1 in
    plain) ;;
    vector) printf '%s\n' "${vector[@]}" ;;
    gc-c2) printf '%s\n' "${vector[@]}" "${gc_c2[@]}" ;;
    aot) printf '%s\n' "${vector[@]}" "-XX:AOTCache=$run_dir/aot.aot" -Xlog:aot=off ;;
    all) printf '%s\n' "${vector[@]}" "${gc_c2[@]}" "-XX:AOTCache=$run_dir/all.aot" -Xlog:aot=off ;;
  esac
}

for ((r = 1; r <= reps; r++)); do
  for v in "${variants[@]}"; do
    mapfile -t flags < <(flags_of "$v")
    dir=$run_dir/$v-$r
    t0=$(date +%s.%N)
    "$java" ${flags[@]+"${flags[@]}"} -jar "$jar" simulate ${args[@]+"${args[@]}"} --out "$dir" \
      >"$dir.log" 2>&1
    t1=$(date +%s.%N)
    echo "$v $(echo "$t1 - $t0" | bc)" >>"$run_dir/times.txt"
  done
done

echo "simulate ${args[*]}; $reps runs each; $(nproc) cores; load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
printf '%-8s %10s %10s   %s\n' variant "median s" "vs first" "all runs"
first_median=
for v in "${variants[@]}"; do
  times=$(awk -v v="$v" '$1 == v {printf "%.2f\n", $2}' "$run_dir/times.txt" | sort -g)
  median=$(awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}' \
    <<<"$times")
  [[ -z $first_median ]] && first_median=$median
  printf '%-8s %10.2f %9.0f%%   %s\n' "$v" "$median" \
    "$(echo "100 * $median / $first_median" | bc -l)" "$(echo $times)"
done
# The docs/benchmarks.md row: medians (range), and for each variant in how many repetitions it
# beat the anchor (vector) of the same repetition; times.txt holds the runs in order.
python3 - "$run_dir/times.txt" "$reps" "${args[*]}" "${variants[@]}" <<'PY'
import statistics, sys
path, reps, args, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
runs = [line.split() for line in open(path)]
per = {v: [float(t) for name, t in runs if name == v] for v in variants}
cells = []
for v in ("plain", "vector", "gc-c2", "aot", "all"):
    if v not in per:
        cells.append("")
        continue
    xs = per[v]
    cell = f"{statistics.median(xs):.2f} s ({min(xs):.2f}-{max(xs):.2f})"
    if v not in ("vector", "plain") and "vector" in per:
        wins = sum(x < a for x, a in zip(xs, per["vector"]))
        cell += f", {wins} of {len(xs)} faster"
    cells.append(cell)
label = f"`{args}`" if args else "none: digits, MLP, 30 rounds"
print(f"| {label} ({reps}) | " + " | ".join(cells) + " |")
PY
sums=$(for v in "${variants[@]}"; do sha256sum "$run_dir/$v-1/final.npz" | cut -d' ' -f1; done \
  | sort -u | wc -l)
if ((sums == 1)); then
  echo "final.npz: identical in every variant"
else
  echo "final.npz: DIFFERS between variants" >&2
  exit 1
fi
