#!/usr/bin/env bash
# What run_sysbench.sh costs beside sysbench alone, on one embedded PostgreSQL server: the same
# sysbench test on the same tables, run by sysbench alone (sysbench TEST --db-driver=pgsql … run,
# as its users type it) and through ./run_sysbench.sh TEST run (which adds per-second reports, the
# histogram, the server's readings before and after), for --rounds (5) rounds, the sides' order
# alternating; transactions per second of each, their medians and the ratio. The tables are
# prepared once, by run_sysbench.sh.
#
# Usage: run-scripts/bench/sysbench.sh [--test T] [--tables N] [--table-size N] [--threads N]
#            [--seconds S] [--rounds N] [--db-version V]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"
bench_without_probe

test=oltp_read_only
tables=4
table_size=20000
threads=4
seconds=20
rounds=5
version=17
while [[ $# -gt 0 ]]; do
  case "$1" in
    --test) test=$2; shift 2 ;;
    --tables) tables=$2; shift 2 ;;
    --table-size) table_size=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

bench_need sysbench sysbench "to run the tests"
ybbench_build # bench_serve's server too
bench_serve ServePostgres "$version" $((threads + 20))
ours=("$YBBENCH_HOME/run_sysbench.sh" "$test" --tables "$tables" --table-size "$table_size" --threads "$threads"
  --hosts "$hostport" --user postgres --results-dir "$bench_work/results" --no-install)
"${ours[@]}" prepare >"$bench_work/prepare.log" 2>&1 || { cat "$bench_work/prepare.log" >&2; exit 1; }

alone() {
  sysbench "$test" --db-driver=pgsql --pgsql-host="${hostport%:*}" --pgsql-port="${hostport##*:}" \
    --pgsql-user=postgres --pgsql-db=sbtest --tables="$tables" --table-size="$table_size" --threads="$threads" \
    --time="$seconds" run >"$bench_work/alone.log" 2>&1 || { cat "$bench_work/alone.log" >&2; exit 1; }
  sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.)$/\1/p' "$bench_work/alone.log"
}

wrapped() {
  "${ours[@]}" run --duration "$seconds" >"$bench_work/ours.log" 2>&1 || { cat "$bench_work/ours.log" >&2; exit 1; }
  phase_throughput "$(bench_last_run "$bench_work/results")" run
}

echo "sysbench $test, $tables × $table_size rows, $threads threads, ${seconds} s, PostgreSQL $server_version," \
  "$rounds rounds alternating"
bench_alone_vs_wrapped "$rounds" sysbench run_sysbench.sh
