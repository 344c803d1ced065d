#!/usr/bin/env bash
# The model file's large-model and speed figures for docs/benchmarks.md (issue 6): save/load of
# 1 GB in 100 float32 parameters against raw writes/reads of the same bytes in the same run, a
# parameter over 2 GiB, and reading one parameter of a 10 GB file (time and bytes read).
#
# Usage: tributary-benchmarks/scripts/run-format.sh [speed|load|large|sparse|all] [DIR]
#   speed: the 1 GB save and load figures (about 3 minutes); load: only load vs raw read (about a
#   minute); DIR (default tributary-benchmarks/target/format-bench) needs about 14 GB free for
#   "all" and 3 GB for speed or load; every file written there is deleted afterwards.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
mode=${1:-all}
dir=${2:-$root/tributary-benchmarks/target/format-bench}

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
  io.tributary.bench.ModelFormatBench "$mode" "$dir"
