#!/usr/bin/env bash
# A fleet of clients of one benchmark on this machine: builds if needed, then hands over to
# dev.ybbench.harness.fleet.FleetCommand. Every flag is documented by run-scripts/fleet.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build
ybbench_charts "$@" # once here, not in every client at once
# YCSB's clients unless --benchmark names another, as fleet.sh has always run them.
benchmark=(--benchmark ycsb)
for a in "$@"; do
  case "$a" in --benchmark | --benchmark=*) benchmark=() ;; esac
done
ybbench_java ycsb dev.ybbench.harness.fleet.FleetCommand "${benchmark[@]}" "$@"
