#!/usr/bin/env bash
# TPC-C measurements on one embedded PostgreSQL server, in one run:
#
#   1. load time and rows/s for --warehouses (10) warehouses;
#   2. the throughput run of the YugabyteDB 2.1 post on them (tpcc/config/postgres_100w.xml):
#      --terminals (64) terminals, no keying or think times, the mix and then each transaction
#      type alone, --seconds (60) each: the six-row table, and each type's goodput alone
#      against its goodput in the mix;
#   3. with --benchbase DIR (a BenchBase build, unpacked from its target/benchbase-postgres.tgz):
#      the same mix, --seconds after a 10 s warm-up, run by ybbench and by BenchBase, each on a
#      database of its own (BenchBase's schema is its own), for --rounds (3) rounds, the sides'
#      order alternating: goodput, tpmC, transactions given up after retries, retries per commit
#      of each type, and each client JVM's whole CPU and peak RSS; medians and their ratios;
#   4. with --full: the specification's run (--spec) at 100 warehouses and 1,000 terminals over
#      the default pool of 25 connections, --full-seconds (600) after a 60 s warm-up: tpmC,
#      efficiency, each type's p90 against its limit, and the client's peak RSS and CPU.
#
# CPU and peak RSS are the client JVM's own, from /usr/bin/time: for BenchBase its JVM alone, not
# the harness JVM that starts it and reads its files. BenchBase's builds target Java 23:
# BENCHBASE_JAVA names a java newer than the PATH's.
#
# Usage: run-scripts/bench/tpcc.sh [--warehouses N] [--terminals N] [--seconds S]
#            [--benchbase DIR] [--rounds N] [--full] [--full-seconds S] [--db-version V]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"
bench_without_probe

load_warehouses=10
terminals=64
seconds=60
benchbase=""
rounds=3
full=false
full_seconds=600
version=17
while [[ $# -gt 0 ]]; do
  case "$1" in
    --warehouses|--load-warehouses) load_warehouses=$2; shift 2 ;;
    --terminals) terminals=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --benchbase) benchbase=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --full) full=true; shift ;;
    --full-seconds) full_seconds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [[ -n $benchbase && ! -f $benchbase/benchbase.jar ]]; then
  echo "error: --benchbase $benchbase has no benchbase.jar (unpack BenchBase's target/benchbase-postgres.tgz there)" >&2
  exit 2
fi

bench_need /usr/bin/time time "to measure the client's CPU and peak RSS"
ybbench_build
bench_serve ServePostgres "$version" 120
echo "PostgreSQL $server_version on $hostport"

# tpcc RUN_TPCC_ARGS…: one run_tpcc.sh run against the server; prints its run directory. The
# client JVM's "PEAK_RSS_KB USER_S SYS_S" is left in $bench_work/ybbench.time (run_tpcc.sh execs
# the JVM, so /usr/bin/time measures the JVM itself).
tpcc() {
  local log="$bench_work/tpcc.log"
  /usr/bin/time -o "$bench_work/ybbench.time" -f '%M %U %S' "$YBBENCH_HOME/run_tpcc.sh" "$@" --hosts "$hostport" \
    --user postgres --results-dir "$bench_work/results" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
  bench_last_run "$bench_work/results"
}

tiny="$YBBENCH_HOME/tpcc/config/tiny.xml"
run=$(tpcc --config "$tiny" --warehouses "$load_warehouses" --create --load --loader-threads 2)
echo "load: $load_warehouses warehouses, $(result "$run" summary.json .phases.load.rows) rows in" \
  "$(result "$run" summary.json .phases.load.duration_s) s = $(result "$run" summary.json .phases.load.rows_per_s) rows/s"

configs="$YBBENCH_HOME/tpcc/config"
# Delivery alone, 6.4 terminals a warehouse all after the same oldest orders, may give up some
# of its transactions after every retry on SERIALIZABLE PostgreSQL: contention the table
# should show, not a broken run.
run=$(tpcc --config "$configs/postgres_100w.xml" --warehouses "$load_warehouses" --terminals "$terminals" --execute \
  --check --duration "$seconds" --warmup 10 --max-error-pct 5)
echo "throughput run: $load_warehouses warehouses, $terminals terminals, no keying or think times," \
  "$seconds s a work; consistency all pass: $(result "$run" summary.json .tpcc.consistency.all_pass)"
sed -n '/^Works (/,/^  execute-6/p' "$bench_work/tpcc.log"
# Each type's goodput alone against the same type's share of the mix's goodput.
phases=(execute-2 execute-3 execute-4 execute-5 execute-6)
types=(NewOrder Payment OrderStatus Delivery StockLevel)
for i in "${!types[@]}"; do
  alone=$(result "$run" summary.json ".phases[\"${phases[$i]}\"].operations.${types[$i]}.throughput_ops")
  mixed=$(result "$run" summary.json ".phases.execute.operations.${types[$i]}.throughput_ops")
  awk -v t="${types[$i]}" -v a="$alone" -v m="$mixed" 'BEGIN {
    printf "  %-12s alone %8.1f/s, in the mix %8.1f/s: %.2fx\n", t, a, m, (m > 0 ? a / m : 0) }'
done

if [[ -n $benchbase ]]; then
  # BenchBase runs as its own JVM under the harness's JVM: this java, given to the harness as
  # BenchBase's, times it alone.
  printf '#!/bin/sh\nexec /usr/bin/time -o "%s" -f "%%M %%U %%S" "%s" "$@"\n' \
    "$bench_work/benchbase.time" "${BENCHBASE_JAVA:-java}" >"$bench_work/timed-java"
  chmod +x "$bench_work/timed-java"
  mix=(--config "$configs/postgres_100w.xml" --warehouses "$load_warehouses" --terminals "$terminals")
  BENCHBASE_JAVA="$bench_work/timed-java" tpcc "${mix[@]}" --engine benchbase --benchbase "$benchbase" \
    --create --load >/dev/null
  # side ybbench|benchbase: one mix run by that client. Appends a line to $bench_work/SIDE:
  # "GOODPUT TPMC GIVEN_UP CPU_S RSS_MB TYPE=RETRIES_PER_COMMIT…".
  side() {
    local engine=() run rss user sys
    [[ $1 == benchbase ]] && engine=(--engine benchbase --benchbase "$benchbase")
    run=$(BENCHBASE_JAVA="$bench_work/timed-java" tpcc "${mix[@]}" "${engine[@]}" --mix-only --execute \
      --duration "$seconds" --warmup 10 --max-error-pct 5)
    read -r rss user sys <"$bench_work/$1.time"
    echo "$(result "$run" summary.json '.phases.execute | "\(.throughput_ops) \(.tpcc.tpmC) \(.aborts + .errors)"')" \
      "$(awk -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN { printf "%.1f %.0f", u + s, r / 1024 }')" \
      "$(result "$run" summary.json '[.phases.execute.operations | to_entries[] | select(.value.successes > 0)
        | "\(.key)=\(.value.retries / .value.successes)"] | join(" ")')" >>"$bench_work/$1"
  }
  for r in $(seq 1 "$rounds"); do
    if ((r % 2)); then side ybbench; side benchbase; else side benchbase; side ybbench; fi
  done
  echo "vs BenchBase: the mix, $load_warehouses warehouses, $terminals terminals, $seconds s after 10 s," \
    "$rounds rounds alternated, medians"
  printf '  %-34s %10s %10s %7s\n' "" ybbench BenchBase ratio
  measures=("goodput (tx/s)" tpmC "given up after retries" "client CPU (s)" "client peak RSS (MB)")
  for i in "${!measures[@]}"; do
    ours=$(awk -v f=$((i + 1)) '{ print $f }' "$bench_work/ybbench" | median)
    theirs=$(awk -v f=$((i + 1)) '{ print $f }' "$bench_work/benchbase" | median)
    awk -v m="${measures[$i]}" -v a="$ours" -v b="$theirs" 'BEGIN {
      printf "  %-34s %10s %10s %7s\n", m, a, b, (b > 0 ? sprintf("%.2fx", a / b) : "") }'
  done
  for type in NewOrder Payment Delivery StockLevel; do
    ours=$(grep -o "$type=[0-9.e-]*" "$bench_work/ybbench" | cut -d= -f2 | median)
    theirs=$(grep -o "$type=[0-9.e-]*" "$bench_work/benchbase" | cut -d= -f2 | median)
    awk -v m="retries per commit: $type" -v a="$ours" -v b="$theirs" 'BEGIN {
      printf "  %-34s %10.2f %10.2f\n", m, a, b }'
  done
fi

if [[ $full == true ]]; then
  tpcc --config "$configs/postgres_100w_spec.xml" --spec --create --load --loader-threads 2 >/dev/null
  run=$(tpcc --config "$configs/postgres_100w_spec.xml" --spec --execute --check --duration "$full_seconds" \
    --warmup 60)
  read -r rss _ <"$bench_work/ybbench.time"
  awk -v t="$(result "$run" summary.json .phases.execute.tpcc.tpmC)" \
    -v e="$(result "$run" summary.json .phases.execute.tpcc.efficiency_pct)" \
    -v cpu="$(result "$run" summary.json .phases.execute.server.client_cpu_s)" -v s="$full_seconds" \
    -v rss="$rss" 'BEGIN {
    printf "spec run: 100 warehouses, 1,000 terminals, 25 connections: tpmC %.1f, efficiency %.2f%%;", t, e
    printf " client peak RSS %.0f MB, client CPU %.1f s in %d s\n", rss / 1024, cpu, s
  }'
  grep '^  p90 \|^  waits' "$bench_work/tpcc.log"
fi
