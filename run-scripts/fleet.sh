#!/usr/bin/env bash
# A fleet of YCSB clients on this machine, as many client machines would drive one cluster:
# starts --clients N run_ycsb.sh processes against one target (--hosts, or one embedded server
# started here for them all), each with --clients N --client-index I and one --fleet id, waits
# for them, and merges their runs (run_ycsb.sh --merge). A load and a run phase are two steps,
# every client's load finishing before any client's run phase begins, each merged on its own.
# Then it checks the merged run against the server: the statements the server completed on the
# table must equal the operations the clients counted, and a load must have written exactly
# the records asked for.
#
# Several workloads run one after the other against the same server, so a scenario that reads
# what another loaded runs after it: a workload file's ybbench.phase (load or run) and
# ybbench.api are its defaults, as in run_ycsb.sh; --phase and --api override them.
#
# Usage: run-scripts/fleet.sh --clients N [--hosts H] [--api ysql|ycql] [--phase load|run|both]
#                             [--db-version V] [--results-dir DIR] WORKLOAD… [run_ycsb.sh options…]
# Example: run-scripts/fleet.sh --clients 4 workloada --records 100000 --threads 4
#          run-scripts/fleet.sh --clients 4 sqlinserts sqlinserts-read
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=run-scripts/common.sh
source "$here/common.sh"
# shellcheck source=run-scripts/bench/lib.sh
source "$here/bench/lib.sh"

clients=""
hosts=""
api=""
phase=""
version=""
results="$YBBENCH_HOME/results"
workloads=()
pass=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --clients) clients=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --api) api=$2; shift 2 ;;
    --phase) phase=$2; shift 2 ;;
    --db-version) version=$2; shift 2 ;;
    --results-dir) results=$2; shift 2 ;;
    --client-index|--fleet|--merge)
      echo "error: fleet.sh sets $1 itself; give --clients N" >&2; exit 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) pass+=("$1"); [[ $# -gt 1 && $2 != -* ]] && { pass+=("$2"); shift; }; shift ;;
    *) workloads+=("$1"); shift ;;
  esac
done
if ! [[ $clients =~ ^[1-9][0-9]*$ ]]; then
  echo "error: --clients N is needed, N at least 1 (see --help)" >&2
  exit 2
fi
if [[ ${#workloads[@]} -eq 0 ]]; then
  echo "error: name a workload, e.g. run-scripts/fleet.sh --clients 4 workloada" >&2
  exit 2
fi
# file_default WORKLOAD KEY: the workload file's ybbench.* default for a flag, if it sets one
# (the file as run_ycsb.sh finds it: a path, or a name in workloads/; it reports unknown ones).
file_default() {
  local f=$1
  [[ -f $f ]] || f="$YBBENCH_HOME/workloads/$1"
  [[ -f $f ]] || return 0
  sed -n "s/^[[:space:]]*$2[[:space:]]*[=:][[:space:]]*//p" "$f" | tail -n 1 | tr -d '[:space:]'
}
# steps WORKLOAD: the phases to run for it, as separate steps.
steps() {
  local p=${phase:-$(file_default "$1" ybbench.phase)}
  case "${p:-both}" in
    load) echo load ;;
    run) echo run ;;
    both) echo load run ;;
    *) echo "error: unknown phase '$p' for $1; use load, run or both" >&2; return 2 ;;
  esac
}
for workload in "${workloads[@]}"; do
  steps "$workload" >/dev/null || exit 2
  w_api=${api:-$(file_default "$workload" ybbench.api)}
  w_api=${w_api:-ysql}
  case "$w_api" in ysql|ycql) ;; *) echo "error: unknown API '$w_api' for $workload; use ysql or ycql" >&2; exit 2 ;; esac
  if [[ -n ${fleet_api:-} && $w_api != "$fleet_api" ]]; then
    echo "error: $workload is $w_api and ${workloads[0]} is $fleet_api: one server per call, so one API" >&2
    exit 2
  fi
  fleet_api=$w_api
done
pass+=(--api "$fleet_api")

ybbench_build ycsb-yugabyte
ybbench_charts "${pass[@]}" # once here, not in every client at once
if [[ -z $hosts ]]; then
  if [[ $(steps "${workloads[0]}") == run ]]; then
    echo "error: ${workloads[0]} runs over a table loaded earlier (phase run), and an embedded server started" \
      "here would be empty: name the workload that loads it first (e.g. sqlinserts sqlinserts-read) or give --hosts" >&2
    exit 2
  fi
  if [[ $fleet_api == ycql ]]; then
    bench_serve ServeCassandra "${version:-5.0}" 1
  else
    bench_serve ServePostgres "${version:-17}" $((clients * 40 + 20))
    pass+=(--user postgres)
  fi
  hosts=$hostport
  echo "Embedded server $server_version on $hosts, for $clients clients"
else
  bench_need jq jq "to read the results"
  bench_work=$(mktemp -d)
  trap 'rm -rf "$bench_work"' EXIT
fi
fleet_base="fleet-$(date -u +%Y%m%dT%H%M%SZ)-$$"

# step WORKLOAD PHASE: every client runs PHASE of WORKLOAD at once; prints the merged run directory.
step() {
  local workload=$1 p=$2 i pids=() dirs=() failed=0
  for ((i = 0; i < clients; i++)); do
    "$YBBENCH_HOME/run_ycsb.sh" "$workload" "${pass[@]}" --hosts "$hosts" --phase "$p" --clients "$clients" \
      --client-index "$i" --fleet "$fleet" --results-dir "$results" --no-install >"$bench_work/$p-$i.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < clients; i++)); do
    if ! wait "${pids[$i]}"; then
      echo "error: client $i of $clients failed its $p phase; the end of its log:" >&2
      tail -n 15 "$bench_work/$p-$i.log" >&2
      failed=1
    fi
    dirs+=("$(sed -n 's/^Results: //p' "$bench_work/$p-$i.log")")
  done
  ((failed == 0)) || exit 1
  if ((clients == 1)); then
    echo "${dirs[0]}" # one client's run is the fleet's run: nothing to merge
    return
  fi
  "$YBBENCH_HOME/run_ycsb.sh" --merge "${dirs[@]}" --results-dir "$results" --no-install \
    >"$bench_work/$p-merge.log" 2>&1 ||
    { cat "$bench_work/$p-merge.log" >&2; exit 1; }
  sed -n 's/^Merged [0-9]* runs: //p' "$bench_work/$p-merge.log"
}

status=0
n=0
for workload in "${workloads[@]}"; do
# Each workload's table is its own fleet's: clients waiting for it must not take the one before.
fleet="$fleet_base-$((n += 1))"
for p in $(steps "$workload"); do
  echo "[$p] $workload: $clients clients of fleet $fleet against $hosts …"
  merged=$(step "$workload" "$p")
  echo "[$p] $( ((clients > 1)) && echo merged || echo run): $merged"
  jq -r --arg p "$p" '.phases[$p] | "[\($p)] \(.successes) successes, \(.errors) errors, \(.retries) retries, "
      + "\(.throughput_ops) ops/s over \(.duration_s) s"
      + (.operations | to_entries | map(", \(.key) p99 \(.value.latency_us.p99 // "-") µs") | join(""))' \
    "$merged/summary.json"
  audit=$(jq -r --arg p "$p" '.phases[$p].server | select(. != null and .server_statements != null)
      | "\(.harness_operations) \(.server_statements)"' "$merged/summary.json")
  if [[ -n $audit ]]; then
    read -r ours theirs <<<"$audit"
    echo "[$p] server audit: the clients counted $ours operations, the server completed $theirs statements on the table"
    [[ $ours == "$theirs" ]] || { echo "error: [$p] the server's count differs from the clients'" >&2; status=1; }
  else
    echo "[$p] note: the server's statement counts cannot be read here, so the merged counts are not audited"
  fi
  if [[ $p == load ]]; then
    want=$(jq -r '.parameters.insertcount' "$merged/run.json")
    got=$(jq -r '.phases.load.operations.INSERT.successes' "$merged/summary.json")
    errors=$(jq -r '.phases.load.errors' "$merged/summary.json")
    if [[ $got != "$want" || $errors != 0 ]]; then
      echo "error: [load] the clients wrote $got of the $want records ($errors errors)" >&2
      status=1
    else
      echo "[load] the clients wrote exactly the $want records asked for"
    fi
  fi
done
done
exit $status
