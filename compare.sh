#!/usr/bin/env bash
# ./compare.sh BASELINE CANDIDATE — is the candidate slower, where, by how much (see --help).
# Exit code: 0 every headline decided and none a regression, 1 a regression, 2 the comparison could
# not be made, 3 a headline undecided (run more rounds; --undecided pass|fail to decide otherwise).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run-scripts/compare.sh" "$@"
