#!/usr/bin/env bash
# Lints the commits a change adds against commitlint.config.mjs: those after COMMITLINT_FROM where
# set (a CI system's base branch), else those after .commitlint-base, the last commit made before
# the convention (its history is kept as it was written).
set -euo pipefail
cd "$(dirname "$0")/.."
from="${COMMITLINT_FROM:-$(cat .commitlint-base)}"
if ! git cat-file -e "${from}^{commit}" 2>/dev/null; then
  echo "lint-commits: ${from} is not in this clone (a shallow clone?); linting HEAD only"
  exec npx commitlint --from HEAD~1 --to HEAD
fi
if [ "$(git rev-list --count "${from}..HEAD")" = 0 ]; then
  echo "lint-commits: no commits after ${from}"
  exit 0
fi
exec npx commitlint --from "$from" --to HEAD
