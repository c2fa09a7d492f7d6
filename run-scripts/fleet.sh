#!/usr/bin/env bash
# A fleet of YCSB clients on this machine: builds if needed, then hands over to
# dev.ybbench.ycsb.FleetCommand. Every flag is documented by run-scripts/fleet.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build
ybbench_charts "$@" # once here, not in every client at once
ybbench_java ycsb dev.ybbench.ycsb.FleetCommand "$@"
