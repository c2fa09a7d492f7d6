#!/usr/bin/env bash
# ./run_ycsb.sh WORKLOAD [options] — a YCSB run over YugabyteDB's YSQL API (see --help).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run-scripts/ycsb.sh" "$@"
