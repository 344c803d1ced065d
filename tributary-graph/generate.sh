#!/usr/bin/env bash
# Regenerates the FlatBuffers Java classes in io.tributary.graph.internal.fb from src/main/fbs/graph.fbs.
# The generated code is committed so that the Maven build needs no flatc. The flatc version must equal
# the flatbuffers-java version in the root pom (${flatbuffers.version}); on Debian:
#   apt-get install flatbuffers-compiler   (2.0.8 on bookworm)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
want=2.0.8
have=$(flatc --version | awk '{print $3}')
if [[ $have != "$want" ]]; then
  echo "generate.sh: flatc $have found, need $want (to match flatbuffers-java $want)" >&2
  exit 1
fi
out=$here/src/main/java
rm -f "$out"/io/tributary/graph/internal/fb/Fb*.java
flatc --java -o "$out" "$here/src/main/fbs/graph.fbs"
echo "generated: $(ls "$out"/io/tributary/graph/internal/fb/Fb*.java | wc -l) classes"
