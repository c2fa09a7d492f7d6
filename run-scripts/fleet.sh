#!/usr/bin/env bash
# A fleet of YCSB clients on this machine, as many client machines would drive one cluster:
# starts --clients N run_ycsb.sh processes against one target (--hosts, or one embedded server
# started here for them all), each with --clients N --client-index I and one --fleet id, waits
# for them, and merges their runs (run_ycsb.sh --merge). A load and a run phase are two steps,
# every client's load finishing before any client's run phase begins, each merged on its own.
# The merge checks the merged run against the server: the statements the server completed on the
# table must equal the operations the clients counted, and a load must have written exactly the
# records asked for; a difference, or a client that failed, is exit code 1.
#
# Several workloads run one after the other against the same server, so a scenario that reads
# what another loaded runs after it: a workload file's ybbench.phase (load or run) and
# ybbench.api are its defaults, as in run_ycsb.sh; --phase and --api override them.
#
# Usage: run-scripts/fleet.sh --clients N [--hosts H] [--api ysql|ycql] [--phase load|run|both]
#                             [--db-version V] [--results-dir DIR] [--history FILE|URL]
#                             WORKLOAD… [run_ycsb.sh options…]
# --history records the fleet's run (the merge of its clients' runs) into a history of runs.
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
history=""
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
    --history) history=$2; shift 2 ;; # the fleet's run is recorded (the merge), not each client's part
    --client-index|--fleet|--merge)
      echo "error: fleet.sh sets $1 itself; give --clients N" >&2; exit 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    # run_ycsb.sh's flags without a value: the word after them is a workload, not their value.
    --verbose|--no-install|--include-incomplete) pass+=("$1"); shift ;;
    --dry-run) echo "error: fleet.sh has no --dry-run; run_ycsb.sh WORKLOAD --dry-run shows one client's plan" >&2
      exit 2 ;;
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
ybbench_build ycsb-yugabyte
# Each workload's API and phases as run_ycsb.sh settles them (the flags, then the workload file's
# ybbench.* defaults), read from its plan (--dry-run), which also refuses bad input by name.
declare -A w_phase
for workload in "${workloads[@]}"; do
  if ! plan=$("$YBBENCH_HOME/run_ycsb.sh" "$workload" ${pass[@]+"${pass[@]}"} ${api:+--api "$api"} \
    ${phase:+--phase "$phase"} ${history:+--history "$history"} --hosts "${hosts:-127.0.0.1}" --dry-run \
    --no-install 2>&1); then
    echo "$plan" | tail -n 1 >&2
    exit 2
  fi
  w_api=$(sed -n 's/^  api: //p' <<<"$plan")
  case "$(sed -n 's/^  phase: //p' <<<"$plan")" in
    load) w_phase[$workload]=load ;;
    run) w_phase[$workload]=run ;;
    *) w_phase[$workload]="load run" ;;
  esac
  if [[ -n ${fleet_api:-} && $w_api != "$fleet_api" ]]; then
    echo "error: $workload is $w_api and ${workloads[0]} is $fleet_api: one server per call, so one API" >&2
    exit 2
  fi
  fleet_api=$w_api
done
pass+=(--api "$fleet_api")

ybbench_charts "${pass[@]}" # once here, not in every client at once
if [[ -z $hosts ]]; then
  if [[ ${w_phase[${workloads[0]}]} == run ]]; then
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
  bench_work=$(mktemp -d)
  trap 'rm -rf "$bench_work"' EXIT
fi
fleet_base="fleet-$(date -u +%Y%m%dT%H%M%SZ)-$$"

# step WORKLOAD PHASE: every client runs PHASE of WORKLOAD at once, then their runs are merged and
# audited (run_ycsb.sh --merge: the server's count of statements on the table against the
# clients' operations, a load's rows against the records asked for). Exit 1 when a client failed
# or a count differs.
step() {
  local workload=$1 p=$2 i pids=() dirs=() failed=0
  local own=()
  ((clients == 1)) && [[ -n $history ]] && own=(--history "$history")
  for ((i = 0; i < clients; i++)); do
    "$YBBENCH_HOME/run_ycsb.sh" "$workload" "${pass[@]}" --hosts "$hosts" --phase "$p" --clients "$clients" \
      --client-index "$i" --fleet "$fleet" --results-dir "$results" --no-install ${own[@]+"${own[@]}"} \
      >"$bench_work/$p-$i.log" 2>&1 &
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
  ((failed == 0)) || return 1
  if ((clients == 1)); then
    # One client's run is the fleet's run: nothing to merge; its own audit line says what the server counted.
    echo "[$p] run: ${dirs[0]}"
    sed -n "s/^Server audit ($p): /[$p] server audit: /p" "$bench_work/$p-0.log"
    grep '^History: ' "$bench_work/$p-0.log" || true
    return 0
  fi
  local rc=0
  "$YBBENCH_HOME/run_ycsb.sh" --merge "${dirs[@]}" --results-dir "$results" --no-install \
    ${history:+--history "$history"} || rc=$?
  return $rc
}

n=0
for workload in "${workloads[@]}"; do
  # Each workload's table is its own fleet's: clients waiting for it must not take the one before.
  fleet="$fleet_base-$((n += 1))"
  for p in ${w_phase[$workload]}; do
    echo "[$p] $workload: $clients clients of fleet $fleet against $hosts …"
    step "$workload" "$p" || exit 1 # what follows would read a table this step did not finish
  done
done
