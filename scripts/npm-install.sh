#!/usr/bin/env bash
# Installs the npm packages of each DIR given (web: cubing.js and three for the 3D view and
# the puzzle definitions; tests/browser: playwright-core) exactly as its package-lock.json pins
# them (`npm ci`), unless they already are: a copy of the lock file kept in node_modules after
# an install says so, because `npm ci` removes node_modules and installs again every time.
# Usage: scripts/npm-install.sh DIR...
set -euo pipefail
cd "$(dirname "$0")/.."
for dir in "$@"; do
  stamp=$dir/node_modules/.cubelab-installed-lock.json
  if [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then
    continue
  fi
  npm ci --prefix "$dir" --silent --no-audit --no-fund >/dev/null
  cp "$dir/package-lock.json" "$stamp"
done
