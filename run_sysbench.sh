#!/usr/bin/env bash
# ./run_sysbench.sh TEST [COMMAND] [options] — sysbench's OLTP tests over YugabyteDB's YSQL API (see --help).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run-scripts/sysbench.sh" "$@"
