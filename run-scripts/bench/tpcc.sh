#!/usr/bin/env bash
# TPC-C measurements on one embedded PostgreSQL server, in one run:
#
#   1. load time and rows/s for --load-warehouses (10) warehouses;
#   2. goodput for those warehouses with --terminals (16) terminals and no keying or think time;
#   3. with --full: 100 warehouses and 64 terminals with the spec's keying and think times
#      (tpcc/config/postgres_100w_spec.xml at --terminals 64): tpmC, efficiency, and the client's
#      peak RSS. With think
#      time a terminal completes at most 12.86 / 10 New-Orders a minute (clause 4.1.3), so tpmC
#      is also shown against that terminal-bound maximum.
#
# Usage: run-scripts/bench/tpcc.sh [--load-warehouses N] [--terminals N] [--seconds S] [--full]
#                                  [--full-seconds S] [--db-version V]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"

load_warehouses=10
terminals=16
seconds=60
full=false
full_seconds=300
version=17
while [[ $# -gt 0 ]]; do
  case "$1" in
    --load-warehouses) load_warehouses=$2; shift 2 ;;
    --terminals) terminals=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --full) full=true; shift ;;
    --full-seconds) full_seconds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

run=$(tpcc --config "$tiny" --warehouses "$load_warehouses" --terminals "$terminals" --execute --check \
  --duration "$seconds" --warmup 10)
echo "goodput: $load_warehouses warehouses, $terminals terminals, no think time:" \
  "tpmC $(result "$run" summary.json .phases.execute.tpmC)," \
  "$(result "$run" summary.json .phases.execute.throughput_ops) transactions/s," \
  "$(result "$run" summary.json .phases.execute.errors) errors, $(result "$run" summary.json .phases.execute.retries)" \
  "retries; consistency all pass: $(result "$run" summary.json .consistency.all_pass)"

if [[ $full == true ]]; then
  config="$YBBENCH_HOME/tpcc/config/postgres_100w_spec.xml"
  tpcc --config "$config" --terminals 64 --create --load --loader-threads 2 >/dev/null
  run=$(tpcc --config "$config" --terminals 64 --execute --check --duration "$full_seconds" --warmup 60)
  tpmc=$(result "$run" summary.json .phases.execute.tpmC)
  awk -v t="$tpmc" -v e="$(result "$run" summary.json .phases.execute.efficiency_pct)" -v rss="$peak_rss_kb" 'BEGIN {
    printf "full: 100 warehouses, 64 terminals with keying and think time: tpmC %.1f, efficiency %.2f%% of 1286;", t, e
    printf " %.2f of the 64-terminal maximum (82.3 tpmC); client peak RSS %.0f MB\n", t / (64 * 1.286), rss / 1024
  }'
fi
