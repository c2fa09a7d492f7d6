#!/usr/bin/env bash
# YCSB over YSQL: builds if needed, then hands over to dev.ybbench.ycsb.RunYcsb.
# Every flag is documented by ./run_ycsb.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build ycsb-yugabyte
ybbench_charts "$@"
ybbench_java ycsb-yugabyte dev.ybbench.ycsb.RunYcsb "$@"
