#!/usr/bin/env bash
# Runs a suite of benchmarks against a baseline and a candidate, interleaved (A B A B …) so that
# drift on a noisy machine hits both sides alike, then compares them with compare.sh.
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
#   --repeat N        repetitions per side (3); intervals need at least 2
#   --duration S      seconds per YCSB run (30) or TPC-C measurement (60)
#   --records N       YCSB records (20000)
#   --threshold PCT   compare.sh's threshold (5)
#   --reuse-data      with hosts: load once per side, then only run (embedded servers start empty)
#   --results-dir D   where runs and the comparison go (results/)
#   --include-incomplete  go on past a run that failed or was interrupted, and let compare.sh use it
#                     (by default such a run stops the suite with exit code 2: it measured nothing
#                     that could stand for the side it belongs to)
# Exit code: compare.sh's (0 no regression, 1 regression, 2 could not compare).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "error: $*" >&2; exit 2; }

suite="" repeat=3 duration="" records=20000 threshold=5 reuse=false results="$root/results" incomplete=()
base_version="" cand_version="" base_hosts="" cand_hosts="" base_label="" cand_label=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --suite) suite=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
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
    ${incomplete[@]+"${incomplete[@]}"}
fi
case "$suite" in
  ycsb-core|ycql-core|tpcc-small) ;;
  "") die "--suite is missing: ycsb-core, ycql-core or tpcc-small" ;;
  *) die "unknown suite '$suite': use ycsb-core, ycql-core or tpcc-small" ;;
esac
[[ $repeat =~ ^[1-9][0-9]*$ ]] || die "--repeat must be a whole number of at least 1, was '$repeat'"
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
echo "Suite $suite, $repeat repetitions, interleaved; labels $base_label and $cand_label"

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

# one SIDE_LABEL REPETITION TARGET…: one repetition of the suite against one side.
one() {
  local label=$1 rep=$2
  shift 2
  local phase=both
  if [[ $reuse == true && $rep -gt 1 && ${1:-} == --hosts ]]; then
    phase=run
  fi
  case "$suite" in
    ycsb-core|ycql-core)
      local api=ysql
      [[ $suite == ycql-core ]] && api=ycql
      for w in workloada workloadb workloadc workloadd workloade workloadf; do
        echo "[$label #$rep] $w"
        one_run "$root/run_ycsb.sh" "$w" --api "$api" "$@" --records "$records" --duration "${duration:-30}" \
          --phase "$phase" --label "$label" --results-dir "$results"
      done
      ;;
    tpcc-small)
      echo "[$label #$rep] tpcc tiny"
      local phases=(--create --load --execute --check)
      [[ $phase == run ]] && phases=()  # with no phase flags run_tpcc.sh loads only what is missing
      one_run "$root/run_tpcc.sh" --config "$root/tpcc/config/tiny.xml" "$@" ${phases[@]+"${phases[@]}"} \
        --duration "${duration:-60}" --label "$label" --results-dir "$results"
      ;;
  esac
}

for rep in $(seq 1 "$repeat"); do
  one "$base_label" "$rep" "${base_target[@]}"
  one "$cand_label" "$rep" "${cand_target[@]}"
done
"$root/compare.sh" "$base_label" "$cand_label" --threshold "$threshold" --results-dir "$results" \
  ${incomplete[@]+"${incomplete[@]}"}
