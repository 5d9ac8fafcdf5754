// The peer side of scripts/bench-goals.sh: Torjus Iveland's cube-solver (npm, MIT), whose step
// solvers find optimal cross, EOLine, first-block and xcross solutions by IDA* over its own
// pruning tables. Installed by the script into a scratch folder, never into this repository.
//   node bench-goals-peer.mjs MODULE_DIR scramble N SEED     N random-move scrambles, one a line
//   node bench-goals-peer.mjs MODULE_DIR solve TYPE FILE     each scramble's solution length,
//                                                            one a line; seconds on stderr
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const [dir, mode, a, b] = process.argv.slice(2);
const require = createRequire(dir + '/');

if (mode === 'scramble') {
  // mulberry32: a seeded generator, so that a run is repeatable.
  let state = Number(b) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const faces = 'URFDLB', turns = ['', '2', "'"];
  const lines = [];
  for (let i = 0; i < Number(a); i++) {
    const moves = [];
    let last = -1;
    while (moves.length < 25) {
      const f = Math.floor(next() * 6);
      if (f === last) continue;
      last = f;
      moves.push(faces[f] + turns[Math.floor(next() * 3)]);
    }
    lines.push(moves.join(' '));
  }
  console.log(lines.join('\n'));
} else if (mode === 'solve') {
  const solver = require('cube-solver');
  const scrambles = readFileSync(b, 'utf8').split('\n').filter((l) => l.trim());
  const t0 = process.hrtime.bigint();
  solver.initialize(a);
  const t1 = process.hrtime.bigint();
  const out = scrambles.map((s) => {
    const solution = solver.solve(s, a).trim();
    return solution === '' ? 0 : solution.split(/\s+/).length;
  });
  const t2 = process.hrtime.bigint();
  console.log(out.join('\n'));
  console.error(`init ${Number(t1 - t0) / 1e9} solve ${Number(t2 - t1) / 1e9}`);
} else {
  console.error('usage: bench-goals-peer.mjs MODULE_DIR scramble N SEED | solve TYPE FILE');
  process.exit(2);
}
