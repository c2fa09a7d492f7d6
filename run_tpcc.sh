#!/usr/bin/env bash
# ./run_tpcc.sh [options] — TPC-C over YugabyteDB's YSQL API, BenchBase-format config (see --help).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run-scripts/tpcc.sh" "$@"
