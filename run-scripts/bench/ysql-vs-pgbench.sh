#!/usr/bin/env bash
# Measures the YSQL binding against references taken in the same run on the same embedded
# PostgreSQL server, and prints ratios (absolute numbers on a shared machine are noise):
#
#   1. single-row primary-key reads: the binding (workloadc, uniform keys, one 84-byte field,
#      like pgbench_accounts) vs pgbench -S -M prepared, at the same connection count;
#   2. load rows/s: batched (--batch-size 128) vs one INSERT per row (--batch-size 1).
#
# Each measurement is repeated --rounds times, alternating the two sides; medians are compared.
#
# Usage: run-scripts/bench/ysql-vs-pgbench.sh [--clients N] [--seconds S] [--rows N] [--rounds N]
#                                             [--driver pgjdbc|yugabyte] [--db-version V]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"

clients=8
seconds=15
rows=100000
rounds=3
driver=pgjdbc
version=17
while [[ $# -gt 0 ]]; do
  case "$1" in
    --clients) clients=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --driver) driver=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if ! command -v pgbench >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null
  else
    echo "error: pgbench is needed (apt-get install postgresql-client)" >&2
    exit 2
  fi
fi

ybbench_build ycsb-yugabyte
bench_serve ServePostgres "$version" $((clients * 2 + 20))
host=${hostport%:*}
port=${hostport##*:}
echo "PostgreSQL $server_version on $hostport: $clients connections, $rounds rounds of ${seconds} s, $rows rows"
ycsb() { bench_ycsb "$@" --user postgres --threads "$clients"; }
read_args=(workloadc --records "$rows" -p fieldcount=1 -p fieldlength=84 -p requestdistribution=uniform)

# 1. Reads: both tables loaded once, then rounds that alternate pgbench and the binding so that
# drift on a busy machine hits both alike; the medians are compared.
scale=$(( (rows + 99999) / 100000 ))
PGUSER=postgres pgbench -i -q -s "$scale" -h "$host" -p "$port" postgres >/dev/null 2>&1
ycsb "${read_args[@]}" --phase load >/dev/null
: >"$bench_work/pgbench.txt"
: >"$bench_work/binding.txt"
for round in $(seq 1 "$rounds"); do
  PGUSER=postgres pgbench -S -M prepared -n -c "$clients" -j 2 -T "$seconds" -h "$host" -p "$port" postgres \
    | awk '/^tps/ { print $3; exit }' >>"$bench_work/pgbench.txt"
  run=$(ycsb "${read_args[@]}" --phase run --duration "$seconds" --driver "$driver")
  phase_throughput "$run" run >>"$bench_work/binding.txt"
  echo "round $round: pgbench $(tail -n 1 "$bench_work/pgbench.txt") tps, binding $(tail -n 1 "$bench_work/binding.txt") ops/s"
done
pgbench_tps=$(median <"$bench_work/pgbench.txt")
binding_ops=$(median <"$bench_work/binding.txt")

# 2. Load, batched vs one row per statement, alternating.
load_rows=$((rows / 2))
: >"$bench_work/batched.txt"
: >"$bench_work/single.txt"
for round in $(seq 1 "$rounds"); do
  run=$(ycsb workloada --records "$load_rows" --phase load --batch-size 128 --database loadtest)
  phase_throughput "$run" load >>"$bench_work/batched.txt"
  run=$(ycsb workloada --records "$load_rows" --phase load --batch-size 1 --database loadtest)
  phase_throughput "$run" load >>"$bench_work/single.txt"
  echo "round $round: load batched $(tail -n 1 "$bench_work/batched.txt") rows/s, one row per INSERT $(tail -n 1 "$bench_work/single.txt") rows/s"
done
batched_rows=$(median <"$bench_work/batched.txt")
single_rows=$(median <"$bench_work/single.txt")

awk -v p="$pgbench_tps" -v b="$binding_ops" -v d="$driver" -v lb="$batched_rows" -v l1="$single_rows" 'BEGIN {
  printf "point reads (medians): pgbench -S -M prepared %.0f tps, binding (%s) %.0f ops/s: ratio %.2f (target >= 0.9)\n", p, d, b, b / p
  printf "load (medians): batched %.0f rows/s, one row per INSERT %.0f rows/s: ratio %.2f (target >= 3)\n", lb, l1, lb / l1
}'
