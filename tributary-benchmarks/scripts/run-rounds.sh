#!/usr/bin/env bash
# Rounds per second and peak heap of a synthetic round (broadcast, map, weighted mean) for a
# growing number of clients per round, in a JVM limited to -Xmx2g. Prints the table for
# docs/benchmarks.md.
#
# Usage: tributary-benchmarks/scripts/run-rounds.sh [MODEL_ELEMENTS] [THREADS] [CLIENTS...]
#        (defaults: 100000, all processors, 10 100 1000 10000 100000)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
build_benchmarks
"$JAVA_HOME/bin/java" -Xmx2g -cp "$root/tributary-benchmarks/target/benchmarks.jar" \
  io.tributary.bench.RoundThroughput "$@"
