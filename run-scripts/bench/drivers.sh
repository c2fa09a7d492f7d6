#!/usr/bin/env bash
# The floor under the binding's point reads. On one embedded PostgreSQL, at each connection count,
# sides alternated in every round, medians compared:
#
#   pgbench     pgbench -S -M prepared -c N -j min(N, cores): the reference (whole process);
#   jdbc        PointReads.java: pgbench's statement in a closed loop through pgjdbc, a thread per
#               connection (YCSB's model) and nothing else: the floor of the driver the binding uses;
#   jdbc-ycsb   the same with workloadc's statement (usertable by YCSB's key, both columns back);
#   vertx       pgbench's statement through the Vert.x reactive client on min(N, cores) event loops
#               over epoll (pgbench's model: a thread polls many connections);
#   loom        the same client under blocking code: each connection's loop a virtual thread that
#               its event loop schedules (with a Java 21 or later: --loom-java, or the java on PATH);
#   binding     ./run_ycsb.sh workloadc (uniform keys, one 84-byte field) at N threads;
#   binding-vertx  the same with --driver vertx: Vert.x's client, the threads virtual threads on
#               min(N, cores) event loops (with the Java of loom).
#
# It prints ops/s and client CPU per read: the Java sides' in their measured window after --warmup
# seconds (JIT and collector included, JVM start not), pgbench's for its whole process; and both as
# ratios to pgbench's. The distance between jdbc-ycsb and binding is what the harness adds to the
# driver; between jdbc and vertx, what a thread per connection costs; between vertx and loom, what
# blocking code costs on an event loop; between loom and binding-vertx, what the harness adds to it.
# The drivers are the harness's own (its pom's versions).
#
# Usage: run-scripts/bench/drivers.sh [--connections "8 16"] [--seconds S] [--warmup S] [--rows N]
#                                     [--rounds N] [--db-version V] [--loom-java JAVA]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"
bench_without_probe

counts="8 16"
seconds=15
warmup=5
rows=100000
rounds=3
version=17
loom_java=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --connections) counts=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    --loom-java) loom_java=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
bench_need pgbench postgresql "for the reference" # Debian ships pgbench with the server, not the client
java_release() {
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'
}
if [[ -n $loom_java ]]; then
  (( $(java_release "$loom_java" || echo 0) >= 21 )) ||
    { echo "error: --loom-java $loom_java is not a Java 21 or later" >&2; exit 2; }
elif (( $(java_release java) >= 21 )); then
  loom_java=java
else
  echo "note: no loom row: it needs a Java 21 or later (--loom-java JAVA)" >&2
fi
max=$(bench_largest --connections "$counts")

ybbench_build
bench_serve ServePostgres "$version" $((max + 20))
host=${hostport%:*}
port=${hostport##*:}
cores=$(nproc)
version_of() { sed -n "s:.*<$1.version>\\(.*\\)</$1.version>.*:\\1:p" "$YBBENCH_HOME/pom.xml"; }
pgjdbc=$(version_of pgjdbc)
vertx=$(version_of vertx)
netty=$(version_of netty)
cp=$(ybbench_classpath)
echo "PostgreSQL $server_version on $hostport, $cores cores: point reads, $rounds round(s) of ${seconds} s" \
  "after ${warmup} s per count, $rows rows; pgjdbc $pgjdbc, Vert.x $vertx (Netty $netty)"
read_args=(workloadc --records "$rows" -p fieldcount=1 -p fieldlength=84 -p requestdistribution=uniform
  --user postgres)
PGUSER=postgres pgbench -i -q -s $(( (rows + 99999) / 100000 )) -h "$host" -p "$port" postgres >/dev/null 2>&1
bench_ycsb "${read_args[@]}" --phase load --threads 8 >/dev/null

sides=(pgbench jdbc jdbc-ycsb vertx ${loom_java:+loom} binding ${loom_java:+binding-vertx})
printf '%6s %-13s %10s %10s %8s %8s\n' conns side "ops/s" "µs/read" tput "CPU/op"
for n in $counts; do
  jobs=$(( n < cores ? n : cores ))
  for side in "${sides[@]}"; do : >"$bench_work/$side.txt"; done
  for _ in $(seq 1 "$rounds"); do
    for side in "${sides[@]}"; do
      case $side in
        pgbench) bench_pgbench_reads "$n" "$seconds" ;;
        jdbc|jdbc-ycsb|vertx|loom)
          table=pgbench
          [[ $side == jdbc-ycsb ]] && table=ycsb
          jvm=(java)
          [[ $side == loom ]] && jvm=("$loom_java" --add-opens java.base/java.lang=ALL-UNNAMED)
          "${jvm[@]}" -cp "$cp" "$here/PointReads.java" "${side%-ycsb}" "$table" "$hostport" "$n" "$jobs" "$warmup" \
            "$seconds" "$rows" 2>"$bench_work/err" || { cat "$bench_work/err" >&2; exit 1; } ;;
        binding|binding-vertx)
          client=(--threads "$n")
          path=$PATH
          if [[ $side == binding-vertx ]]; then
            client+=(--driver vertx --jobs "$jobs")
            path="$(dirname "$(command -v "$loom_java")"):$PATH"
          fi
          PATH=$path "$YBBENCH_HOME/run_ycsb.sh" "${read_args[@]}" --phase run "${client[@]}" --duration "$seconds" \
            --warmup "$warmup" --hosts "$hostport" --results-dir "$bench_work/results" >"$bench_work/out" 2>&1 ||
            { cat "$bench_work/out" >&2; exit 1; }
          run=$(bench_last_run "$bench_work/results")
          echo "$(phase_throughput "$run" run) $(result "$run" summary.json '.phases.run.client.cpu_us_per_op')" ;;
      esac >>"$bench_work/$side.txt"
    done
  done
  p_ops=$(cut -d' ' -f1 "$bench_work/pgbench.txt" | median)
  p_us=$(cut -d' ' -f2 "$bench_work/pgbench.txt" | median)
  for side in "${sides[@]}"; do
    awk -v n="$n" -v s="$side" -v o="$(cut -d' ' -f1 "$bench_work/$side.txt" | median)" \
      -v u="$(cut -d' ' -f2 "$bench_work/$side.txt" | median)" -v po="$p_ops" -v pu="$p_us" \
      'BEGIN { printf "%6d %-13s %10.0f %10.1f %7.2fx %7.2fx\n", n, s, o, u, o / po, u / pu }'
  done
done
echo "tput, CPU/op: the side's median against pgbench's (higher tput and lower CPU/op are better)"
