#!/usr/bin/env bash
# ./compare.sh BASELINE CANDIDATE — is the candidate slower, where, by how much (see --help).
# Exit code: 0 no regression, 1 at least one regression, 2 the comparison could not be made.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run-scripts/compare.sh" "$@"
