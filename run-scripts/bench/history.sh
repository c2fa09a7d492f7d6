#!/usr/bin/env bash
# How a release pipeline's single runs are judged on this machine: one run per "build", each on a
# fresh embedded server (load, then run), as a nightly job runs them.
#
#   history:    --history N runs recorded into a history (--history on the runner);
#   throttled:  --tries single runs paced to each --throttle % (a list: 85,60) of the history's
#               median rate, each judged against the history (compare.sh --history): right when
#               "regression";
#   same:       --tries single unpaced runs judged against the history: wrong when decided
#               "regression" or "improvement";
#   one a side: --pairs pairs of two unpaced runs compared with each other (compare.sh A B), as a
#               pipeline without a history would: wrong when decided either way.
#
# A first run warms the machine's caches (the binaries, the page cache) and is not counted.
#
# Usage: run-scripts/bench/history.sh [--history N] [--tries N] [--pairs N] [--throttle PCT]
#                                     [--seconds S] [--warmup S] [--records N] [--threads N]
#                                     [--threshold PCT]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/../common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/lib.sh"

history=8
tries=10
pairs=40
throttle=85
seconds=20
warmup=0
records=10000
threads=4
threshold=5
while [[ $# -gt 0 ]]; do
  case "$1" in
    --history) history=$2; shift 2 ;;
    --tries) tries=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --throttle) throttle=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --threshold) threshold=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$history" "$tries" "$pairs" "$seconds" "$records" "$threads" ${throttle//,/ }; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "error: every count must be a whole number above 0, one was '$n'" >&2; exit 2; }
done
[[ $warmup =~ ^[0-9]+$ ]] || { echo "error: --warmup must be whole seconds, was '$warmup'" >&2; exit 2; }

ybbench_build  # compare.sh uses the build as it is
export YBBENCH_SKIP_BUILD=1
bench_need jq jq "to read the results"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db="$work/history.db"

# night RESULTS_DIR ARGS…: one run on a fresh embedded server into RESULTS_DIR; prints its run directory.
night() {
  local log="$work/run.log" dir=$1
  shift
  "$YBBENCH_HOME/run_ycsb.sh" workloadc --records "$records" --duration "$seconds" --warmup "$warmup" \
    --threads "$threads" --no-install --results-dir "$dir" "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
  bench_last_run "$dir"
}

# verdict ARGS…: compare.sh's headline verdict, one word (no_change for "no change").
verdict() {
  local out="$work/compare.out" rc=0
  "$YBBENCH_HOME/compare.sh" "$@" --threshold "$threshold" --results-dir "$work/results" --out "$work/cmp" \
    >"$out" 2>&1 || rc=$?
  if ((rc == 2)); then
    cat "$out" >&2
    exit 1
  fi
  jq -r '.rows[] | select(.headline) | .verdict | gsub(" "; "_")' "$work/cmp/comparison.json"
  # The headline's own line (its change, interval and runs), for saying why a try went as it did.
  grep -m1 -E '^(REGRESSION|IMPROVEMENT|NO CHANGE|INCONCLUSIVE) .*throughput' "$out" | cut -c1-600 >"$work/detail" || true
  rm -rf "$work/cmp"
}

echo "workloadc, $records records, $threads threads, ${seconds} s runs after ${warmup} s of warm-up, each on a" \
  "fresh embedded PostgreSQL; threshold $threshold %"
night "$work/warm" >/dev/null
rates=()
for i in $(seq 1 "$history"); do
  run=$(night "$work/results" --history "$db")
  rates+=("$(phase_throughput "$run" run)")
  echo "history run $i: ${rates[-1]} ops/s"
done
med=$(printf '%s\n' "${rates[@]}" | median)
spread=$(printf '%s\n' "${rates[@]}" | awk '{ l = log($1); s += l; q += l * l; n++ }
  END { printf "%.1f", 100 * sqrt((q - s * s / n) / (n - 1)) }')
echo "history: median $med ops/s, runs differ by $spread % (sd of the log)"

declare -A count
unpaced=()
for i in $(seq 1 "$tries"); do
  for pct in ${throttle//,/ }; do
    target=$(awk -v m="$med" -v p="$pct" 'BEGIN { printf "%d", m * p / 100 }')
    run=$(night "$work/candidates" --target "$target")
    v=$(verdict --history "$db" "$run")
    count[throttled${pct}_$v]=$((${count[throttled${pct}_$v]:-0} + 1))
    echo "try $i, throttled to $pct % ($target ops/s): $(phase_throughput "$run" run) ops/s: $v"
    echo "  $(cat "$work/detail")"
  done
  run=$(night "$work/candidates")
  unpaced+=("$run")
  v=$(verdict --history "$db" "$run")
  count[same_$v]=$((${count[same_$v]:-0} + 1))
  echo "try $i, unthrottled: $(phase_throughput "$run" run) ops/s: $v"
  echo "  $(cat "$work/detail")"
done

# One run a side: pairs of the unpaced runs and the history's runs, each pair once.
all=("${unpaced[@]}" "$work"/results/2*)
n=${#all[@]}
done_pairs=0
for ((gap = 1; gap < n && done_pairs < pairs; gap++)); do
  for ((i = 0; i + gap < n && done_pairs < pairs; i++)); do
    v=$(verdict "${all[i]}" "${all[i + gap]}")
    count[pair_$v]=$((${count[pair_$v]:-0} + 1))
    done_pairs=$((done_pairs + 1))
  done
done

summary() {
  local scenario=$1 total=$2 out="" v
  for v in regression improvement no_change inconclusive; do
    out+="$v ${count[${scenario}_$v]:-0}, "
  done
  echo "$scenario ($total): ${out%, }"
}
echo
for pct in ${throttle//,/ }; do
  summary "throttled$pct" "$tries"
done
summary same "$tries"
summary pair "$done_pairs"
