#!/usr/bin/env bash
# Version-to-version comparison: builds if needed, then hands over to
# dev.ybbench.analysis.Compare. Every flag is documented by ./compare.sh --help.
set -euo pipefail
# shellcheck source=run-scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ybbench_build
ybbench_charts "$@"
ybbench_java analysis dev.ybbench.analysis.Compare "$@"
