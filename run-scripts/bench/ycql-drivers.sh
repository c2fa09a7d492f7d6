#!/usr/bin/env bash
# Measures the YCQL binding against references taken in the same run on the same embedded
# Cassandra server, and prints ratios (absolute numbers on a shared machine are noise):
#
#   1. load rows/s: many writes in flight per thread (--batch-size 128) vs one at a time;
#   2. workloadc throughput through YugabyteDB's driver (com.yugabyte:java-driver-core) vs
#      Apache's (org.apache.cassandra:java-driver-core) at equal concurrency; the same binding
#      runs on both, with the other driver swapped in on the classpath.
#
# Each measurement is repeated --rounds times, alternating the two sides; medians are compared.
#
# Usage: run-scripts/bench/ycql-drivers.sh [--threads N] [--seconds S] [--rows N] [--rounds N]
#                                          [--db-version V] [--apache-driver VERSION]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"

threads=8
seconds=15
rows=50000
rounds=3
version=5.0
apache_driver=4.19.3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    --apache-driver) apache_driver=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

ybbench_build ycsb-yugabyte
bench_serve ServeCassandra "$version" 1
echo "Cassandra $server_version on $hostport: $threads threads, $rounds rounds of ${seconds} s, $rows rows"

# The same runner with Apache's driver: its jars first, YugabyteDB's driver jars left out
# (both use the com.datastax.oss.driver packages, so only one can be on a classpath).
apache_dir="$bench_work/apache-driver"
mkdir -p "$apache_dir"
cat >"$apache_dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.ybbench.bench</groupId><artifactId>apache-driver</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.apache.cassandra</groupId><artifactId>java-driver-core</artifactId>
      <version>$apache_driver</version></dependency>
  </dependencies>
</project>
POM
(cd "$apache_dir" && mvn -B -q dependency:build-classpath -Dmdep.outputFile=cp.txt >mvn.log 2>&1) ||
  { cat "$apache_dir/mvn.log" >&2; exit 1; }
lib="$YBBENCH_HOME/ycsb-yugabyte/target/lib"
yb_free=$(find "$lib" -name '*.jar' ! -name 'java-driver-core-*-yb-*' ! -name 'native-protocol-*-yb-*' | sort | paste -sd:)
apache_cp="$(cat "$apache_dir/cp.txt"):$YBBENCH_HOME/ycsb-yugabyte/target/ycsb-yugabyte.jar:$yb_free"

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

awk -v li="$(median <"$bench_work/inflight.txt")" -v l1="$(median <"$bench_work/single.txt")" \
  -v yb="$(median <"$bench_work/yb.txt")" -v ap="$(median <"$bench_work/apache.txt")" 'BEGIN {
  printf "load (medians): 128 writes in flight per thread %.0f rows/s, one at a time %.0f rows/s: ratio %.2f\n", li, l1, li / l1
  printf "workloadc (medians): YugabyteDB driver %.0f ops/s, Apache driver %.0f ops/s: ratio %.2f\n", yb, ap, yb / ap
}'
