#!/usr/bin/env bash
# The model file's large-model and speed figures for docs/benchmarks.md (issue 6): save/load of
# 1 GB in 100 float32 parameters against raw writes/reads of the same bytes in the same run, a
# parameter over 2 GiB, and reading one parameter of a 10 GB file (time and bytes read).
#
# Usage: [REPS=5] tributary-benchmarks/scripts/run-format.sh [speed|load|large|sparse|all] [DIR] [MB]
#   speed: the 1 GB save and load figures (about 3 minutes); load: only load vs raw read (about a
#   minute); DIR (default tributary-benchmarks/target/format-bench) needs about 14 GB free for
#   "all" and 3 GB for speed or load; every file written there is deleted afterwards. MB (default
#   1000): the size of speed and load (a smaller one for a quick check of the method).
# Each timed side starts settled: after `sync`, once /proc/meminfo's Dirty + Writeback is at most
# SETTLE_MB (default 32), or after SETTLE_TIMEOUT_S (default 30; the timeouts are counted in the
# output). Without it the side that runs second pays for the first's gigabyte of writeback (and,
# on a disk mounted with `discard`, its trim), and the per-run ratios follow the order of the
# sides; the output gives the median ratio per order, so an order effect shows. SETTLE=0 times
# without settling, to compare.
# speed and load alternate each side with its anchor 7 times in one JVM and print medians; large
# and sparse run REPS times (reps.sh: a fresh JVM and fresh files each) and print the medians,
# ranges and docs/benchmarks.md rows. Expected on an idle machine: speed about 3 minutes; large at
# REPS=5 about 2 minutes, sparse at REPS=5 about 4 minutes (10 GB written per repetition).
# Preconditions: the 1-minute load average at most MAX_LOAD (default 1.0; ALLOW_LOAD=1 runs
# anyway and marks the figures as taken under load), and the free disk space.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
mode=${1:-all}
dir=${2:-$root/tributary-benchmarks/target/format-bench}
megabytes=${3:-1000}
failed=()
# shellcheck source=load-check.sh
source "$here/load-check.sh"
check_load
if ((${#failed[@]})); then
  printf 'precondition failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
idle_checked=1
# shellcheck source=reps.sh
source "$here/reps.sh"
case "$mode" in
  large)
    rows=("| a 2.50 GiB float32 parameter (zip64) | saved {save_s:.1f} s ({save_s~:.1f}), mapped {map_s:.3f} s, loaded and checked {load_s:.1f} s ({load_s~:.1f}) | |")
    repeat_self "$0" "$@" ;;
  sparse)
    rows=("| a 10 GB file: open it and read one 4 MB parameter | {small_s:.3f} s ({small_s~:.3f}); {small_rchar:,.0f} bytes read, {small_mapped:,.0f} bytes of the file mapped in | |"
      "| the same file: read one 1 GB parameter | {big_s:.3f} s ({big_s~:.3f}); {big_rchar:,.0f} bytes read, {big_mapped:,.0f} mapped in | |")
    repeat_self "$0" "$@" ;;
esac

mkdir -p "$dir"
need_gb=3
case "$mode" in large) need_gb=4 ;; sparse|all) need_gb=14 ;; esac
free_gb=$(df -P -B1G "$dir" | awk 'NR==2 {print $4}')
echo "free space in $dir: ${free_gb} GB (need about ${need_gb} GB)" >&2
if (( free_gb < need_gb )); then
  echo "run-format.sh: not enough disk space in $dir" >&2
  exit 1
fi

build_benchmarks
trap 'rm -f "$dir"/*.zip "$dir"/*.bin "$dir"/.*.tmp' EXIT
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1e6}' /proc/meminfo) memory, $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
# A fixed, pre-touched heap: otherwise each side pays, at random, for the VM faulting in fresh memory.
"$JAVA_HOME/bin/java" -Xms10g -Xmx10g -XX:+AlwaysPreTouch -cp "$root/tributary-benchmarks/target/benchmarks.jar" \
  -Dtributary.bench.settle="$([[ ${SETTLE:-1} == 0 ]] && echo false || echo true)" \
  -Dtributary.bench.settleMb="${SETTLE_MB:-32}" -Dtributary.bench.settleTimeoutS="${SETTLE_TIMEOUT_S:-30}" \
  io.tributary.bench.ModelFormatBench "$mode" "$dir" "$megabytes" | tee "$out/format-$mode.txt"
if [[ -n ${REP:-} ]]; then
  # the figures of large and sparse, from the lines ModelFormatBench prints
  txt="$out/format-$mode.txt"
  num() { grep -oP "$1" "$txt" | head -1; }
  if [[ $mode == large ]]; then
    figure save_s "$(num '  save \K[0-9.]+')"
    figure map_s "$(num 'map \K[0-9.]+')"
    figure load_s "$(num 'load \(CRC-32 checked\) \K[0-9.]+')"
  else
    for pair in small:head/w big:block7/w; do
      line=$(grep -F "'${pair#*:}'" "$txt")
      figure "${pair%%:*}_s" "$(grep -oP ': \K[0-9.]+(?= s;)' <<<"$line")"
      figure "${pair%%:*}_rchar" "$(grep -oP 'rchar\) \K[0-9]+' <<<"$line")"
      figure "${pair%%:*}_mapped" "$(grep -oP 'smaps Rss\) \K[0-9]+' <<<"$line")"
    done
  fi
fi
echo "load average at the start: $load1 $load5 $load15${under_load:+ ($under_load)}"
