#!/usr/bin/env bash
# How often compare.sh's verdict is right on this machine, and how much machine time a decision
# takes. On one embedded PostgreSQL, with workloadc loaded once, each decision is one
# `regress.sh --until-decided` of workloadc in randomized interleaved rounds:
#
#   throttled: the candidate paced to 90 % of the baseline's rate, measured just before
#              (right when the verdict is "regression");
#   same:      the same server and settings on both sides (right when it is "no change";
#              "inconclusive" is not wrong, only undecided within the budget).
#
# Usage: run-scripts/bench/verdict.sh [--decisions N] [--seconds S] [--records N] [--threads N]
#                                     [--budget T] [--threshold PCT] [--db-version V] [--seed N]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"

decisions=5
seconds=20
records=20000
threads=4
budget=10m
threshold=5
version=17
seed=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --decisions) decisions=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --threshold) threshold=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $decisions =~ ^[1-9][0-9]*$ ]] || { echo "error: --decisions must be a whole number, was '$decisions'" >&2; exit 2; }

ybbench_build
bench_serve ServePostgres "$version" $((threads * 4 + 20))
common=(--user postgres --threads "$threads")
echo "PostgreSQL $server_version on $hostport: workloadc, ${seconds} s runs, $threads threads, budget $budget a" \
  "decision, threshold $threshold %"
bench_ycsb workloadc --records "$records" --phase load "${common[@]}" >/dev/null

# decide SCENARIO CANDIDATE_ARGS: one regress.sh --until-decided; writes "verdict rounds seconds" to
# $bench_work/decision (a regress.sh that could not compare stops the benchmark with its log).
decide() {
  local scenario=$1 cand_args=$2 log="$bench_work/regress.log" started=$SECONDS rc=0
  "$YBBENCH_HOME/run-scripts/regress.sh" --suite ycsb-core --workloads workloadc --until-decided --budget "$budget" \
    --baseline-hosts "$hostport" --candidate-hosts "$hostport" --reuse-data --records "$records" \
    --duration "$seconds" --threshold "$threshold" --seed "$((seed++))" --results-dir "$bench_work/results" \
    --baseline-args "${common[*]}" --candidate-args "${common[*]} $cand_args" >"$log" 2>&1 || rc=$?
  if [[ $rc -ne 0 && $rc -ne 1 ]]; then
    cat "$log" >&2
    echo "error: regress.sh exited $rc" >&2
    exit 1
  fi
  local report
  report=$(find "$bench_work/results/compare" -name comparison.json -newer "$log.start" | sort | tail -n 1)
  # "no change" becomes no_change: one word per field.
  echo "$(jq -r '.rows[] | select(.headline) | .verdict | gsub(" "; "_")' "$report") $(jq -r '.rows[] |
    select(.headline) | .baseline_runs + (if .set_aside then 1 else 0 end)' "$report") $((SECONDS - started))" \
    >"$bench_work/decision"
}

: >"$bench_work/outcomes.txt"
for k in $(seq 1 "$decisions"); do
  touch "$bench_work/regress.log.start"
  run=$(bench_ycsb workloadc --records "$records" --phase run --duration "$seconds" "${common[@]}")
  rate=$(phase_throughput "$run" run)
  target=$(awk -v r="$rate" 'BEGIN { printf "%d", r * 0.9 }')
  decide throttled "--target $target"
  read -r verdict rounds secs <"$bench_work/decision"
  echo "decision $k, throttled to $target ops/s (90 % of $rate): $verdict after $rounds rounds, $secs s"
  echo "throttled $verdict $secs" >>"$bench_work/outcomes.txt"
  touch "$bench_work/regress.log.start"
  decide same ""
  read -r verdict rounds secs <"$bench_work/decision"
  echo "decision $k, same versus same: $verdict after $rounds rounds, $secs s"
  echo "same $verdict $secs" >>"$bench_work/outcomes.txt"
done

right_throttled=$(awk '$1 == "throttled" && $2 == "regression"' "$bench_work/outcomes.txt" | wc -l)
right_same=$(awk '$1 == "same" && $2 == "no_change"' "$bench_work/outcomes.txt" | wc -l)
wrong_same=$(awk '$1 == "same" && $2 == "regression"' "$bench_work/outcomes.txt" | wc -l)
echo "throttled called regression: $right_throttled/$decisions; median $(awk '$1 == "throttled" { print $NF }' \
  "$bench_work/outcomes.txt" | median) s a decision"
echo "same called no change: $right_same/$decisions (called regression: $wrong_same); median $(awk \
  '$1 == "same" { print $NF }' "$bench_work/outcomes.txt" | median) s a decision"
