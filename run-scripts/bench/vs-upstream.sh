#!/usr/bin/env bash
# Measures the YSQL binding against upstream YCSB's own JDBC binding (0.17.0, the last release;
# its unreleased HEAD fails workload E over JDBC), on one embedded PostgreSQL in one run, and
# prints ratios (absolute numbers on a shared machine are noise). Upstream publishes only its
# core (site.ycsb:core, taken from Maven Central) there, so its JDBC binding's jar is given,
# built from the release's source:
#   git clone https://github.com/brianfrankcooper/YCSB && cd YCSB && git checkout 0.17.0
#   mvn -pl jdbc -am package -Dmaven.test.skip=true -Dcheckstyle.skip=true   # jdbc/target/jdbc-binding-*.jar
#
#   1. workloads a, c and e (their run phase, equal threads), each side on a table of its own,
#      loaded fresh each round by the same load, so that workload e's inserts never collide:
#      ops/s and client CPU per operation in the steady state — after --warmup seconds, to the
#      end: upstream's from the status lines it prints every second, the JVM's CPU read from
#      /proc as each appears; the binding's from its results, its measured window's in
#      summary.json — and of the whole process (user + system, by the shell's `time`: JVM start,
#      JIT and warm-up included, which weigh on short runs);
#   2. a load of --load-rows rows: the binding's default (COPY, its default batch size) against
#      upstream's batched JDBC load (db.batchsize=1000, jdbc.batchupdateapi=true,
#      reWriteBatchedInserts=true), each into a table of its own: rows/s, CPU per row of the
#      load (JVM start excluded) and of the whole process.
#
# Both run with the same JVM options (YBBENCH_JAVA_OPTS, else run_ycsb.sh's), so that the
# ratios compare the code; with --upstream-as-shipped upstream's JVM has none, as its bin/ycsb
# starts it, so that they compare the tools as each is run. Upstream counts failed operations in
# its throughput: a side that had any is reported. Each measurement is repeated --rounds times,
# the sides' order alternating; medians are compared.
#
# Usage: run-scripts/bench/vs-upstream.sh --upstream-jar JDBC_BINDING_JAR [--workloads "a c e"]
#            [--threads N] [--seconds S] [--warmup S] [--rows N] [--load-rows N] [--rounds N]
#            [--db-version V] [--upstream-as-shipped]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"
bench_without_probe

workloads="a c e"
threads=8
seconds=20
warmup=5
rows=100000
load_rows=1000000
rounds=3
version=17
upstream_jar=
as_shipped=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workloads) workloads=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --load-rows) load_rows=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    --upstream-jar) upstream_jar=$2; shift 2 ;;
    --upstream-as-shipped) as_shipped=1; shift ;;
    -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

ybbench_build
bench_serve ServePostgres "$version" $((threads * 2 + 20))
echo "PostgreSQL $server_version on $hostport: $threads threads, $rounds rounds of ${seconds} s, $rows rows;" \
  "load of $load_rows rows; upstream's JVM options: $([[ -n $as_shipped ]] && echo "none, as its bin/ycsb runs it" ||
    echo "the binding's")"

# Upstream YCSB 0.17.0's JDBC binding and its core, with the PostgreSQL driver the harness uses.
pg_jar=$(find "$YBBENCH_HOME/target/lib" -name 'postgresql-*.jar' | head -n 1)
up_cp="$upstream_jar:$(bench_maven_classpath "$bench_work/upstream-jdbc" site.ycsb:core:0.17.0):$pg_jar"
ybbench_java_opts java_opts
up_opts=("${java_opts[@]}")
[[ -z $as_shipped ]] || up_opts=()

ours() { bench_ycsb "$@" --user postgres --threads "$threads"; }

# Each measurement appends "OPS_PER_S STEADY_US_PER_OP WHOLE_US_PER_OP SERVER_US_PER_OP" to a
# side's file: the server's CPU per operation says how much of the shared cores each side's
# statements cost the server (a load's COPY against batched INSERTs).
# upstream_run WARMUP DATABASE ARGS…: upstream's Client against a database of the benchmark's
# server; its figures go to up.txt, and the failed operations it counted into $failed.
upstream_run() {
  local warmup=$1 db=$2
  shift 2
  bench_upstream "$warmup" ${up_opts[@]+"${up_opts[@]}"} -cp "$up_cp" site.ycsb.Client -db site.ycsb.db.JdbcDBClient -s \
    -threads "$threads" -p db.driver=org.postgresql.Driver -p db.user=postgres -p db.passwd= \
    -p "db.url=jdbc:postgresql://$hostport/$db?reWriteBatchedInserts=true" "$@"
  echo "$steady_ops_s $steady_us $(bench_per_op "$bench_cpu_s" "$up_ops") $(bench_per_op "$bench_server_s" "$up_ops")" \
    >>"$bench_work/up.txt"
  failed=$((failed + up_failed))
}

# ours_run PHASE ARGS…: the binding; its figures go to ours.txt.
ours_run() {
  bench_binding "$@" --user postgres --threads "$threads" >>"$bench_work/ours.txt"
}

# last SIDE UNIT: a side's latest measurement, for the progress lines.
last() {
  tail -n 1 "$bench_work/$1.txt" | awk -v u="$2" '{ printf "%.0f %ss/s, %s µs/%s (whole process %s)", $1, u, $2, u, $3 }'
}

# compare WHAT UNIT TARGETS: the medians of both sides' measurements and their ratios.
compare() {
  local col o=() u=()
  for col in 1 2 3 4; do
    o+=("$(cut -d' ' -f"$col" "$bench_work/ours.txt" | median)")
    u+=("$(cut -d' ' -f"$col" "$bench_work/up.txt" | median)")
  done
  awk -v what="$1" -v unit="$2" -v targets="$3" -v f="$failed" -v o1="${o[0]}" -v o2="${o[1]}" -v o3="${o[2]}" \
    -v o4="${o[3]}" -v u1="${u[0]}" -v u2="${u[1]}" -v u3="${u[2]}" -v u4="${u[3]}" 'BEGIN {
    printf "%s (medians): binding %.0f %ss/s, %.1f µs CPU/%s (whole process %.1f); upstream %.0f %ss/s, %.1f µs CPU/%s " \
      "(whole process %.1f): throughput %.2fx, CPU/%s %.2fx, whole-process CPU/%s %.2fx (%s); server CPU/%s " \
      "%.1f µs against %.1f µs (%.2fx)%s\n",
      what, o1, unit, o2, unit, o3, u1, unit, u2, unit, u3, o1 / u1, unit, o2 / u2, unit, o3 / u3, targets,
      unit, o4, u4, (u4 > 0 ? o4 / u4 : 0), (f > 0 ? "; upstream counted " f " failed operations in its throughput" : "")
  }'
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
        ours_run run "workload$w" --records "$rows" --duration "$seconds" --warmup "$warmup" --database "w${w}o$round"
      else
        # The workload file's operationcount, as the binding runs it: CoreWorkload sizes its
        # zipfian key range for a run's inserts by it, and redraws keys past the last inserted one.
        upstream_run "$warmup" "w${w}u$round" -t -P "$YBBENCH_HOME/workloads/workload$w" -p recordcount="$rows" \
          -p maxexecutiontime="$((warmup + seconds))"
      fi
    done
    echo "workload$w round $round: binding $(last ours op), upstream $(last up op)"
  done
  report+=("$(compare "workload$w" op "targets: throughput >= 1.1x, CPU/op <= 0.9x, whole process <= 1.0x")")
done

: >"$bench_work/ours.txt"
: >"$bench_work/up.txt"
failed=0
for round in $(seq 1 "$rounds"); do
  ours workloada --phase create --database "lu$round" >/dev/null
  for side in $( ((round % 2)) && echo "ours up" || echo "up ours"); do
    if [[ $side == ours ]]; then
      ours_run load workloada --records "$load_rows" --database "lo$round"
    else
      upstream_run 0 "lu$round" -load -P "$YBBENCH_HOME/workloads/workloada" -p recordcount="$load_rows" \
        -p db.batchsize=1000 -p jdbc.batchupdateapi=true
    fi
  done
  echo "load round $round: binding $(last ours row), upstream $(last up row)"
done
report+=("$(compare "load of $load_rows rows" row "target: throughput >= 1.8x")")
printf '%s\n' "${report[@]}"
