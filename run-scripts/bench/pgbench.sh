#!/usr/bin/env bash
# What run_pgbench.sh costs beside pgbench alone, on one embedded PostgreSQL server: the same
# script on the same tables, run by pgbench alone (pgbench -S -c N -j J -T S, as its users type
# it) and through ./run_pgbench.sh with the same options (which adds pgbench's per-transaction log,
# a progress line a second and -r, and the server's readings before and after), for --rounds (5)
# rounds, the sides' order alternating; transactions per second of each, their medians and the
# ratio. The tables are initialized once, by run_pgbench.sh -i. With --alone-logs, pgbench alone
# writes the same per-transaction log, progress lines and report of each command as under
# run_pgbench.sh (-l -P 1 -r): the ratio is then ybbench's own cost, apart from what they cost pgbench.
#
# Usage: run-scripts/bench/pgbench.sh [--builtin NAME] [--scale N] [--sessions N] [--jobs N]
#            [--seconds S] [--rounds N] [--db-version V] [--protocol M] [--alone-logs]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"
bench_without_probe

builtin=select-only
scale=1
sessions=4
jobs=2
seconds=20
rounds=5
version=17
protocol=prepared
alone_logs=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --builtin) builtin=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --sessions) sessions=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    --protocol) protocol=$2; shift 2 ;;
    --alone-logs) alone_logs=1; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

bench_need pgbench postgresql "to run the scripts"
ybbench_build # bench_serve's server too
bench_serve ServePostgres "$version" $((sessions + 20))
options=(-b "$builtin" -c "$sessions" -j "$jobs" -T "$seconds" -M "$protocol" -n)
"$YBBENCH_HOME/run_pgbench.sh" -i -s "$scale" --hosts "$hostport" --user postgres --results-dir "$bench_work/results" \
  --no-install >"$bench_work/init.log" 2>&1 || { cat "$bench_work/init.log" >&2; exit 1; }

alone() {
  local logs=()
  if [[ -n $alone_logs ]]; then
    rm -rf "$bench_work/alone-log" && mkdir -p "$bench_work/alone-log"
    logs=(-r -P 1 -l "--log-prefix=$bench_work/alone-log/pgbench_log")
  fi
  pgbench -h "${hostport%:*}" -p "${hostport##*:}" -U postgres "${options[@]}" "${logs[@]}" pgbench \
    >"$bench_work/alone.log" 2>&1 </dev/null || { cat "$bench_work/alone.log" >&2; exit 1; }
  sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$bench_work/alone.log"
}

wrapped() {
  "$YBBENCH_HOME/run_pgbench.sh" "${options[@]}" --hosts "$hostport" --user postgres \
    --results-dir "$bench_work/results" --no-install >"$bench_work/ours.log" 2>&1 \
    || { cat "$bench_work/ours.log" >&2; exit 1; }
  phase_throughput "$(bench_last_run "$bench_work/results")" run
}

echo "pgbench -b $builtin -M $protocol, scale $scale, $sessions sessions on $jobs threads, ${seconds} s," \
  "PostgreSQL $server_version, $rounds rounds alternating${alone_logs:+, pgbench alone with -l -P 1 -r}"
bench_alone_vs_wrapped "$rounds" pgbench run_pgbench.sh
