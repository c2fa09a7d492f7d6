# shellcheck shell=bash
# Shared by the entry points: find the repository, build what is missing, run a Java main.
# Sourced, not run.

YBBENCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export YBBENCH_HOME

# Builds the jars if they are missing or older than any source or pom. With YBBENCH_SKIP_BUILD
# set (the benchmark scripts set it after their one build) an existing jar is used as it is, so
# that an edit in the middle of a benchmark cannot rebuild it between two measurements.
ybbench_build() {
  local module=$1
  local jar="$YBBENCH_HOME/$module/target/$module.jar"
  if [[ -f "$jar" && -d "$YBBENCH_HOME/$module/target/lib" && -n "${YBBENCH_SKIP_BUILD:-}" ]]; then
    return 0
  fi
  if [[ -f "$jar" && -d "$YBBENCH_HOME/$module/target/lib" ]] &&
    [[ -z "$(find "$YBBENCH_HOME" -path '*/target' -prune -o \( -name '*.java' -o -name 'pom.xml' -o -name '*.gp' \) -newer "$jar" -print -quit)" ]]; then
    return 0
  fi
  if ! command -v mvn >/dev/null 2>&1; then
    echo "error: Maven (mvn) is needed to build ybbench; install it (apt-get install maven)" >&2
    exit 2
  fi
  echo "Building ybbench (mvn package, tests skipped) …" >&2
  local log
  log="$(mktemp)"
  if ! (cd "$YBBENCH_HOME" && mvn -B -q -DskipTests package) >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "error: the build failed; the lines above say why (full log: $log)" >&2
    exit 2
  fi
  rm -f "$log"
}

# Runs a main class of a module with the repository as ybbench.home; replaces this shell so
# Ctrl-C reaches the JVM, which writes what was measured and stops the embedded server.
# usePlainSocketImpl: JDK 17's default socket polls before every blocking read; the classic
# implementation reads directly, which measured ~6% more point reads for the same client CPU
# (run-scripts/bench/ysql-vs-pgbench.sh). Later JDKs ignore the property.
ybbench_java() {
  local module=$1 main=$2
  shift 2
  local rev
  rev="$(git -C "$YBBENCH_HOME" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  if [[ -n "$(git -C "$YBBENCH_HOME" status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
    rev="$rev-dirty"
  fi
  local opts
  read -r -a opts <<<"${YBBENCH_JAVA_OPTS:--Xmx2g -Djdk.net.usePlainSocketImpl=true}"
  exec java "${opts[@]}" \
    -Dybbench.home="$YBBENCH_HOME" -Dybbench.git="$rev" \
    -cp "$YBBENCH_HOME/$module/target/$module.jar:$YBBENCH_HOME/$module/target/lib/*" \
    "$main" "$@"
}
