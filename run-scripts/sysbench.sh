#!/usr/bin/env bash
# sysbench's OLTP tests over YSQL: builds if needed, then hands over to the runner (which installs
# sysbench as root where it is missing). Every flag is documented by ./run_sysbench.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build
ybbench_charts "$@"
ybbench_java sysbench dev.ybbench.harness.benchmark.Runner sysbench "$@"
