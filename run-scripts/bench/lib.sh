# shellcheck shell=bash
# Shared by the benchmark scripts: one embedded server for a whole benchmark, YCSB runs against
# it, and medians. Sourced, not run; expects run-scripts/common.sh to be sourced first.

# bench_serve MAIN ARGS…: starts dev.ybbench.harness.embedded.MAIN (ServePostgres or
# ServeCassandra) in the background and sets $hostport and $server_version once it is ready.
# The server stops when this shell exits (its standard input closes).
bench_serve() {
  local main=$1
  shift
  # Built once by the calling script; every run of this benchmark uses that build.
  export YBBENCH_SKIP_BUILD=1
  bench_work=$(mktemp -d)
  mkfifo "$bench_work/stdin"
  java -cp "$YBBENCH_HOME/ycsb-yugabyte/target/lib/*" "dev.ybbench.harness.embedded.$main" "$@" \
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
    java -Xmx2g -Dybbench.home="$YBBENCH_HOME" -cp "$BENCH_CLASSPATH" dev.ybbench.ycsb.RunYcsb "$@" \
      --hosts "$hostport" --results-dir "$bench_work/results" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
  else
    "$YBBENCH_HOME/run_ycsb.sh" "$@" --hosts "$hostport" --results-dir "$bench_work/results" >"$log" 2>&1 ||
      { cat "$log" >&2; exit 1; }
  fi
  sed -n 's/^Results: //p' "$log"
}

# phase_throughput RUN_DIR PHASE: the phase's throughput_ops from its summary.json.
phase_throughput() {
  awk -v phase="\"$2\"" '$1 == phase { inphase = 1 } inphase && /"throughput_ops"/ { gsub(/[ ,]/, "", $3); print $3; exit }' \
    "$1/summary.json"
}

# median: of the numbers on standard input, one per line.
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
