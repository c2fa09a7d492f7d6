#!/usr/bin/env bash
# TPC-C measurements on one embedded PostgreSQL server, in one run:
#
#   1. load time and rows/s for --warehouses (10) warehouses;
#   2. the throughput run of the YugabyteDB 2.1 post on them (tpcc/config/postgres_100w.xml):
#      --terminals (64) terminals, no keying or think times, the mix and then each transaction
#      type alone, --seconds (60) each: the six-row table, and each type's goodput alone
#      against its goodput in the mix;
#   3. with --full: the specification's run (--spec) at 100 warehouses and 1,000 terminals over
#      the default pool of 25 connections, --full-seconds (600) after a 60 s warm-up: tpmC,
#      efficiency, each type's p90 against its limit, and the client's peak RSS and CPU.
#
# Usage: run-scripts/bench/tpcc.sh [--warehouses N] [--terminals N] [--seconds S] [--full]
#                                  [--full-seconds S] [--db-version V]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"

load_warehouses=10
terminals=64
seconds=60
full=false
full_seconds=600
version=17
while [[ $# -gt 0 ]]; do
  case "$1" in
    --warehouses|--load-warehouses) load_warehouses=$2; shift 2 ;;
    --terminals) terminals=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --full) full=true; shift ;;
    --full-seconds) full_seconds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

ybbench_build tpcc
bench_serve ServePostgres "$version" 120
echo "PostgreSQL $server_version on $hostport"

# tpcc RUN_TPCC_ARGS…: one run_tpcc.sh run against the server; prints its run directory and
# leaves the client's peak RSS (kB) in $peak_rss_kb.
tpcc() {
  local log="$bench_work/tpcc.log"
  "$YBBENCH_HOME/run_tpcc.sh" "$@" --hosts "$hostport" --user postgres --results-dir "$bench_work/results" \
    >"$log" 2>&1 &
  local pid=$! rss
  peak_rss_kb=0
  while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
    ((rss > peak_rss_kb)) && peak_rss_kb=$rss
    sleep 1
  done
  wait "$pid" || { cat "$log" >&2; exit 1; }
  sed -n 's/^Results: //p' "$log"
}

tiny="$YBBENCH_HOME/tpcc/config/tiny.xml"
run=$(tpcc --config "$tiny" --warehouses "$load_warehouses" --create --load --loader-threads 2)
echo "load: $load_warehouses warehouses, $(result "$run" summary.json .phases.load.rows) rows in" \
  "$(result "$run" summary.json .phases.load.duration_s) s = $(result "$run" summary.json .phases.load.rows_per_s) rows/s"

configs="$YBBENCH_HOME/tpcc/config"
# Delivery alone, 6.4 terminals a warehouse all after the same oldest orders, fails about 1 % of
# its transactions with serialization errors even after 10 retries on SERIALIZABLE PostgreSQL:
# contention the table should show, not a broken run.
run=$(tpcc --config "$configs/postgres_100w.xml" --warehouses "$load_warehouses" --terminals "$terminals" --execute \
  --check --duration "$seconds" --warmup 10 --max-error-pct 5)
echo "throughput run: $load_warehouses warehouses, $terminals terminals, no keying or think times," \
  "$seconds s a work; consistency all pass: $(result "$run" summary.json .consistency.all_pass)"
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

if [[ $full == true ]]; then
  tpcc --config "$configs/postgres_100w_spec.xml" --spec --create --load --loader-threads 2 >/dev/null
  run=$(tpcc --config "$configs/postgres_100w_spec.xml" --spec --execute --check --duration "$full_seconds" \
    --warmup 60)
  awk -v t="$(result "$run" summary.json .phases.execute.tpmC)" \
    -v e="$(result "$run" summary.json .phases.execute.efficiency_pct)" \
    -v cpu="$(result "$run" summary.json .phases.execute.server.client_cpu_s)" -v s="$full_seconds" \
    -v rss="$peak_rss_kb" 'BEGIN {
    printf "spec run: 100 warehouses, 1,000 terminals, 25 connections: tpmC %.1f, efficiency %.2f%%;", t, e
    printf " client peak RSS %.0f MB, client CPU %.1f s in %d s\n", rss / 1024, cpu, s
  }'
  grep '^  p90 \|^  waits' "$bench_work/tpcc.log"
fi
