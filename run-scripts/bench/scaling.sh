#!/usr/bin/env bash
# The client's scaling curve: single-row primary-key reads (workloadc, uniform keys, one 84-byte
# field, like pgbench_accounts) at 1, 2, 4, 8, 16, 32 and 64 threads, each beside pgbench -S -M
# prepared at the same connection count, on one embedded PostgreSQL, measured in the same run.
# At each count it prints both sides' ops/s and client CPU per operation (whole process, user +
# system, from the shell's own `time`), the binding's CPU per operation inside its measured
# window after a warm-up (summary.json's client.cpu_us_per_op: no JVM start, little JIT), and
# the ratios. Sides alternate within each count; with --rounds above 1 the medians are compared.
#
# Usage: run-scripts/bench/scaling.sh [--threads "1 2 4 8 16 32 64"] [--seconds S] [--warmup S]
#                                     [--rows N] [--rounds N] [--driver pgjdbc|yugabyte] [--db-version V]
#                                     [--jobs N]
# (--driver: the harness's default for the server, pgjdbc on PostgreSQL, unless given; --jobs: the
#  binding's threads as virtual threads on N OS threads, as pgbench's -j, which needs a Java 21 or
#  later first on PATH)
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"
bench_without_probe

counts="1 2 4 8 16 32 64"
seconds=15
warmup=5
rows=100000
rounds=1
driver=
jobs=
version=17
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threads) counts=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --driver) driver=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
bench_need pgbench postgresql "for the reference" # Debian ships pgbench with the server, not the client

max=$(bench_largest --threads "$counts")

ybbench_build
bench_serve ServePostgres "$version" $((max + 20))
host=${hostport%:*}
port=${hostport##*:}
cores=$(nproc)
echo "PostgreSQL $server_version on $hostport, $cores cores: workloadc vs pgbench -S -M prepared," \
  "$rounds round(s) of ${seconds} s per count (binding: +${warmup} s warm-up${jobs:+, virtual threads on $jobs OS threads}),"\
  "$rows rows"
read_args=(workloadc --records "$rows" -p fieldcount=1 -p fieldlength=84 -p requestdistribution=uniform
  --user postgres ${driver:+--driver "$driver"})
scale=$(( (rows + 99999) / 100000 ))
PGUSER=postgres pgbench -i -q -s "$scale" -h "$host" -p "$port" postgres >/dev/null 2>&1
bench_ycsb "${read_args[@]}" --phase load --threads 8 >/dev/null

printf '%8s %12s %12s %10s %12s %12s %14s %10s %10s\n' threads "pgbench/s" "binding/s" "tput" \
  "pgbench µs" "binding µs" "window µs" "CPU/op" "window"
for n in $counts; do
  : >"$bench_work/p.txt"
  : >"$bench_work/b.txt"
  for _ in $(seq 1 "$rounds"); do
    bench_pgbench_reads "$n" "$seconds" >>"$bench_work/p.txt"
    bench_cpu "$YBBENCH_HOME/run_ycsb.sh" "${read_args[@]}" --phase run --threads "$n" ${jobs:+--jobs "$jobs"} \
      --duration "$seconds" --warmup "$warmup" --hosts "$hostport" --results-dir "$bench_work/results"
    run=$(bench_last_run "$bench_work/results")
    # Whole process: every operation it did, the warm-up's too, against all of its CPU.
    ops=$(( $(result "$run" summary.json '.phases.run.successes') + $(result "$run" summary.json \
      '.phases.warmup.successes // 0') ))
    echo "$(phase_throughput "$run" run) $(bench_per_op "$bench_cpu_s" "$ops")" \
      "$(result "$run" summary.json '.phases.run.client.cpu_us_per_op')" >>"$bench_work/b.txt"
  done
  p_tps=$(cut -d' ' -f1 "$bench_work/p.txt" | median)
  p_us=$(cut -d' ' -f2 "$bench_work/p.txt" | median)
  b_ops=$(cut -d' ' -f1 "$bench_work/b.txt" | median)
  b_us=$(cut -d' ' -f2 "$bench_work/b.txt" | median)
  b_win=$(cut -d' ' -f3 "$bench_work/b.txt" | median)
  awk -v n="$n" -v pt="$p_tps" -v bo="$b_ops" -v pu="$p_us" -v bu="$b_us" -v bw="$b_win" 'BEGIN {
    printf "%8d %12.0f %12.0f %9.2fx %12.1f %12.1f %14.1f %9.2fx %9.2fx\n", n, pt, bo, bo / pt, pu, bu, bw, bu / pu, bw / pu
  }'
done
echo "tput: binding ops/s / pgbench tps; CPU/op: binding whole-process µs / pgbench µs; window: the binding's" \
  "measured-window µs / pgbench µs (higher tput and lower CPU ratios are better)"
