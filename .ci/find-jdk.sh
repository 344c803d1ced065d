# shellcheck shell=bash
# Finds a JDK new enough for Tributary. Sourced by ./tributary and .ci/run so both pick the same JDK.
#
# tributary_find_jdk prints the home directory of the first JDK >= TRIBUTARY_MIN_JAVA (default 21),
# looking in order at: $JAVA_HOME, `java` on PATH, then the newest JDK under /usr/lib/jvm/*,
# /opt/java/*, /usr/local/*jdk* and ~/.sdkman/candidates/java/*. It returns 1 (printing nothing)
# when there is none. A "JDK" here has both bin/java and bin/javac: the first run builds the project.

# Prints the feature release (17, 21, 25, ...) of the java binary $1, or nothing if it cannot run.
# Reads JAVA_VERSION from the JDK's release file when there is one (every JDK since 9 has it), which
# saves starting a JVM (about 0.2 s) on every ./tributary command; else asks `java -version`. The
# file is read with bash builtins, not dirname and grep: ./tributary runs this on every command,
# and each program started costs a few milliseconds of its start-up.
tributary_java_major() {
  local line="" version="" bin release
  bin=${1%/*}
  release=${bin%/*}/release
  if [[ -f $release ]]; then
    while IFS= read -r line || [[ -n $line ]]; do
      if [[ $line == 'JAVA_VERSION="'* ]]; then
        version=${line#JAVA_VERSION=\"}
        break
      fi
    done <"$release"
  fi
  if [[ -z $version ]]; then
    line=$("$1" -version 2>&1 | grep -m1 'version "') || return 1
    version=${line#*version \"}
  fi
  version=${version%%\"*}
  # Java 8 and older report "1.8.0_x"; since 9 the first number is the feature release.
  if [[ $version == 1.* ]]; then
    version=${version#1.}
  fi
  version=${version%%[!0-9]*}
  [[ -n $version ]] || return 1
  printf '%s\n' "$version"
}

# Prints the major version of the JDK at home $1 if it is a full JDK at least TRIBUTARY_MIN_JAVA.
tributary_jdk_ok() {
  local home=$1 major
  [[ -x $home/bin/java && -x $home/bin/javac ]] || return 1
  major=$(tributary_java_major "$home/bin/java") || return 1
  ((major >= ${TRIBUTARY_MIN_JAVA:-21})) || return 1
  printf '%s\n' "$major"
}

tributary_find_jdk() {
  local candidate major best="" best_major=0 java_on_path
  if [[ -n ${JAVA_HOME:-} ]] && tributary_jdk_ok "$JAVA_HOME" >/dev/null; then
    printf '%s\n' "$JAVA_HOME"
    return 0
  fi
  if java_on_path=$(command -v java 2>/dev/null); then
    # /usr/bin/java is usually a chain of links into the JDK; its home is two levels above bin/java.
    candidate=$(readlink -f "$java_on_path")
    candidate=${candidate%/*}
    candidate=${candidate%/*}
    if tributary_jdk_ok "$candidate" >/dev/null; then
      printf '%s\n' "$candidate"
      return 0
    fi
  fi
  for candidate in /usr/lib/jvm/* /opt/java/* /usr/local/*jdk* "$HOME"/.sdkman/candidates/java/*; do
    [[ -d $candidate ]] || continue
    major=$(tributary_jdk_ok "$candidate") || continue
    if ((major > best_major)); then
      best=$candidate
      best_major=$major
    fi
  done
  [[ -n $best ]] || return 1
  printf '%s\n' "$best"
}

# The message both scripts print when no JDK is found.
tributary_no_jdk_message() {
  local min=${TRIBUTARY_MIN_JAVA:-21}
  printf 'tributary: no JDK %s or newer found (looked at JAVA_HOME=%s, java on PATH, /usr/lib/jvm/*, /opt/java/*, /usr/local/*jdk*, ~/.sdkman/candidates/java/*). Install a JDK %s+ or point JAVA_HOME at one.\n' \
    "$min" "${JAVA_HOME:-<unset>}" "$min"
}
