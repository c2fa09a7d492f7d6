#!/usr/bin/env bash
# ./history.sh import|list — the history of runs that --history keeps (see --help and docs/history.md).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run-scripts/history.sh" "$@"
