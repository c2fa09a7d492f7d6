#!/usr/bin/env bash
# Every ratio of the harness against the tools it replaces, in one run, each measured against its
# reference on the same server in the same run (sides alternated, medians), and the table of them
# in Markdown at the end, as docs/performance.md shows it:
#
#   1. TPC-C against BenchBase (tpcc.sh --benchbase): goodput, tpmC, client CPU and peak RSS;
#   2. YCSB a, c, e and a load against upstream YCSB 0.17.0's JDBC binding (vs-upstream.sh):
#      throughput and client CPU per operation, steady state and whole process, and the
#      server's CPU per operation beside each side's;
#   3. point reads at 8 and 16 threads against pgbench -S -M prepared (scaling.sh).
#
# Each script's own output is kept in DIR (--out, default a new directory under /tmp) and its
# summary printed as it ends. Takes about 40 minutes on 2 cores (YCSB's runs last 60 s after 10 s,
# so that a JVM's start weighs on the whole-process figures as on a real run, not a short one).
#
# Usage: run-scripts/bench/all.sh --benchbase DIR --upstream-jar JAR [--out DIR] [--rounds N]
# (BenchBase: its unpacked target/benchbase-postgres.tgz; BENCHBASE_JAVA when it needs a newer java;
#  upstream YCSB's jar: vs-upstream.sh --help says how to build it.)
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"

benchbase=""
upstream_jar=""
out=""
rounds=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --benchbase) benchbase=$2; shift 2 ;;
    --upstream-jar) upstream_jar=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [[ ! -f $benchbase/benchbase.jar || ! -f $upstream_jar ]]; then
  echo "error: --benchbase DIR (with benchbase.jar) and --upstream-jar JAR are both needed (see --help)" >&2
  exit 2
fi
out=${out:-$(mktemp -d)}
mkdir -p "$out"
echo "Logs in $out"

"$here/tpcc.sh" --benchbase "$benchbase" --rounds "$rounds" --seconds 30 | tee "$out/tpcc.log" | sed -n '/^vs BenchBase/,$p'
"$here/vs-upstream.sh" --upstream-jar "$upstream_jar" --rounds "$rounds" --seconds 60 --warmup 10 --load-rows 300000 | tee "$out/vs-upstream.log" |
  grep '(medians)'
"$here/scaling.sh" --threads "8 16" --rounds "$rounds" --seconds 15 | tee "$out/scaling.log" | tail -n 4

# The table: each row's figures as the scripts printed them.
{
  echo "| measure | ybbench | reference | ratio |"
  echo "|---|---|---|---|"
  awk '/^vs BenchBase/ { on = 1; next }
    on && /goodput|tpmC|client CPU|client peak RSS/ {
      n = split($0, f, /  +/)
      printf "| TPC-C %s | %s | BenchBase %s | %s |\n", f[2], f[3], f[4], f[5] }' "$out/tpcc.log"
  perl - "$out/vs-upstream.log" <<'PERL'
while (<>) {
  if (/^(workload\w) \(medians\): binding (\d+) ops\/s, ([\d.]+) µs CPU\/op \(whole process ([\d.]+)\); upstream (\d+) ops\/s, ([\d.]+) µs CPU\/op \(whole process ([\d.]+)\): throughput ([\d.]+x), CPU\/op ([\d.]+x), whole-process CPU\/op ([\d.]+x)/) {
    print "| YCSB $1 ops/s | $2 | upstream 0.17.0 $5 | $8 |\n";
    print "| YCSB $1 CPU per operation, steady state (whole process) | $3 µs ($4) | $6 µs ($7) | $9 ($10) |\n";
    my $w = $1;
    print "| YCSB $w: the server's CPU per operation | $1 µs | $2 µs | $3 |\n" if /server CPU\/op ([\d.]+) µs against ([\d.]+) µs \(([\d.]+x)\)/;
  } elsif (/^load of (\d+) rows \(medians\): binding (\d+) rows\/s, ([\d.]+) µs CPU\/row.*upstream (\d+) rows\/s, ([\d.]+) µs CPU\/row.*throughput ([\d.]+x), CPU\/row ([\d.]+x)/) {
    print "| YCSB load of $1 rows: rows/s | $2 | upstream 0.17.0 $4 | $6 |\n";
    print "| YCSB load: CPU per row | $3 µs | $5 µs | $7 |\n";
    print "| YCSB load: the server's CPU per row | $1 µs | $2 µs | $3 |\n" if /server CPU\/row ([\d.]+) µs against ([\d.]+) µs \(([\d.]+x)\)/;
  }
}
PERL
  awk '$1 ~ /^[0-9]+$/ && NF == 9 {
    printf "| point reads, %d threads: reads/s | %s | pgbench %s | %s |\n", $1, $3, $2, $4
    printf "| point reads, %d threads: CPU per read, window (whole process) | %s µs (%s) | %s µs | %s (%s) |\n",
      $1, $7, $6, $5, $9, $8 }' "$out/scaling.log"
} | tee "$out/table.md"
