#!/usr/bin/env node
// Writes the KPuzzle definition of each cubing.js puzzle as JSON, one file per puzzle:
//
//   node scripts/kpuzzle-definitions.mjs OUT_DIR [NAME...]
//
// OUT_DIR/NAME.kpuzzle.json holds `JSON.stringify(kpuzzle.definition)`: the
// JSON-serialisable part of the definition (functions such as
// `experimentalIsPatternSolved` are not JSON and are left out). With no NAME,
// every puzzle in `cubing/puzzles` that has a kpuzzle is written.
//
// The `cubing` package comes from `web/node_modules` of the repository this
// script sits in (`npm ci --prefix web` installs it), so the definitions match
// the cubing.js version that the web front end pins.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const USAGE = "usage: node scripts/kpuzzle-definitions.mjs OUT_DIR [NAME...]";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cubingDir = join(repoRoot, "web", "node_modules", "cubing");

/** Loads `cubing/puzzles` from web/node_modules, or exits 1 saying how to install it. */
async function loadPuzzles() {
  const packageJsonPath = join(cubingDir, "package.json");
  if (!existsSync(packageJsonPath)) {
    console.error(
      `error: the cubing package is not installed (no ${packageJsonPath}).\n` +
        `Install it first: run \`npm ci --prefix web\` in ${repoRoot}.`,
    );
    process.exit(1);
  }
  // cubing is ESM-only: its `exports` map has no `require` condition, so the
  // entry point is read from the map and imported by file URL.
  const packageJson = JSON.parse(readFileSync(packageJsonPath, "utf8"));
  const entry = packageJson.exports?.["./puzzles"]?.import;
  if (typeof entry !== "string") {
    console.error(
      `error: ${packageJsonPath} (cubing ${packageJson.version}) has no "./puzzles" ESM export.\n` +
        "Reinstall the pinned version: run `npm ci --prefix web`.",
    );
    process.exit(1);
  }
  const module = await import(pathToFileURL(join(cubingDir, entry)).href);
  return { puzzles: module.puzzles, version: packageJson.version };
}

/** Keeps only JSON data: drops functions (and anything else JSON cannot hold). */
function definitionJson(definition) {
  return JSON.stringify(definition, (_key, value) =>
    typeof value === "function" ? undefined : value,
  );
}

/** One line: orbits (listed when few), moves and derived moves. */
function summary(definition) {
  const { orbits } = definition;
  const pieces = orbits.reduce((sum, o) => sum + o.numPieces, 0);
  const orbitText =
    orbits.length <= 8
      ? orbits.map((o) => `${o.orbitName} ${o.numPieces}x${o.numOrientations}`).join(", ")
      : `${orbits.length} orbits, ${pieces} pieces`;
  const moves = Object.keys(definition.moves).length;
  const derived = Object.keys(definition.derivedMoves ?? {}).length;
  return `${definition.name} (${orbitText}; ${moves} moves, ${derived} derived moves)`;
}

async function main() {
  const [outDir, ...names] = process.argv.slice(2);
  if (!outDir || outDir === "-h" || outDir === "--help") {
    console.error(USAGE);
    process.exit(outDir ? 0 : 2);
  }
  const { puzzles, version } = await loadPuzzles();

  const unknown = names.filter((name) => !(name in puzzles));
  if (unknown.length > 0) {
    console.error(
      `error: unknown puzzle name(s): ${unknown.join(", ")}.\n` +
        `Known names (cubing ${version}): ${Object.keys(puzzles).join(", ")}.`,
    );
    process.exit(1);
  }

  mkdirSync(outDir, { recursive: true });
  let failures = 0;
  for (const name of names.length > 0 ? names : Object.keys(puzzles)) {
    const loader = puzzles[name];
    if (typeof loader.kpuzzle !== "function") {
      console.log(`skipped ${name}: no kpuzzle`);
      continue;
    }
    try {
      const kpuzzle = await loader.kpuzzle();
      const json = definitionJson(kpuzzle.definition);
      const path = join(outDir, `${name}.kpuzzle.json`);
      writeFileSync(path, `${json}\n`);
      console.log(`wrote ${path}: ${summary(kpuzzle.definition)}`);
    } catch (error) {
      failures++;
      console.error(`error: ${name}: ${error?.message ?? error}`);
    }
  }
  if (failures > 0) {
    console.error(`${failures} puzzle(s) failed; see the errors above.`);
    process.exit(1);
  }
}

await main();
