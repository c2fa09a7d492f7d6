#!/usr/bin/env bash
# Every benchmark through one runner: ./ybbench BENCHMARK [options]; ./ybbench --help lists them. Builds
# if needed, then hands over to the runner, which finds the benchmark in its registry.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build
ybbench_charts "$@"
name=${1:-}
# A benchmark's name is its class-data archive's; anything else records none.
[[ $name =~ ^[a-z][a-z0-9_-]*$ ]] || name=ybbench
YBBENCH_SCRIPT=${YBBENCH_SCRIPT:-"ybbench $name"} ybbench_java "$name" dev.ybbench.harness.benchmark.Runner "$@"
