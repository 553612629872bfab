#!/usr/bin/env bash
# Lints the commits a change adds against commitlint.config.mjs: those after COMMITLINT_FROM where
# set (a CI system's base branch; it must be in the clone), else those after .commitlint-base, the
# last commit made before the convention (its history is kept as it was written). In a clone too
# shallow to hold that base, it lints the newest commit alone, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${COMMITLINT_FROM:-}" ]; then
  if ! git cat-file -e "${COMMITLINT_FROM}^{commit}" 2>/dev/null; then
    echo "lint-commits: COMMITLINT_FROM=${COMMITLINT_FROM} is not a commit in this clone (fetch it, or unset it)" >&2
    exit 2
  fi
  from="$COMMITLINT_FROM"
else
  from="$(cat .commitlint-base)"
  if ! git cat-file -e "${from}^{commit}" 2>/dev/null; then
    echo "lint-commits: ${from} (.commitlint-base) is not in this clone (a shallow clone?); linting the newest commit alone"
    git log -1 --format=%B | npx commitlint
    exit 0
  fi
fi
if [ "$(git rev-list --count "${from}..HEAD")" = 0 ]; then
  echo "lint-commits: no commits after ${from}"
  exit 0
fi
npx commitlint --from "$from" --to HEAD
echo "lint-commits: $(git rev-list --count --no-merges "${from}..HEAD") commits after ${from} follow the convention"
