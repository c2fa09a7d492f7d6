# shellcheck shell=bash
# Shared by the entry points: find the repository, build what is missing, run a Java main.
# Sourced, not run.

YBBENCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export YBBENCH_HOME

# ybbench_build: builds every module if the build is missing or older than any source or pom: each
# module's jar and its libraries go to target/lib, the one class path of every entry point. With
# YBBENCH_SKIP_BUILD set (the benchmark scripts set it after their one build) an existing build is
# used as it is, so that an edit in the middle of a benchmark cannot rebuild it between two
# measurements; and no class-data archive is recorded (ybbench_cds_record).
ybbench_build() {
  local stamp="$YBBENCH_HOME/target/lib/.built"
  if [[ -f "$stamp" && -n "${YBBENCH_SKIP_BUILD:-}" ]]; then
    return 0
  fi
  if [[ -f "$stamp" ]] &&
    [[ -z "$(find "$YBBENCH_HOME" -path '*/target' -prune -o \( -name '*.java' -o -name 'pom.xml' -o -name '*.gp' \
      -o -name '*.properties' -o -path '*/META-INF/services/*' \) -newer "$stamp" -print -quit)" ]]; then
    return 0
  fi
  if ! command -v mvn >/dev/null 2>&1; then
    echo "error: Maven (mvn) is needed to build ybbench; install it (apt-get install maven)" >&2
    exit 2
  fi
  echo "Building ybbench (mvn package, tests skipped) …" >&2
  local log
  log="$(mktemp)"
  # A library of an earlier build (another version) must not stay beside this one's.
  rm -rf "$YBBENCH_HOME/target/lib"
  if ! (cd "$YBBENCH_HOME" && mvn -B -q -DskipTests package) >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "error: the build failed; the lines above say why (full log: $log)" >&2
    exit 2
  fi
  rm -f "$log"
  touch "$stamp"
}

# Class-data sharing for the runners' classes and libraries: later runs map the classes a run
# loads from target/cds/NAME.jsa instead of loading and verifying each again (docs/performance.md:
# a 2 s run's client CPU 0.85x, the JVM's start 0.65x). The first run of a build that completes
# records them (ybbench_java; harness/cli/ClassArchive), so making the archive starts nothing of
# its own. A stale archive (made before the build) is not used.
#
# ybbench_cds: makes every registered benchmark's archive now, each by the short run on an embedded
# server that the benchmark names (Runner --archive-run NAME); for an image, whose containers then
# start from them (deploy/Dockerfile).
ybbench_cds() {
  local name work opts args
  for name in $(java -cp "$(ybbench_classpath)" dev.ybbench.harness.benchmark.Runner --list); do
    ybbench_archive_fresh "$name" && continue
    mapfile -t args < <(java -Dybbench.home="$YBBENCH_HOME" -cp "$(ybbench_classpath)" \
      dev.ybbench.harness.benchmark.Runner --archive-run "$name")
    [[ ${#args[@]} -gt 0 ]] || continue
    work="$(mktemp -d)"
    ybbench_java_opts opts
    ybbench_cds_record opts "$name"
    java "${opts[@]}" -Dybbench.home="$YBBENCH_HOME" -cp "$(ybbench_classpath)" \
      dev.ybbench.harness.benchmark.Runner "$name" "${args[@]}" --no-install --results-dir "$work" >/dev/null 2>&1 || true
    rm -rf "$work"
  done
}

# ybbench_cds_record NAME ARCHIVE: appends to the array NAME the JVM options with which a completed
# run records the archive ARCHIVE. VM output goes to stderr, so the JVM's note on the dump stays
# out of the report.
ybbench_cds_record() {
  local -n into=$1
  mkdir -p "$YBBENCH_HOME/target/cds"
  into+=(-XX:+RecordDynamicDumpInfo -XX:+DisplayVMOutputToStderr '-Xlog:cds*=off'
    "-Dybbench.classArchive=$YBBENCH_HOME/target/cds/$2.jsa")
}

# ybbench_archive_fresh ARCHIVE: whether the class-data archive is there and newer than the build.
ybbench_archive_fresh() {
  local a="$YBBENCH_HOME/target/cds/$1.jsa"
  [[ -f "$a" && "$a" -nt "$YBBENCH_HOME/target/lib/.built" ]]
}

# ybbench_classpath: every module's jar and its libraries, for java -cp.
ybbench_classpath() {
  echo "$YBBENCH_HOME/target/lib/*"
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

# ybbench_java (below) runs a main class with the repository as ybbench.home; it replaces this shell so
# Ctrl-C reaches the JVM, which writes what was measured and stops the embedded server.
# The client JVM's options unless YBBENCH_JAVA_OPTS gives others (the benchmark scripts run their
# references with the same). A small heap at the start: it grows only as far as the run's
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
# -Xms96m -Xmn64m: a young generation of 64 MB whatever the free ratios say. Kept within them, it
# stayed at 10 MB, so YCSB's garbage (a result map, strings, the driver's rows) was collected 17
# to 52 times a second, each collection a stop of every thread: on one machine, 8 threads, 3 runs
# alternated by hand, client CPU per operation 61 -> 51 us on workloade, 18.1 -> 17.2 on
# workloada, 6.8 -> 6.2 on workloadc, for 45-80 MB more peak RSS (docs/performance.md, "Client
# memory").
#
# Four JIT compiler threads (three of them C2), where a 2-core machine's default is two: on a
# machine the client shares with its server, one C2 thread is one runnable thread among the
# client's and the server's (1/17 of the cores beside 8 client threads and their 8 backends), so
# the hot path waited 17-22 s in C1's profiling code for its C2 compiles and C2 was still busy in
# the measured window; with three C2 threads it was compiled 4-8 s after the start
# (-XX:+PrintCompilation; docs/performance.md, "Where a point read's time goes"). Larger machines
# start more by default, but a client's hot path needs no more than these.
# --add-opens java.base/java.lang: --driver vertx runs its client threads as virtual threads that
# its event loops schedule, through java.lang's own builder of such threads (Java has no public API
# for a virtual thread's scheduler); every Java from 17 takes the option.
YBBENCH_DEFAULT_JAVA_OPTS="-Xms96m -Xmn64m -Xmx2g -XX:+UseParallelGC -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 \
-Djdk.net.usePlainSocketImpl=true -XX:CICompilerCount=4 --add-opens java.base/java.lang=ALL-UNNAMED"

# ybbench_java_opts NAME: sets the array NAME to the client JVM's options.
ybbench_java_opts() {
  read -r -a "$1" <<<"${YBBENCH_JAVA_OPTS:-$YBBENCH_DEFAULT_JAVA_OPTS}"
}

# ybbench_java ARCHIVE MAIN ARGS…: runs MAIN with the repository as ybbench.home, mapping (or
# recording) the class-data archive ARCHIVE (a benchmark's name; compare.sh's is "analysis");
# YBBENCH_SCRIPT names the command in its usage (./ybbench's "ybbench ycsb").
ybbench_java() {
  local archive=$1 main=$2
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
  if ybbench_archive_fresh "$archive"; then
    opts+=(-XX:SharedArchiveFile="$YBBENCH_HOME/target/cds/$archive.jsa" '-Xlog:cds*=off') # see ybbench_cds
  elif [[ -z "${YBBENCH_SKIP_BUILD:-}" && -w "$YBBENCH_HOME/target" ]]; then
    ybbench_cds_record opts "$archive"
  fi
  if [[ -n "${YBBENCH_SCRIPT:-}" ]]; then
    opts+=("-Dybbench.script=$YBBENCH_SCRIPT")
  fi
  exec java "${opts[@]}" -Dybbench.home="$YBBENCH_HOME" -Dybbench.git="$rev" \
    -cp "$(ybbench_classpath)" "$main" "$@"
}
