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
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

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
work=$(mktemp -d)
cp="$YBBENCH_HOME/ycsb-yugabyte/target/lib/*"

# One server for every measurement; it stops when its standard input closes.
mkfifo "$work/stdin"
java -cp "$cp" dev.ybbench.harness.embedded.ServePostgres "$version" $((clients * 2 + 20)) \
  <"$work/stdin" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
exec 3>"$work/stdin"
cleanup() {
  exec 3>&- || true
  wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 120); do
  grep -q '^ready' "$work/server.out" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
  sleep 0.5
done
read -r _ hostport pgversion <"$work/server.out"
host=${hostport%:*}
port=${hostport##*:}
echo "PostgreSQL $pgversion on $hostport: $clients connections, $rounds rounds of ${seconds} s, $rows rows"

# phase_throughput FILE PHASE: the phase's throughput_ops from a summary.json.
phase_throughput() {
  awk -v phase="\"$2\"" '$1 == phase { inphase = 1 } inphase && /"throughput_ops"/ { gsub(/[ ,]/, "", $3); print $3; exit }' "$1"
}

ycsb() {
  "$YBBENCH_HOME/run_ycsb.sh" "$@" --hosts "$hostport" --user postgres --threads "$clients" \
    --results-dir "$work/results" >"$work/ycsb.log" 2>&1 || { cat "$work/ycsb.log" >&2; exit 1; }
  sed -n 's/^Results: //p' "$work/ycsb.log"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
read_args=(workloadc --records "$rows" -p fieldcount=1 -p fieldlength=84 -p requestdistribution=uniform)

# 1. Reads: both tables loaded once, then rounds that alternate pgbench and the binding so that
# drift on a busy machine hits both alike; the medians are compared.
scale=$(( (rows + 99999) / 100000 ))
PGUSER=postgres pgbench -i -q -s "$scale" -h "$host" -p "$port" postgres >/dev/null 2>&1
ycsb "${read_args[@]}" --phase load >/dev/null
: >"$work/pgbench.txt"
: >"$work/binding.txt"
for round in $(seq 1 "$rounds"); do
  PGUSER=postgres pgbench -S -M prepared -n -c "$clients" -j 2 -T "$seconds" -h "$host" -p "$port" postgres \
    | awk '/^tps/ { print $3; exit }' >>"$work/pgbench.txt"
  run=$(ycsb "${read_args[@]}" --phase run --duration "$seconds" --driver "$driver")
  phase_throughput "$run/summary.json" run >>"$work/binding.txt"
  echo "round $round: pgbench $(tail -n 1 "$work/pgbench.txt") tps, binding $(tail -n 1 "$work/binding.txt") ops/s"
done
pgbench_tps=$(median <"$work/pgbench.txt")
binding_ops=$(median <"$work/binding.txt")

# 2. Load, batched vs one row per statement, alternating.
load_rows=$((rows / 2))
: >"$work/batched.txt"
: >"$work/single.txt"
for round in $(seq 1 "$rounds"); do
  run=$(ycsb workloada --records "$load_rows" --phase load --batch-size 128 --database loadtest)
  phase_throughput "$run/summary.json" load >>"$work/batched.txt"
  run=$(ycsb workloada --records "$load_rows" --phase load --batch-size 1 --database loadtest)
  phase_throughput "$run/summary.json" load >>"$work/single.txt"
  echo "round $round: load batched $(tail -n 1 "$work/batched.txt") rows/s, one row per INSERT $(tail -n 1 "$work/single.txt") rows/s"
done
batched_rows=$(median <"$work/batched.txt")
single_rows=$(median <"$work/single.txt")

awk -v p="$pgbench_tps" -v b="$binding_ops" -v d="$driver" -v lb="$batched_rows" -v l1="$single_rows" 'BEGIN {
  printf "point reads (medians): pgbench -S -M prepared %.0f tps, binding (%s) %.0f ops/s: ratio %.2f (target >= 0.9)\n", p, d, b, b / p
  printf "load (medians): batched %.0f rows/s, one row per INSERT %.0f rows/s: ratio %.2f (target >= 3)\n", lb, l1, lb / l1
}'
