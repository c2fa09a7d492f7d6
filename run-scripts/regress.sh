#!/usr/bin/env bash
# Release regression suite: builds once, then hands over to dev.ybbench.analysis.regress.Regress,
# which runs the suite's workloads against a baseline and a candidate in interleaved rounds and
# compares them. Every flag is documented by run-scripts/regress.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# Build once; every run of the suite then uses that build, whatever is edited meanwhile.
ybbench_build
ybbench_charts "$@"
export YBBENCH_SKIP_BUILD=1
ybbench_java analysis dev.ybbench.analysis.regress.Regress "$@"
