#!/usr/bin/env bash
# Starts or stops a Spark standalone cluster on 127.0.0.1 for `tributary simulate --engine`:
#   tributary-spark/scripts/spark-cluster.sh start [--workers N] [--cores C] [--memory M] [--dir DIR]
#   tributary-spark/scripts/spark-cluster.sh stop [--dir DIR]
# The same as `./tributary spark-cluster start|stop ...`, which it runs. `start` prints the master
# URL (spark://127.0.0.1:PORT) and returns; the master and the workers keep running, logging into
# DIR (default tributary-spark/target/spark-cluster), until `stop`. See docs/spark.md.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
exec "$root/tributary" spark-cluster "$@"
