#!/usr/bin/env bash
# Writes cubing.js's KPuzzle definitions, one DIR/NAME.kpuzzle.json a puzzle (default DIR:
# data/puzzles, where `cubelab puzzle` finds a puzzle by name), from the `cubing` npm package
# the web editor pins (installed by scripts/npm-install.sh if missing or out of date; Node.js
# and npm).
# Usage: scripts/puzzle-definitions.sh [DIR] [NAME...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-data/puzzles}
shift || true
scripts/npm-install.sh web
node scripts/kpuzzle-definitions.mjs "$dir" "$@"
