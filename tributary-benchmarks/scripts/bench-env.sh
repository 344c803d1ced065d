# shellcheck shell=bash
# Sourced by the run-*.sh scripts: the setup they all share. Sets `root` (the repository), picks a
# JDK 21+ into JAVA_HOME as ./tributary does, makes `out` (where results go), and defines
# build_benchmarks, which builds tributary-benchmarks/target/benchmarks.jar and what it needs.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../.ci/find-jdk.sh
source "$root/.ci/find-jdk.sh"
JAVA_HOME=$(tributary_find_jdk) || { tributary_no_jdk_message; exit 1; }
export JAVA_HOME
# ./tributary runs plain java -jar; the figures in docs/benchmarks.md since 2026-11-25 are on the
# Vector API kernels, so the scripts that run it ask for the module (same bits, faster) unless
# TRIBUTARY_JAVA_OPTS is already set.
if (($(tributary_java_major "$JAVA_HOME/bin/java" || echo 0) >= 22)); then
  export TRIBUTARY_JAVA_OPTS=${TRIBUTARY_JAVA_OPTS-"--add-modules jdk.incubator.vector"}
fi
out="$root/tributary-benchmarks/target/results"
mkdir -p "$out"

build_benchmarks() {
  # SKIP_BUILD=1 runs the jar already built (after a build of one's own, e.g. an offline one).
  if [[ ${SKIP_BUILD:-0} == 1 && -f $root/tributary-benchmarks/target/benchmarks.jar ]]; then
    echo "SKIP_BUILD=1: using the benchmarks.jar already built" >&2
    return
  fi
  echo "building benchmarks..." >&2
  (cd "$root" && ./mvnw -q -B -DskipTests -pl tributary-benchmarks -am package)
}
