#!/usr/bin/env bash
# Rounds per second and peak heap of a synthetic round (broadcast, map, weighted mean) for a
# growing number of clients per round, in a JVM limited to -Xmx2g. Prints the table for
# docs/benchmarks.md.
#
# Usage: tributary-benchmarks/scripts/run-rounds.sh [MODEL_ELEMENTS] [THREADS] [CLIENTS...]
#        (defaults: 100000, all processors, 10 100 1000 10000 100000)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../.ci/find-jdk.sh
source "$root/.ci/find-jdk.sh"
JAVA_HOME=$(tributary_find_jdk) || { tributary_no_jdk_message; exit 1; }
export JAVA_HOME
echo "building benchmarks..." >&2
(cd "$root" && ./mvnw -q -B -DskipTests -pl tributary-benchmarks -am package)
"$JAVA_HOME/bin/java" -Xmx2g -cp "$root/tributary-benchmarks/target/benchmarks.jar" \
  io.tributary.bench.RoundThroughput "$@"
