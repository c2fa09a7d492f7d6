#!/usr/bin/env bash
# ./run_pgbench.sh [pgbench's options] [DBNAME] — pgbench (or ysql_bench) over YSQL and PostgreSQL (see --help).
set -euo pipefail
YBBENCH_SCRIPT=run_pgbench.sh exec "$(dirname "${BASH_SOURCE[0]}")/run-scripts/ybbench.sh" pgbench "$@"
