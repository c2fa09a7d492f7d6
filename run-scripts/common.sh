# shellcheck shell=bash
# Shared by the entry points: find the repository, build what is missing, run a Java main.
# Sourced, not run.

YBBENCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export YBBENCH_HOME

# ybbench_build MODULE: builds the jars if they are missing or older than any source or pom. With
# YBBENCH_SKIP_BUILD set (the benchmark scripts set it after their one build) an existing jar is
# used as it is, so that an edit in the middle of a benchmark cannot rebuild it between two
# measurements; and no class-data archive is recorded (ybbench_cds_record).
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
  # Maven leaves a jar whose module did not change as it was, older than the source edited
  # elsewhere: dated now, every jar says "built after the sources", and the next run builds nothing.
  touch "$YBBENCH_HOME"/*/target/*.jar 2>/dev/null || true
}

# Class-data sharing for a runner's own classes and libraries: later runs map the classes a run
# loads from target/MODULE.jsa instead of loading and verifying each again (docs/performance.md:
# a 2 s run's client CPU 0.85x, the JVM's start 0.65x). The first run of a build that completes
# records them (ybbench_java; harness/cli/ClassArchive), so making the archive starts nothing of
# its own. A stale archive (the jar rebuilt) is not used.
#
# ybbench_cds MODULE: makes the archive now, by a short run on an embedded server; for an image,
# whose containers then start from it (deploy/Dockerfile).
ybbench_cds() {
  local module=$1 main args
  ybbench_archive_fresh "$module" && return 0
  case "$module" in
    ycsb-yugabyte) main=dev.ybbench.harness.benchmark.Runner
      args=(ycsb workloadc --records 1000 --duration 2 --threads 2) ;;
    tpcc) main=dev.ybbench.harness.benchmark.Runner
      args=(tpcc --config "$YBBENCH_HOME/tpcc/config/tiny.xml" --duration 2 --warmup 0) ;;
    *) return 0 ;;
  esac
  local work opts
  work="$(mktemp -d)"
  ybbench_java_opts opts
  ybbench_cds_record opts "$module"
  java "${opts[@]}" -Dybbench.home="$YBBENCH_HOME" \
    -cp "$(ybbench_classpath "$module")" "$main" "${args[@]}" --no-install --results-dir "$work" >/dev/null 2>&1 || true
  rm -rf "$work"
}

# ybbench_cds_record NAME MODULE: appends to the array NAME the JVM options with which a completed
# run records the module's archive. VM output goes to stderr, so the JVM's note on the dump stays
# out of the report.
ybbench_cds_record() {
  local -n into=$1
  into+=(-XX:+RecordDynamicDumpInfo -XX:+DisplayVMOutputToStderr '-Xlog:cds*=off'
    "-Dybbench.classArchive=$YBBENCH_HOME/$2/target/$2.jsa")
}

# ybbench_archive_fresh MODULE: whether the module's class-data archive is there and newer than its jar.
ybbench_archive_fresh() {
  local t="$YBBENCH_HOME/$1/target/$1"
  [[ -f "$t.jsa" && "$t.jsa" -nt "$t.jar" ]]
}

# ybbench_classpath MODULE: the module's jar and its libraries, for java -cp.
ybbench_classpath() {
  echo "$YBBENCH_HOME/$1/target/$1.jar:$YBBENCH_HOME/$1/target/lib/*"
}

# ybbench_charts ARGS…: the charts need gnuplot. When it is missing and this is root with apt, it is
# installed (once: it is there the next time), and the terminal says so; --no-install skips that.
# Otherwise one line says how to get the charts. --help and --dry-run install nothing.
ybbench_charts() {
  command -v gnuplot >/dev/null 2>&1 && return 0
  local a
  for a in "$@"; do
    case "$a" in --no-install|-h|--help|--dry-run) return 0 ;; esac
  done
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing gnuplot for the charts (apt-get install gnuplot-nox; --no-install skips this) …" >&2
    if (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox) >/dev/null 2>&1; then
      return 0
    fi
    echo "warning: installing gnuplot failed; the run goes on without charts" >&2
  else
    echo "note: gnuplot is not installed, so there will be no charts (as root: apt-get install gnuplot-nox)" >&2
  fi
}

# Runs a main class of a module with the repository as ybbench.home; replaces this shell so
# Ctrl-C reaches the JVM, which writes what was measured and stops the embedded server.
# The client JVM's options unless YBBENCH_JAVA_OPTS gives others (the benchmark scripts run their
# references with the same). -Xms32m: the heap starts small and grows only as far as the run's
# allocation needs, where a heap starting at 1/64 of the machine's memory is touched whole: TPC-C
# at 10 warehouses and 64 terminals peaked at 218 MB client RSS instead of 483 MB, point reads at
# 128 MB instead of 331 MB, for the same throughput and CPU. usePlainSocketImpl: JDK 17's default
# socket polls before every blocking read; the classic implementation reads directly, which
# measured ~6% more point reads for the same client CPU (run-scripts/bench/scaling.sh). Later JDKs
# ignore the property. The parallel collector, its heap kept within 10-20 % free: G1's own
# structures took 45 MB of a TPC-C client (Native Memory Tracking) and its heap grew past what
# the run keeps live. Measured, 3 rounds alternated, 64 terminals on 4 warehouses: peak RSS
# 215 MB -> 155 MB (medians) for the same tpmC and CPU, the longest pause 34 ms (G1's 18 ms);
# workloadc at 8 threads: 132 MB -> 107 MB, ops/s and CPU per operation unchanged.
YBBENCH_DEFAULT_JAVA_OPTS="-Xms32m -Xmx2g -XX:+UseParallelGC -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 \
-Djdk.net.usePlainSocketImpl=true"

# ybbench_java_opts NAME: sets the array NAME to the client JVM's options.
ybbench_java_opts() {
  read -r -a "$1" <<<"${YBBENCH_JAVA_OPTS:-$YBBENCH_DEFAULT_JAVA_OPTS}"
}

ybbench_java() {
  local module=$1 main=$2
  shift 2
  local rev=${YBBENCH_GIT:-} # an image has no .git: its build passes the revision in
  if [[ -z $rev ]]; then
    rev="$(git -C "$YBBENCH_HOME" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    if [[ -n "$(git -C "$YBBENCH_HOME" status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
      rev="$rev-dirty"
    fi
  fi
  local opts
  ybbench_java_opts opts
  if ybbench_archive_fresh "$module"; then
    opts+=(-XX:SharedArchiveFile="$YBBENCH_HOME/$module/target/$module.jsa" '-Xlog:cds*=off') # see ybbench_cds
  elif [[ -z "${YBBENCH_SKIP_BUILD:-}" && -w "$YBBENCH_HOME/$module/target" ]]; then
    ybbench_cds_record opts "$module"
  fi
  exec java "${opts[@]}" -Dybbench.home="$YBBENCH_HOME" -Dybbench.git="$rev" \
    -cp "$(ybbench_classpath "$module")" "$main" "$@"
}
