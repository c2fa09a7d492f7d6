#!/usr/bin/env bash
# Runs a suite of benchmarks against a baseline and a candidate in interleaved rounds, each round
# running every workload once on each side in a random order (randomized multiple interleaved
# trials, Abedi & Brecht, ICPE 2017), so that drift on a noisy machine hits both sides alike and
# compare.sh can pair them by round; then compares them with compare.sh.
#
# Usage: run-scripts/regress.sh --suite SUITE [--repeat N] SIDES [options]
#
# Suites:   ycsb-core   YCSB workloads a–f over YSQL
#           ycql-core   YCSB workloads a–f over YCQL
#           tpcc-small  TPC-C, tpcc/config/tiny.xml (1 warehouse, 4 terminals)
# Sides, one pair of:
#   --baseline-version V --candidate-version V   embedded servers (PostgreSQL 13–18 for YSQL,
#                                                 Cassandra 4.1 / 5.0 for YCQL)
#   --baseline-hosts H --candidate-hosts H       two YugabyteDB clusters (host[:port],…)
#   --baseline-label L --candidate-label L       runs already in results/ (nothing is run)
# Options:
#   --repeat N        rounds (3); with --until-decided, the rounds before the first look
#   --until-decided   after --repeat rounds, compare after every round and stop once every headline
#                     verdict is decided or the budget is spent (repeated looks are accounted for)
#   --budget T        machine time for --until-decided, e.g. 20m, 1h, 900s (20m)
#   --workloads LIST  YCSB suites: only these workloads, e.g. workloadc or workloada,workloadc
#   --baseline-args "ARGS" / --candidate-args "ARGS"  more flags for one side's runs (word-split),
#                     e.g. --candidate-args "--target 5000" to throttle it
#   --gate P          compare.sh --gate: a latency percentile gates too (p99)
#   --undecided pass|fail  compare.sh --undecided: what a headline still undecided at the end means
#                     for the exit code (by default 3)
#   --seed N          the random order of sides per round, repeatable (default: random)
#   --duration S      seconds per YCSB run (30) or TPC-C measurement (60)
#   --records N       YCSB records (20000)
#   --threshold PCT   compare.sh's threshold (5)
#   --reuse-data      with hosts: load once per side, then only run (embedded servers start empty)
#   --results-dir D   where runs and the comparison go (results/)
#   --include-incomplete  go on past a run that failed or was interrupted, and let compare.sh use it
#                     (by default such a run stops the suite with exit code 2: it measured nothing
#                     that could stand for the side it belongs to)
# Exit code: compare.sh's (0 every headline decided and none a regression, 1 regression, 2 could
# not compare, 3 a headline undecided); with --until-decided a budget spent before every headline
# was decided is said, and is exit 3 unless --undecided says otherwise.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

usage() { sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "error: $*" >&2; exit 2; }

suite="" repeat=3 duration="" records=20000 threshold=5 reuse=false results="$root/results" incomplete=()
until_decided=false budget=20m workloads="" base_args="" cand_args="" gate=() undecided=() seed=""
base_version="" cand_version="" base_hosts="" cand_hosts="" base_label="" cand_label=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --suite) suite=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --until-decided) until_decided=true; shift ;;
    --budget) budget=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --baseline-args) base_args=$2; shift 2 ;;
    --candidate-args) cand_args=$2; shift 2 ;;
    --gate) gate=(--gate "$2"); shift 2 ;;
    --undecided) undecided=(--undecided "$2"); shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --threshold) threshold=$2; shift 2 ;;
    --reuse-data) reuse=true; shift ;;
    --include-incomplete) incomplete=(--include-incomplete); shift ;;
    --results-dir) results=$2; shift 2 ;;
    --baseline-version) base_version=$2; shift 2 ;;
    --candidate-version) cand_version=$2; shift 2 ;;
    --baseline-hosts) base_hosts=$2; shift 2 ;;
    --candidate-hosts) cand_hosts=$2; shift 2 ;;
    --baseline-label) base_label=$2; shift 2 ;;
    --candidate-label) cand_label=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

if [[ -n $base_label || -n $cand_label ]]; then
  [[ -n $base_label && -n $cand_label ]] || die "give both --baseline-label and --candidate-label"
  exec "$root/compare.sh" "$base_label" "$cand_label" --threshold "$threshold" --results-dir "$results" \
    ${gate[@]+"${gate[@]}"} ${undecided[@]+"${undecided[@]}"} ${incomplete[@]+"${incomplete[@]}"}
fi
case "$suite" in
  ycsb-core|ycql-core|tpcc-small) ;;
  "") die "--suite is missing: ycsb-core, ycql-core or tpcc-small" ;;
  *) die "unknown suite '$suite': use ycsb-core, ycql-core or tpcc-small" ;;
esac
[[ $repeat =~ ^[1-9][0-9]*$ ]] || die "--repeat must be a whole number of at least 1, was '$repeat'"
# --budget: 20m, 1h, 90s or plain seconds.
if [[ $budget =~ ^([0-9]+)(s|m|h)?$ ]]; then
  case "${BASH_REMATCH[2]}" in
    h) budget_s=$((BASH_REMATCH[1] * 3600)) ;;
    m) budget_s=$((BASH_REMATCH[1] * 60)) ;;
    *) budget_s=${BASH_REMATCH[1]} ;;
  esac
else
  die "--budget must be a duration such as 20m, 1h or 900s, was '$budget'"
fi
[[ -z $seed || $seed =~ ^[0-9]+$ ]] || die "--seed must be a whole number, was '$seed'"
suite_workloads=(workloada workloadb workloadc workloadd workloade workloadf)
if [[ -n $workloads ]]; then
  [[ $suite == tpcc-small ]] && die "--workloads is for the YCSB suites; tpcc-small runs one configuration"
  IFS=, read -r -a suite_workloads <<<"$workloads"
  for w in "${suite_workloads[@]}"; do
    [[ -f "$root/workloads/$w" ]] || die "--workloads: no workload file workloads/$w"
  done
fi
read -r -a base_extra <<<"$base_args"
read -r -a cand_extra <<<"$cand_args"
if [[ -n $base_version || -n $cand_version ]]; then
  [[ -n $base_version && -n $cand_version ]] || die "give both --baseline-version and --candidate-version"
  [[ -z $base_hosts && -z $cand_hosts ]] || die "give versions or hosts, not both"
  base_target=(--db-version "$base_version")
  cand_target=(--db-version "$cand_version")
  base_name=$base_version cand_name=$cand_version
elif [[ -n $base_hosts && -n $cand_hosts ]]; then
  base_target=(--hosts "$base_hosts")
  cand_target=(--hosts "$cand_hosts")
  base_name=baseline cand_name=candidate
else
  die "name the two sides: --baseline-version/--candidate-version, --baseline-hosts/--candidate-hosts or labels"
fi

# Build once; every run of the suite then uses that build, whatever is edited meanwhile.
# shellcheck source=run-scripts/common.sh
source "$here/common.sh"
ybbench_build harness
ybbench_build ycsb-yugabyte
ybbench_build tpcc
export YBBENCH_SKIP_BUILD=1

stamp=$(date -u +%Y%m%dT%H%M%SZ)
base_label="regress-$stamp-$suite-baseline-$base_name"
cand_label="regress-$stamp-$suite-candidate-$cand_name"
if [[ $until_decided == true ]]; then
  echo "Suite $suite: $repeat rounds, then one more at a time until decided (budget $budget); the sides in a" \
    "random order each round; labels $base_label and $cand_label"
else
  echo "Suite $suite: $repeat rounds, the sides in a random order each round; labels $base_label and $cand_label"
fi

# one_run RUNNER ARGS…: one run; a run that did not complete ends the suite (exit 2, with its last
# line, which names the run directory and the reason) unless --include-incomplete was given.
one_run() {
  local log rc=0
  log=$(mktemp)
  "$@" >"$log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    if [[ ${#incomplete[@]} -gt 0 && ($rc -eq 1 || $rc -eq 130) ]]; then
      echo "warning: $(tail -n 1 "$log")" >&2
    else
      tail -n 3 "$log" >&2
      rm -f "$log"
      echo "error: a run of the suite did not complete (exit $rc); fix the cause, or pass --include-incomplete" >&2
      exit 2
    fi
  fi
  rm -f "$log"
}

# one SIDE WORKLOAD ROUND: one run of one workload (or of TPC-C) against one side.
one() {
  local side=$1 w=$2 rep=$3 label phase=both
  local target=() extra=()
  if [[ $side == baseline ]]; then
    label=$base_label target=("${base_target[@]}") extra=(${base_extra[@]+"${base_extra[@]}"})
  else
    label=$cand_label target=("${cand_target[@]}") extra=(${cand_extra[@]+"${cand_extra[@]}"})
  fi
  if [[ $reuse == true && $rep -gt 1 && ${target[0]} == --hosts ]]; then
    phase=run
  fi
  case "$suite" in
    ycsb-core|ycql-core)
      local api=ysql
      [[ $suite == ycql-core ]] && api=ycql
      echo "[round $rep, $side] $w"
      one_run "$root/run_ycsb.sh" "$w" --api "$api" "${target[@]}" --records "$records" --duration "${duration:-30}" \
        --phase "$phase" --label "$label" --results-dir "$results" ${extra[@]+"${extra[@]}"}
      ;;
    tpcc-small)
      echo "[round $rep, $side] tpcc tiny"
      local phases=(--create --load --execute --check)
      [[ $phase == run ]] && phases=()  # with no phase flags run_tpcc.sh loads only what is missing
      one_run "$root/run_tpcc.sh" --config "$root/tpcc/config/tiny.xml" "${target[@]}" \
        ${phases[@]+"${phases[@]}"} --duration "${duration:-60}" --label "$label" --results-dir "$results" \
        ${extra[@]+"${extra[@]}"}
      ;;
  esac
}

# round N: every workload once on each side, the two sides in a random order per workload.
round() {
  local rep=$1 w
  local list=("${suite_workloads[@]}")
  [[ $suite == tpcc-small ]] && list=(tpcc)
  for w in "${list[@]}"; do
    if (( RANDOM % 2 == 0 )); then
      one baseline "$w" "$rep"; one candidate "$w" "$rep"
    else
      one candidate "$w" "$rep"; one baseline "$w" "$rep"
    fi
  done
}

compare() {
  "$root/compare.sh" "$base_label" "$cand_label" --threshold "$threshold" --results-dir "$results" \
    ${gate[@]+"${gate[@]}"} ${undecided[@]+"${undecided[@]}"} ${incomplete[@]+"${incomplete[@]}"} "$@"
}

[[ -n $seed ]] && RANDOM=$seed
start=$SECONDS
rep=0
while (( rep < repeat )); do
  rep=$((rep + 1))
  round "$rep"
done
if [[ $until_decided != true ]]; then
  compare
  exit $?
fi

# Adaptive rounds: the last round a budget allows is planned from the rounds so far, and every
# look after round $repeat widens its intervals for all the planned looks (compare.sh --looks).
per_round=$(( (SECONDS - start) / repeat ))
last=$(( budget_s / (per_round > 0 ? per_round : 1) ))
(( last < repeat )) && last=$repeat
echo "Until decided: ${per_round} s a round, at most $last rounds in the ${budget} budget"
while true; do
  rc=0
  compare --looks "$repeat-$last" || rc=$?
  [[ $rc -ne 3 ]] && exit "$rc"
  if (( rep >= last || SECONDS - start + per_round > budget_s )); then
    echo "Budget spent after $rep rounds ($((SECONDS - start)) s): the headlines above marked inconclusive are" \
      "undecided; the final look:"
    rc=0
    compare --looks "$repeat-$rep" || rc=$?
    exit "$rc"
  fi
  rep=$((rep + 1))
  round "$rep"
done
