#!/usr/bin/env bash
# Fails when the generated code in libs/proto/src/gen differs from what the protos generate.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r libs/proto/src/gen "$tmp/before"
(cd proto && npx buf generate)
if ! diff -r "$tmp/before" libs/proto/src/gen >/dev/null; then
  diff -ru "$tmp/before" libs/proto/src/gen | head -40
  echo "proto:check: generated code drifted from proto/; run 'npm run proto:gen' and commit the result" >&2
  exit 1
fi
echo "proto:check: generated code matches proto/"
