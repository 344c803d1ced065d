#!/usr/bin/env bash
# Starts or stops a Spark standalone cluster on 127.0.0.1 for `tributary simulate --engine`:
#   tributary-spark/scripts/spark-cluster.sh start [--workers N] [--cores C] [--memory M] [--dir DIR]
#   tributary-spark/scripts/spark-cluster.sh stop [--dir DIR]
# `start` prints the master URL (spark://127.0.0.1:PORT) and returns; the master and the workers
# keep running, logging into DIR (default tributary-spark/target/spark-cluster), until `stop`.
# The JVMs run over tributary-spark's class path (target/classpath.txt), built here when missing.
# Same as `./tributary spark-cluster start|stop ...`. See docs/spark.md.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
# shellcheck source=../../.ci/find-jdk.sh
source "$root/.ci/find-jdk.sh"
if ! jdk=$(tributary_find_jdk); then
  tributary_no_jdk_message >&2
  exit 1
fi
export JAVA_HOME=$jdk
module=$root/tributary-spark
if [[ ! -f $module/target/classpath.txt || ! -d $module/target/classes/io ]]; then
  echo "building tributary-spark (first run; Spark's jars come from Maven Central)..." >&2
  log=$module/target/spark-build.log
  mkdir -p "$module/target"
  if ! (cd "$root" && ./mvnw -q -B -ntp -DskipTests -Dmaven.source.skip=true \
      -Dmaven.javadoc.skip=true -pl tributary-spark -am package) >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "spark-cluster: the build failed (full log: $log)" >&2
    exit 1
  fi
fi
args=("$@")
if [[ " $* " != *" --dir "* ]]; then
  args+=(--dir "$module/target/spark-cluster")
fi
cp="$(<"$module/target/classpath.txt"):$module/target/classes:$module/target/cluster-lib/*"
exec "$JAVA_HOME/bin/java" -Xmx256m -cp "$cp" io.tributary.spark.SparkClusterMain "${args[@]}"
