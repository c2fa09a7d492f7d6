#!/usr/bin/env bash
# Measures the YSQL binding against upstream YCSB's own JDBC binding (0.17.0, the last release;
# its unreleased HEAD fails workload E over JDBC), on one embedded PostgreSQL in one run, and
# prints ratios (absolute numbers on a shared machine are noise). Upstream publishes only its
# core (site.ycsb:core, taken from Maven Central) there, so its JDBC binding's jar is given,
# built from the release's source:
#   git clone https://github.com/brianfrankcooper/YCSB && cd YCSB && git checkout 0.17.0
#   mvn -pl jdbc -am package -Dmaven.test.skip=true -Dcheckstyle.skip=true   # jdbc/target/jdbc-binding-*.jar
#
#   1. workloads a, c and e (their run phase, equal threads): ops/s, and client CPU per operation
#      of the whole process (user + system, by the shell's `time`) — each side on a table of its
#      own, loaded fresh each round by the same load, so that workload e's inserts never collide;
#   2. a load of --load-rows rows: the binding's default (COPY, its default batch size) against
#      upstream's batched JDBC load (db.batchsize=1000, jdbc.batchupdateapi=true,
#      reWriteBatchedInserts=true), each into a table of its own.
#
# Both run with the same JVM options (YBBENCH_JAVA_OPTS, else run_ycsb.sh's). Upstream counts
# failed operations in its throughput: a side that had any is reported. Each measurement is
# repeated --rounds times, the sides' order alternating; medians are compared.
#
# Usage: run-scripts/bench/vs-upstream.sh --upstream-jar JDBC_BINDING_JAR [--workloads "a c e"]
#            [--threads N] [--seconds S] [--rows N] [--load-rows N] [--rounds N] [--db-version V]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"

workloads="a c e"
threads=8
seconds=20
rows=100000
load_rows=1000000
rounds=3
version=17
upstream_jar=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workloads) workloads=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --load-rows) load_rows=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    --upstream-jar) upstream_jar=$2; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [[ ! -f $upstream_jar ]]; then
  echo "error: --upstream-jar must name upstream YCSB 0.17.0's built JDBC binding jar (see --help: how to build it)" >&2
  exit 2
fi
for w in $workloads; do
  [[ -f "$YBBENCH_HOME/workloads/workload$w" ]] || { echo "error: no workloads/workload$w" >&2; exit 2; }
done

ybbench_build ycsb-yugabyte
bench_serve ServePostgres "$version" $((threads * 2 + 20))
echo "PostgreSQL $server_version on $hostport: $threads threads, $rounds rounds of ${seconds} s, $rows rows;" \
  "load of $load_rows rows"

# Upstream YCSB 0.17.0's JDBC binding and its core, with the PostgreSQL driver the harness uses.
pg_jar=$(find "$YBBENCH_HOME/ycsb-yugabyte/target/lib" -name 'postgresql-*.jar' | head -n 1)
up_cp="$upstream_jar:$(bench_maven_classpath "$bench_work/upstream-jdbc" site.ycsb:core:0.17.0):$pg_jar"
ybbench_java_opts java_opts

ours() { bench_ycsb "$@" --user postgres --threads "$threads"; }

# upstream_run DATABASE ARGS…: upstream's Client against a database of the benchmark's server,
# timed; sets $up_ops_s, $up_ops and $up_failed from its summary lines.
upstream_run() {
  local db=$1
  shift
  bench_cpu java "${java_opts[@]}" -cp "$up_cp" site.ycsb.Client -db site.ycsb.db.JdbcDBClient -s \
    -threads "$threads" -p db.driver=org.postgresql.Driver -p db.user=postgres -p db.passwd= \
    -p "db.url=jdbc:postgresql://$hostport/$db?reWriteBatchedInserts=true" "$@"
  local figures
  figures=$(bench_upstream_figures)
  read -r up_ops_s up_ops up_failed <<<"$figures"
}

# ours_run ARGS…: the binding, timed; sets $our_ops_s and $our_ops (successes, its warm-up's too).
ours_run() {
  bench_cpu "$YBBENCH_HOME/run_ycsb.sh" "$@" --user postgres --threads "$threads" --hosts "$hostport" \
    --results-dir "$bench_work/results"
  local run
  run=$(sed -n 's/^Results: //p' "$bench_work/out")
  local phase=run
  [[ " $* " == *" --phase load "* ]] && phase=load
  our_ops_s=$(phase_throughput "$run" "$phase")
  our_ops=$(result "$run" summary.json "[.phases[].successes] | add")
}

report=()
for w in $workloads; do
  : >"$bench_work/ours.txt"
  : >"$bench_work/up.txt"
  failed=0
  for round in $(seq 1 "$rounds"); do
    ours "workload$w" --records "$rows" --phase load --database "w${w}o$round" >/dev/null
    ours "workload$w" --records "$rows" --phase load --database "w${w}u$round" >/dev/null
    for side in $( ((round % 2)) && echo "ours up" || echo "up ours"); do
      if [[ $side == ours ]]; then
        ours_run "workload$w" --records "$rows" --phase run --duration "$seconds" --database "w${w}o$round"
        echo "$our_ops_s $(bench_per_op "$bench_cpu_s" "$our_ops")" >>"$bench_work/ours.txt"
      else
        # The workload file's operationcount, as the binding runs it: CoreWorkload sizes its
        # zipfian key range for a run's inserts by it, and redraws keys past the last inserted one.
        upstream_run "w${w}u$round" -t -P "$YBBENCH_HOME/workloads/workload$w" -p recordcount="$rows" \
          -p maxexecutiontime="$seconds"
        echo "$up_ops_s $(bench_per_op "$bench_cpu_s" "$up_ops")" >>"$bench_work/up.txt"
        failed=$((failed + up_failed))
      fi
    done
    echo "workload$w round $round: binding $(tail -n 1 "$bench_work/ours.txt" | awk '{ printf "%.0f ops/s, %s µs/op", $1, $2 }')," \
      "upstream $(tail -n 1 "$bench_work/up.txt" | awk '{ printf "%.0f ops/s, %s µs/op", $1, $2 }')"
  done
  report+=("$(awk -v w="$w" -v o="$(cut -d' ' -f1 "$bench_work/ours.txt" | median)" \
    -v u="$(cut -d' ' -f1 "$bench_work/up.txt" | median)" -v oc="$(cut -d' ' -f2 "$bench_work/ours.txt" | median)" \
    -v uc="$(cut -d' ' -f2 "$bench_work/up.txt" | median)" -v f="$failed" 'BEGIN {
    printf "workload%s (medians): binding %.0f ops/s, %.1f µs CPU/op; upstream %.0f ops/s, %.1f µs CPU/op: " \
      "throughput %.2fx (target >= 1.1), CPU/op %.2fx (target <= 0.8)%s", w, o, oc, u, uc, o / u, oc / uc,
      (f > 0 ? "; upstream counted " f " failed operations in its throughput" : "")
  }')")
done

: >"$bench_work/ours.txt"
: >"$bench_work/up.txt"
for round in $(seq 1 "$rounds"); do
  ours workloada --phase create --database "lu$round" >/dev/null
  for side in $( ((round % 2)) && echo "ours up" || echo "up ours"); do
    if [[ $side == ours ]]; then
      ours_run workloada --records "$load_rows" --phase load --database "lo$round"
      echo "$our_ops_s $(bench_per_op "$bench_cpu_s" "$our_ops")" >>"$bench_work/ours.txt"
    else
      upstream_run "lu$round" -load -P "$YBBENCH_HOME/workloads/workloada" -p recordcount="$load_rows" \
        -p db.batchsize=1000 -p jdbc.batchupdateapi=true
      echo "$up_ops_s $(bench_per_op "$bench_cpu_s" "$up_ops")" >>"$bench_work/up.txt"
    fi
  done
  echo "load round $round: binding $(tail -n 1 "$bench_work/ours.txt" | awk '{ printf "%.0f rows/s, %s µs/row", $1, $2 }')," \
    "upstream $(tail -n 1 "$bench_work/up.txt" | awk '{ printf "%.0f rows/s, %s µs/row", $1, $2 }')"
done
report+=("$(awk -v o="$(cut -d' ' -f1 "$bench_work/ours.txt" | median)" -v u="$(cut -d' ' -f1 "$bench_work/up.txt" | median)" \
  -v oc="$(cut -d' ' -f2 "$bench_work/ours.txt" | median)" -v uc="$(cut -d' ' -f2 "$bench_work/up.txt" | median)" \
  -v n="$load_rows" 'BEGIN {
  printf "load of %d rows (medians): binding %.0f rows/s, %.1f µs CPU/row; upstream batched JDBC %.0f rows/s, " \
    "%.1f µs CPU/row: throughput %.2fx (target >= 2), CPU/row %.2fx", n, o, oc, u, uc, o / u, oc / uc
}')")
printf '%s\n' "${report[@]}"
