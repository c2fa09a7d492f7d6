#!/usr/bin/env bash
# TPC-C over YSQL: builds if needed, then hands over to the runner. Every flag is documented by
# ./run_tpcc.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build
ybbench_charts "$@"
ybbench_java tpcc dev.ybbench.harness.benchmark.Runner tpcc "$@"
