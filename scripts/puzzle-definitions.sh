#!/usr/bin/env bash
# Writes cubing.js's KPuzzle definitions, one DIR/NAME.kpuzzle.json a puzzle (default DIR:
# data/puzzles, where `cubelab puzzle` finds a puzzle by name), from the `cubing` npm package
# the web editor pins (installed by `npm ci --prefix web` if missing; Node.js and npm).
# Usage: scripts/puzzle-definitions.sh [DIR] [NAME...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-data/puzzles}
shift || true
if [ ! -f web/node_modules/cubing/package.json ]; then
  npm ci --prefix web --silent --no-audit --no-fund >/dev/null
fi
node scripts/kpuzzle-definitions.mjs "$dir" "$@"
