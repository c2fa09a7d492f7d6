#!/usr/bin/env bash
# YCSB over YSQL and YCQL: builds if needed, then hands over to the runner. Every flag is documented by
# ./run_ycsb.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build
ybbench_charts "$@"
ybbench_java ycsb dev.ybbench.harness.benchmark.Runner ycsb "$@"
