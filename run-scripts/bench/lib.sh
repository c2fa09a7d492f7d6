# shellcheck shell=bash
# Shared by the benchmark scripts: one embedded server for a whole benchmark, YCSB runs against
# it, and medians. Sourced, not run; expects run-scripts/common.sh to be sourced first.

# bench_without_probe: ybbench's runs without the machine probe each ends with (a second of every
# core, a second of loopback round trips), which is no part of the client's whole-process CPU that
# a script measuring it beside a reference's compares.
bench_without_probe() {
  export YBBENCH_JAVA_OPTS="${YBBENCH_JAVA_OPTS:-$YBBENCH_DEFAULT_JAVA_OPTS} -Dybbench.probe.ms=0"
}

# bench_serve MAIN ARGS…: starts dev.ybbench.harness.embedded.MAIN (ServePostgres or
# ServeCassandra) in the background and sets $hostport and $server_version once it is ready.
# The server stops when this shell exits (its standard input closes).
bench_serve() {
  local main=$1
  shift
  bench_need jq jq "to read the results"
  bench_need ss iproute2 "to find the server's processes and their CPU"
  # Built once by the calling script; every run of this benchmark uses that build.
  export YBBENCH_SKIP_BUILD=1
  bench_work=$(mktemp -d)
  mkfifo "$bench_work/stdin"
  java -cp "$(ybbench_classpath)" "dev.ybbench.harness.embedded.$main" "$@" \
    <"$bench_work/stdin" >"$bench_work/server.out" 2>"$bench_work/server.err" &
  bench_server_pid=$!
  exec 3>"$bench_work/stdin"
  trap bench_cleanup EXIT
  for _ in $(seq 1 600); do
    grep -q '^ready' "$bench_work/server.out" 2>/dev/null && break
    kill -0 "$bench_server_pid" 2>/dev/null || { cat "$bench_work/server.err" >&2; exit 1; }
    sleep 0.5
  done
  # shellcheck disable=SC2034 # read by the sourcing script
  read -r _ hostport server_version <"$bench_work/server.out"
}

bench_cleanup() {
  exec 3>&- || true
  wait "$bench_server_pid" 2>/dev/null || true
  rm -rf "$bench_work"
}

# bench_ycsb ARGS…: one run_ycsb.sh run against the benchmark's server; prints its run directory.
# With BENCH_CLASSPATH set, the runner runs on that classpath instead (e.g. another driver).
bench_ycsb() {
  local log="$bench_work/ycsb.log"
  if [[ -n "${BENCH_CLASSPATH:-}" ]]; then
    local opts
    ybbench_java_opts opts
    java "${opts[@]}" -Dybbench.home="$YBBENCH_HOME" -cp "$BENCH_CLASSPATH" dev.ybbench.harness.benchmark.Runner ycsb "$@" \
      --hosts "$hostport" --results-dir "$bench_work/results" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
  else
    "$YBBENCH_HOME/run_ycsb.sh" "$@" --hosts "$hostport" --results-dir "$bench_work/results" >"$log" 2>&1 ||
      { cat "$log" >&2; exit 1; }
  fi
  bench_last_run "$bench_work/results"
}

# bench_last_run DIR: the run directory under DIR that started last, by its run.json (results/README.md):
# the scripts find their runs from the results, never from what a run printed.
bench_last_run() {
  local d last
  last=$(for d in "$1"/*/; do
    [[ -f $d/run.json ]] && echo "$(jq -r '.started' "$d/run.json") ${d%/}"
  done | sort | tail -n 1)
  [[ -n $last ]] || { echo "error: no run directory in $1" >&2; exit 1; }
  echo "${last#* }"
}

# result RUN_DIR FILE JQ_FILTER: one value of a run's run.json or summary.json (results/README.md
# documents their fields). A run that did not complete stops the benchmark: its figures stand for nothing.
result() {
  local state
  state=$(jq -r '.state' "$1/summary.json")
  if [[ $state != complete ]]; then
    echo "error: $1 is $state: $(jq -r '.reason // "interrupted"' "$1/summary.json")" >&2
    exit 1
  fi
  jq -r "$3" "$1/$2"
}

# phase_throughput RUN_DIR PHASE: the phase's throughput (successes per second) from its summary.json.
phase_throughput() {
  result "$1" summary.json ".phases.$2.throughput_ops"
}

# bench_need COMMAND PACKAGE WHAT_FOR: a tool the scripts need; as root its Debian package is
# installed if it is missing, otherwise one line says how to get it.
bench_need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    echo "error: $1 is needed $3 (apt-get install $2)" >&2
    exit 2
  fi
}

# bench_cpu COMMAND…: runs it with its output in $bench_work/out and sets $bench_cpu_s to the CPU
# seconds (user + system) it and the children it waited for used, by the shell's own `time`, and
# $bench_server_s to what the benchmark's server used meanwhile (bench_server_ticks).
bench_cpu() {
  local TIMEFORMAT='%U %S' before
  before=$(bench_server_ticks)
  { time "$@" >"$bench_work/out" 2>&1; } 2>"$bench_work/time" || { cat "$bench_work/out" >&2; exit 1; }
  bench_cpu_s=$(awk '{ print $1 + $2 }' "$bench_work/time")
  bench_server_s=$(awk -v a="$before" -v b="$(bench_server_ticks)" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { print (b - a) / hz }')
}

# bench_server_ticks: the CPU ticks (user + system) the benchmark's server has used so far: the
# process listening on its port (PostgreSQL's postmaster, which runs apart from the JVM that
# started it; Cassandra's JVM) and every process under it (the backends), each with the children
# it has reaped, so that a backend that has ended still counts.
bench_server_ticks() {
  local root pid stat f total=0
  root=$(ss -ltnpH "sport = :${hostport##*:}" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1)
  [[ -n $root ]] || { echo 0; return; }
  for pid in $(ps -e -o pid=,ppid= | awk -v root="$root" '{ up[$1] = $2 }
    END { for (p in up) { q = p; while (q != root && q in up && q != up[q]) q = up[q]; if (q == root) print p } }'); do
    read -r stat <"/proc/$pid/stat" 2>/dev/null || continue
    read -r -a f <<<"${stat##*) }" # from the third field: utime, stime, cutime, cstime are the 14th to 17th
    total=$((total + f[11] + f[12] + f[13] + f[14]))
  done
  echo "$total"
}

# bench_per_op CPU_S OPERATIONS: µs of CPU per operation.
bench_per_op() {
  awk -v c="$1" -v n="$2" 'BEGIN { printf "%.1f", 1e6 * c / n }'
}

# bench_largest FLAG COUNTS: the largest of COUNTS (whole numbers above 0, FLAG's value); exits 2
# naming FLAG on anything else.
bench_largest() {
  local n max=0
  for n in $2; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "error: $1 takes whole numbers above 0, was '$n'" >&2; exit 2; }
    (( n > max )) && max=$n
  done
  echo "$max"
}

# bench_pgbench_reads CLIENTS SECONDS: pgbench -S -M prepared against the benchmark's server, its
# threads at most the cores (more only contend); prints "TPS µs_OF_CPU_PER_TRANSACTION", the
# transactions from its own report, the CPU of its whole process (bench_cpu).
bench_pgbench_reads() {
  local n=$1 cores
  cores=$(nproc)
  bench_cpu env PGUSER=postgres pgbench -S -M prepared -n -c "$n" -j "$(( n < cores ? n : cores ))" -T "$2" \
    -h "${hostport%:*}" -p "${hostport##*:}" postgres
  echo "$(awk '/^tps/ { print $3; exit }' "$bench_work/out")" \
    "$(bench_per_op "$bench_cpu_s" "$(awk '/actually processed/ { print $NF }' "$bench_work/out")")"
}

# bench_maven_classpath DIR GROUP:ARTIFACT:VERSION[:CLASSIFIER]…: the classpath of those artifacts
# from Maven Central and their dependencies, resolved through a throwaway pom in DIR.
bench_maven_classpath() {
  local dir=$1 deps="" coord g a v c
  shift
  mkdir -p "$dir"
  for coord in "$@"; do
    IFS=: read -r g a v c <<<"$coord"
    deps+="<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version>"
    deps+="${c:+<classifier>$c</classifier>}</dependency>"
  done
  cat >"$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.ybbench.bench</groupId><artifactId>$(basename "$dir")</artifactId><version>1</version>
  <dependencies>$deps</dependencies>
</project>
POM
  (cd "$dir" && mvn -B -q dependency:build-classpath -Dmdep.outputFile=cp.txt >mvn.log 2>&1) ||
    { cat "$dir/mvn.log" >&2; exit 1; }
  cat "$dir/cp.txt"
}

# bench_upstream_figures: the summary upstream YCSB's Client printed into $bench_work/out, as
# "OPS_PER_S OPERATIONS FAILED". Upstream counts failed operations in its throughput, so the
# scripts report them beside it.
bench_upstream_figures() {
  awk -F', ' '/^\[OVERALL\], RunTime/ { t = $3 } /^\[OVERALL\], Throughput/ { r = $3 }
    /^\[[A-Z]+-FAILED\], Operations/ { f += $3 }
    END { if (r == "") exit 1; printf "%s %d %d\n", r, int(r * t / 1000 + 0.5), f }' "$bench_work/out" ||
    { cat "$bench_work/out" >&2; echo "error: upstream YCSB printed no throughput" >&2; exit 1; }
}

# bench_upstream WARMUP JAVA_ARGS…: upstream YCSB's Client (java JAVA_ARGS…, which include -s), timed
# by bench_cpu, with its status printed every second. Sets $up_ops_s, $up_ops and $up_failed from
# its summary (the whole run), and $steady_ops_s and $steady_us for its steady state (bench_steady).
bench_upstream() {
  local warmup=$1
  shift
  bench_steady "$warmup" java "$@" -p status.interval=1
  local figures
  figures=$(bench_upstream_figures)
  read -r up_ops_s up_ops up_failed <<<"$figures"
}

# bench_binding PHASE RUN_YCSB_ARGS…: one run_ycsb.sh run of PHASE against the benchmark's server,
# timed by bench_cpu; prints "OPS_PER_S STEADY_US WHOLE_US SERVER_US" from its results: the
# phase's throughput (successes per second) and its CPU per operation in its measured window
# (from the end of the warm-up, the JVM's start excluded; summary.json's client side), of the
# whole process, and the server's CPU meanwhile, the last two per success (the warm-up's too).
bench_binding() {
  local phase=$1 run steady ops
  shift
  bench_cpu "$YBBENCH_HOME/run_ycsb.sh" "$@" --phase "$phase" --hosts "$hostport" --results-dir "$bench_work/results"
  run=$(bench_last_run "$bench_work/results")
  steady=$(result "$run" summary.json ".phases.$phase.client.cpu_us_per_op")
  ops=$(result "$run" summary.json "[.phases[].successes] | add")
  echo "$(phase_throughput "$run" "$phase") $steady $(bench_per_op "$bench_cpu_s" "$ops") $(bench_per_op "$bench_server_s" "$ops")"
}

# bench_steady WARMUP COMMAND…: runs upstream YCSB's Client, with its status every second, through
# bench_cpu, and reads its steady state: from its status line at WARMUP seconds to its last one
# before its threads ended, the process's CPU read from /proc the moment each line appears.
# Upstream writes no results but its console; ybbench's side reads its own window from
# summary.json (bench_binding). Sets $steady_ops_s (operations per second in that window) and
# $steady_us (µs of CPU per operation).
bench_steady() {
  local warmup=$1 pidfile="$bench_work/pid" samples="$bench_work/status-cpu"
  shift
  rm -f "$pidfile"
  : >"$bench_work/out"
  bench_status_cpu "$pidfile" "$bench_work/out" >"$samples" &
  local watcher=$!
  # shellcheck disable=SC2016 # $$ and $0 are the inner shell's, which becomes the client's JVM
  bench_cpu sh -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@"
  wait "$watcher" || true
  local figures
  figures=$(awk -v w="$warmup" -v hz="$(getconf CLK_TCK)" '
    { s[NR] = $1; o[NR] = $2; c[NR] = $3 }
    END {
      for (i = 1; i < NR - 1 && s[i] < w; i++) {}
      j = NR - 1 # upstream prints its last line after its threads ended
      if (j <= i || s[j] <= s[i] || o[j] <= o[i]) exit 1
      printf "%.1f %.2f\n", (o[j] - o[i]) / (s[j] - s[i]), 1e6 * (c[j] - c[i]) / hz / (o[j] - o[i])
    }' "$samples") || { echo "error: $1 printed too few status lines for a window after ${warmup} s" >&2; exit 1; }
  read -r steady_ops_s steady_us <<<"$figures"
}

# bench_status_cpu PIDFILE LOG: follows upstream YCSB's status lines in LOG ("… 12 sec: 34567
# operations; …") while the process in PIDFILE lives, printing "SECONDS OPERATIONS CPU_TICKS" for
# each, its user + system CPU from /proc.
bench_status_cpu() {
  local pid line stat f s o
  for _ in $(seq 1 600); do [[ -s $1 ]] && break; sleep 0.05; done
  pid=$(<"$1")
  tail -n +1 -F --pid="$pid" "$2" 2>/dev/null | while IFS= read -r line; do
    [[ $line =~ \ ([0-9]+)\ sec:\ ([0-9]+)\ operations ]] || continue
    s=${BASH_REMATCH[1]} o=${BASH_REMATCH[2]}
    read -r stat <"/proc/$pid/stat" 2>/dev/null || break
    read -r -a f <<<"${stat##*) }" # fields from the third (state): utime is the 14th, stime the 15th
    echo "$s $o $((f[11] + f[12]))"
  done
}

# bench_alone_vs_wrapped ROUNDS TOOL SCRIPT: a tool alone (the caller's function alone) against the
# same through ybbench's script (its function wrapped), each printing transactions per second, for
# ROUNDS rounds with the sides' order alternating; a line a round, then the medians and their ratio.
bench_alone_vs_wrapped() {
  local rounds=$1 tool=$2 script=$3 round a b
  : >"$bench_work/a"
  : >"$bench_work/b"
  for round in $(seq 1 "$rounds"); do
    if ((round % 2)); then
      a=$(alone); b=$(wrapped)
    else
      b=$(wrapped); a=$(alone)
    fi
    echo "$a" >>"$bench_work/a"
    echo "$b" >>"$bench_work/b"
    echo "round $round: $tool alone $a tps, $script $b tps"
  done
  awk -v a="$(median <"$bench_work/a")" -v b="$(median <"$bench_work/b")" -v t="$tool" -v s="$script" \
    'BEGIN { printf "medians: %s alone %.1f tps, %s %.1f tps, ratio %.3f\n", t, a, s, b, b / a }'
}

# median: of the numbers on standard input, one per line.
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
