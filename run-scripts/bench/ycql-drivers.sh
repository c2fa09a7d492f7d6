#!/usr/bin/env bash
# Measures the YCQL binding against references taken in the same run on the same embedded
# Cassandra server, and prints ratios (absolute numbers on a shared machine are noise):
#
#   1. load rows/s: many writes in flight per thread (--batch-size 128) vs one at a time;
#   2. workloadc throughput through YugabyteDB's driver (com.yugabyte:java-driver-core) vs
#      Apache's (org.apache.cassandra:java-driver-core) at equal concurrency; the same binding
#      runs on both, with the other driver swapped in on the classpath;
#   3. with --upstream-jar, workloadc against upstream YCSB 0.17.0's own Cassandra binding at
#      equal threads, each on its own table of --rows rows: ops/s and client CPU per operation in
#      the steady state (after --warmup seconds: the binding's measured window, upstream's status
#      lines with its JVM's CPU from /proc) and of the whole process (user + system, by the
#      shell's `time`). Upstream publishes only its core to Maven Central; the binding is one
#      source file, compiled against its driver:
#        git clone https://github.com/brianfrankcooper/YCSB && cd YCSB && git checkout 0.17.0
#        mvn -pl cassandra -am package -Dmaven.test.skip=true   # cassandra/target/cassandra-binding-*.jar
#
# Each measurement is repeated --rounds times, alternating the two sides; medians are compared.
#
# Usage: run-scripts/bench/ycql-drivers.sh [--threads N] [--seconds S] [--warmup S] [--rows N] [--rounds N]
#            [--db-version V] [--apache-driver VERSION] [--upstream-jar CASSANDRA_BINDING_JAR]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"
bench_without_probe

threads=8
seconds=15
warmup=5
rows=50000
rounds=3
version=5.0
apache_driver=4.19.3
upstream_jar=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    --apache-driver) apache_driver=$2; shift 2 ;;
    --upstream-jar) upstream_jar=$2; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [[ -n $upstream_jar && ! -f $upstream_jar ]]; then
  echo "error: --upstream-jar $upstream_jar is not a file; build upstream YCSB 0.17.0's Cassandra binding (see --help)" >&2
  exit 2
fi

ybbench_build
bench_serve ServeCassandra "$version" 1
echo "Cassandra $server_version on $hostport: $threads threads, $rounds rounds of ${seconds} s, $rows rows"

# The same runner with Apache's driver: its jars first, YugabyteDB's driver jars left out
# (both use the com.datastax.oss.driver packages, so only one can be on a classpath).
apache_cp=$(bench_maven_classpath "$bench_work/apache-driver" \
  "org.apache.cassandra:java-driver-core:$apache_driver")
yb_free=$(find "$YBBENCH_HOME/target/lib" -name '*.jar' ! -name 'java-driver-core-*-yb-*' \
  ! -name 'native-protocol-*-yb-*' | sort | paste -sd:)
apache_cp="$apache_cp:$yb_free"

ycsb() { bench_ycsb "$@" --api ycql --threads "$threads"; }

# A fresh Cassandra JVM runs far slower until its JIT has warmed up: one unmeasured run first.
ycsb workloadc --records "$rows" --duration "$seconds" >/dev/null

# 1. Load: in flight vs one at a time, alternating.
: >"$bench_work/inflight.txt"
: >"$bench_work/single.txt"
for round in $(seq 1 "$rounds"); do
  run=$(ycsb workloada --records "$rows" --phase load --batch-size 128 --database loadtest)
  phase_throughput "$run" load >>"$bench_work/inflight.txt"
  run=$(ycsb workloada --records "$rows" --phase load --batch-size 1 --database loadtest)
  phase_throughput "$run" load >>"$bench_work/single.txt"
  echo "round $round: load with 128 in flight $(tail -n 1 "$bench_work/inflight.txt") rows/s, one at a time $(tail -n 1 "$bench_work/single.txt") rows/s"
done

# 2. Reads: load once, then alternate the two drivers.
ycsb workloadc --records "$rows" --phase load >/dev/null
: >"$bench_work/yb.txt"
: >"$bench_work/apache.txt"
for round in $(seq 1 "$rounds"); do
  run=$(ycsb workloadc --records "$rows" --phase run --duration "$seconds")
  phase_throughput "$run" run >>"$bench_work/yb.txt"
  yb_driver=$(result "$run" run.json '.parameters["ycql.driver"]')
  run=$(BENCH_CLASSPATH="$apache_cp" ycsb workloadc --records "$rows" --phase run --duration "$seconds")
  phase_throughput "$run" run >>"$bench_work/apache.txt"
  apache=$(result "$run" run.json '.parameters["ycql.driver"]')
  echo "round $round: $yb_driver $(tail -n 1 "$bench_work/yb.txt") ops/s, $apache $(tail -n 1 "$bench_work/apache.txt") ops/s"
done

# 3. Upstream's Cassandra binding (driver 3.0.0, as its 0.17.0 pom says) on a table of its own.
if [[ -n $upstream_jar ]]; then
  up_dir="$bench_work/upstream-cassandra"
  up_cp="$upstream_jar:$(bench_maven_classpath "$up_dir" site.ycsb:core:0.17.0 \
    com.datastax.cassandra:cassandra-driver-core:3.0.0)"
  fields=$(for i in $(seq 0 9); do printf ', field%d varchar' "$i"; done)
  # The driver's own warnings (YugabyteDB's partition metadata, which Cassandra has not) go to a log.
  java -cp "$(ybbench_classpath)" "$here/Cql.java" "$hostport" \
    "CREATE KEYSPACE IF NOT EXISTS upstream WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}" \
    "CREATE TABLE IF NOT EXISTS upstream.usertable (y_id varchar PRIMARY KEY$fields)" >"$up_dir/cql.log" 2>&1 ||
    { cat "$up_dir/cql.log" >&2; exit 1; }
  ybbench_java_opts java_opts
  upstream() {
    local warmup=$1
    shift
    bench_upstream "$warmup" "${java_opts[@]}" -cp "$up_cp" site.ycsb.Client -db site.ycsb.db.CassandraCQLClient -s \
      -threads "$threads" -p hosts="${hostport%:*}" -p port="${hostport##*:}" -p cassandra.keyspace=upstream \
      -p cassandra.readconsistencylevel=QUORUM -p cassandra.writeconsistencylevel=QUORUM \
      -P "$YBBENCH_HOME/workloads/workloadc" -p recordcount="$rows" "$@"
  }
  upstream 0 -load
  ycsb workloadc --records "$rows" --phase load --database ours >/dev/null
  : >"$bench_work/ours-c.txt"
  : >"$bench_work/up-c.txt"
  for round in $(seq 1 "$rounds"); do
    for side in $( ((round % 2)) && echo "ours up" || echo "up ours"); do
      if [[ $side == ours ]]; then
        bench_binding run workloadc --api ycql --records "$rows" --duration "$seconds" --warmup "$warmup" \
          --threads "$threads" --database ours >>"$bench_work/ours-c.txt"
      else
        upstream "$warmup" -t -p maxexecutiontime="$((warmup + seconds))"
        if ((up_failed > 0)); then
          echo "error: upstream's Cassandra binding failed $up_failed reads; its throughput would count them" >&2
          exit 1
        fi
        echo "$steady_ops_s $steady_us $(bench_per_op "$bench_cpu_s" "$up_ops")" >>"$bench_work/up-c.txt"
      fi
    done
    echo "round $round: binding $(tail -n 1 "$bench_work/ours-c.txt" | awk '{ printf "%.0f ops/s, %.1f µs/op (whole process %.1f)", $1, $2, $3 }')," \
      "upstream $(tail -n 1 "$bench_work/up-c.txt" | awk '{ printf "%.0f ops/s, %.1f µs/op (whole process %.1f)", $1, $2, $3 }')"
  done
fi

awk -v li="$(median <"$bench_work/inflight.txt")" -v l1="$(median <"$bench_work/single.txt")" \
  -v yb="$(median <"$bench_work/yb.txt")" -v ap="$(median <"$bench_work/apache.txt")" 'BEGIN {
  printf "load (medians): 128 writes in flight per thread %.0f rows/s, one at a time %.0f rows/s: ratio %.2f\n", li, l1, li / l1
  printf "workloadc (medians): YugabyteDB driver %.0f ops/s, Apache driver %.0f ops/s: ratio %.2f\n", yb, ap, yb / ap
}'
if [[ -n $upstream_jar ]]; then
  awk -v o="$(cut -d' ' -f1 "$bench_work/ours-c.txt" | median)" -v u="$(cut -d' ' -f1 "$bench_work/up-c.txt" | median)" \
    -v oc="$(cut -d' ' -f2 "$bench_work/ours-c.txt" | median)" -v uc="$(cut -d' ' -f2 "$bench_work/up-c.txt" | median)" \
    -v ow="$(cut -d' ' -f3 "$bench_work/ours-c.txt" | median)" -v uw="$(cut -d' ' -f3 "$bench_work/up-c.txt" | median)" 'BEGIN {
    printf "workloadc vs upstream (medians): binding %.0f ops/s, %.1f µs CPU/op (whole process %.1f); upstream " \
      "Cassandra binding %.0f ops/s, %.1f µs CPU/op (whole process %.1f): throughput %.2fx (target >= 1.1), " \
      "CPU/op %.2fx, whole-process CPU/op %.2fx\n", o, oc, ow, u, uc, uw, o / u, oc / uc, ow / uw
  }'
fi
