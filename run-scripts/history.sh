#!/usr/bin/env bash
# The history of runs: builds if needed, then hands over to dev.ybbench.analysis.HistoryCommand.
# Every flag is documented by ./history.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build
ybbench_java analysis dev.ybbench.analysis.HistoryCommand "$@"
