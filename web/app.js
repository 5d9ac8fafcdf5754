// The cube editor: paints a net of stickers, asks the server to validate and solve it, and steps
// through the solution with the states the server computed (no cube model here: one model, the
// library's, behind the API). Beside the net, a 3D view (cubing.js's <twisty-player>, from the
// npm install that the server serves at /modules/) shows the same position and plays the
// solution; without that install the page says so and works as before.
"use strict";

const FACES = "URFDLB";
const COLOUR_NAMES = { U: "white", R: "red", F: "green", D: "yellow", L: "orange", B: "blue" };
// Where each face sits in the net, in face widths: U above, L F R B in a row, D below.
const FACE_PLACES = { U: [1, 0], L: [0, 1], F: [1, 1], R: [2, 1], B: [3, 1], D: [1, 2] };

const $ = (id) => document.getElementById(id);
const state = {
  puzzle: "3x3",
  stickers: [],
  paint: "U",
  solution: null, // { moves: [...], states: [...] }
  step: 0,
  // Moves that take the solved cube to `stickers` (what the 3D view is set up with), or null
  // until the server has solved the position (a painted or random cube).
  setup: "",
  checked: null, // the stickers /validate last called valid
};

function size() {
  return state.puzzle === "2x2" ? 2 : 3;
}

function solvedStickers() {
  const n = size();
  return [...FACES].flatMap((face) => Array(n * n).fill(face));
}

/// A 3x3's centres name its faces: they are shown but not painted.
function isFixed(index) {
  return size() === 3 && index % 9 === 4;
}

function shown() {
  return state.solution ? [...state.solution.states[state.step]] : state.stickers;
}

function renderNet() {
  const n = size();
  const net = $("net");
  net.replaceChildren();
  net.style.gridTemplateColumns = `repeat(${4 * n}, auto)`;
  const stickers = shown();
  FACES.split("").forEach((face, f) => {
    const [col, row] = FACE_PLACES[face];
    for (let i = 0; i < n * n; i++) {
      const index = f * n * n + i;
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "sticker" + (isFixed(index) ? " fixed" : "");
      cell.dataset.index = index;
      cell.dataset.colour = stickers[index];
      cell.style.background = `var(--${stickers[index]})`;
      cell.style.gridColumn = col * n + (i % n) + 1;
      cell.style.gridRow = row * n + Math.floor(i / n) + 1;
      cell.title = `${face}${i + 1}: ${COLOUR_NAMES[stickers[index]]}`;
      cell.addEventListener("click", () => paintSticker(index));
      net.appendChild(cell);
    }
  });
}

function renderPalette() {
  const palette = $("palette");
  palette.replaceChildren();
  for (const face of FACES) {
    const swatch = document.createElement("button");
    swatch.type = "button";
    swatch.className = "swatch";
    swatch.dataset.face = face;
    swatch.setAttribute("role", "radio");
    swatch.setAttribute("aria-checked", String(face === state.paint));
    swatch.setAttribute("aria-label", `paint ${COLOUR_NAMES[face]} (${face})`);
    swatch.style.background = `var(--${face})`;
    swatch.addEventListener("click", () => {
      state.paint = face;
      renderPalette();
    });
    palette.appendChild(swatch);
  }
}

function say(element, text, kind) {
  element.textContent = text;
  element.className = element.className.replace(/ ?(ok|bad)$/, "") + (kind ? ` ${kind}` : "");
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) {
    throw new Error(answer.error || `the server answered ${response.status}`);
  }
  return answer;
}

function clearSolution() {
  state.solution = null;
  state.step = 0;
  say($("answer"), "");
  $("moves").replaceChildren();
  renderStep();
}

function setPosition(stickers, setup = null) {
  state.stickers = [...stickers];
  state.setup = setup;
  clearSolution();
  renderNet();
  sync3d();
}

function paintSticker(index) {
  if (isFixed(index)) return;
  if (state.solution) {
    // Painting edits the position, not the solution's steps.
    state.stickers = shown();
    clearSolution();
  }
  state.stickers[index] = state.paint;
  state.setup = null;
  renderNet();
  sync3d();
  validateSoon();
}

let validation = null;
function validateSoon() {
  clearTimeout(validation);
  validation = setTimeout(validate, 150);
}

/// Live validation: what the server says of the stickers as painted.
async function validate() {
  const stickers = state.stickers.join("");
  try {
    const answer = await call("POST", "/validate", { position: stickers });
    if (stickers !== state.stickers.join("")) return; // painted again meanwhile
    if (answer.valid) {
      say($("validity"), "A valid position.", "ok");
      state.checked = stickers;
      sync3d();
    } else {
      say($("validity"), answer.error, "bad");
    }
    $("solve").disabled = !answer.valid;
    return answer.valid;
  } catch (e) {
    say($("validity"), e.message, "bad");
    return false;
  }
}

/// The text field: a sticker string replaces the cube; anything else is moves applied to it.
async function applyText() {
  const text = $("text").value.trim();
  if (!text) return;
  const letters = text.replace(/\s+/g, "");
  const isStickers = /^[URFDLB]+$/.test(letters) && !/\s/.test(text) && (letters.length === 24 || letters.length === 54);
  const body = isStickers
    ? { position: letters }
    : { position: shown().join(""), moves: text };
  // The 3D view takes a 3x3's plain face turns as they are; anything else (stickers, 2x2 moves,
  // rotations, slices) it gets from the server's solution of the position.
  const from = setupShown();
  const setup = !isStickers && from !== null && state.puzzle === "3x3" && PLAIN_TURNS.test(text)
    ? `${from} ${text}`.trim().replace(/\s+/g, " ")
    : null;
  try {
    const answer = await call("POST", "/validate", body);
    if (!answer.valid) {
      say($("validity"), answer.error, "bad");
      return;
    }
    if (answer.puzzle !== state.puzzle) {
      state.puzzle = answer.puzzle;
      $("puzzle").value = answer.puzzle;
    }
    setPosition(answer.stickers, answer.puzzle === "3x3" ? setup : null);
    await validate();
  } catch (e) {
    say($("validity"), e.message, "bad");
  }
}

async function randomPosition() {
  try {
    const answer = await call("GET", `/random?puzzle=${state.puzzle}`);
    setPosition(answer.stickers);
    await validate();
  } catch (e) {
    say($("validity"), e.message, "bad");
  }
}

async function solve() {
  if (!(await validate())) return;
  const method = state.puzzle === "2x2" ? "optimal" : $("method").value;
  say($("answer"), "Solving…");
  $("solve").disabled = true;
  try {
    const answer = await call("POST", "/solve", {
      position: state.stickers.join(""),
      method,
      states: true,
    });
    showAnswer(answer);
  } catch (e) {
    say($("answer"), e.message, "bad");
  } finally {
    $("solve").disabled = false;
  }
}

function showAnswer(answer) {
  if (!answer.solution && answer.solution !== "") {
    const bound = answer.lower_bound !== undefined ? `; every solution has at least ${answer.lower_bound} moves` : "";
    say($("answer"), `No solution within the time limit (${answer.status}${bound}).`, "bad");
    return;
  }
  const moves = answer.solution ? answer.solution.split(" ") : [];
  const proven = answer.status === "optimal" ? "optimal" : answer.method || answer.status;
  const seconds = answer.seconds < 0.001 ? "under a millisecond" : `${answer.seconds.toFixed(3)} s`;
  say($("answer"), moves.length === 0 ? "Already solved." : `${answer.length} moves (${answer.metric}, ${proven}) in ${seconds}`);
  state.solution = { moves, states: answer.states || [state.stickers.join("")] };
  state.step = 0;
  const list = $("moves");
  list.replaceChildren(...moves.map((m, i) => {
    const item = document.createElement("li");
    item.textContent = m;
    item.dataset.move = i;
    return item;
  }));
  renderStep();
  renderNet();
  sync3d();
}

function renderStep() {
  const total = state.solution ? state.solution.moves.length : 0;
  const at = state.step;
  $("step").textContent = state.solution ? `move ${at} of ${total}` : "";
  $("first").disabled = $("previous").disabled = !state.solution || at === 0;
  $("next").disabled = $("last").disabled = !state.solution || at === total;
  document.querySelectorAll("#moves li").forEach((item, i) => {
    item.className = i < at - 1 ? "done" : i === at - 1 ? "current" : "";
  });
}

/// To a step of the solution; the 3D view follows, unless it is the one that moved (`from3d`).
function goTo(step, from3d = false) {
  if (!state.solution) return;
  state.step = Math.max(0, Math.min(step, state.solution.moves.length));
  renderStep();
  renderNet();
  if (!from3d) (view3d.shown === key3d() ? seek3d() : sync3d());
}

function changePuzzle() {
  state.puzzle = $("puzzle").value;
  $("method").disabled = state.puzzle === "2x2";
  setPosition(solvedStickers(), "");
  validate();
}

// ---- The 3D view ----

const TWISTY_MODULE = "/modules/cubing/dist/lib/cubing/twisty/index.js";
const UNAVAILABLE = "3D view unavailable: run <code>npm ci --prefix web</code>, then restart <code>cubelab serve</code>.";
// Face turns as the server prints them (and as cubing.js reads them).
const PLAIN_TURNS = /^\s*([URFDLB](2'?|'|)\s*)+$/;
const view3d = {
  player: null,
  shown: null, // the puzzle, setup and moves the player holds, as key3d() gives them
  sync: 0, // the latest sync3d call: older ones give way
  seek: 0, // the latest seek3d call
  busy: 0, // while sync3d or seek3d sets the player up, its changes are not followed
};

function key3d() {
  const moves = state.solution ? state.solution.moves.join(" ") : "";
  return `${puzzleId()}|${state.setup}|${moves}`;
}

function puzzleId() {
  return state.puzzle === "2x2" ? "2x2x2" : "3x3x3";
}

/// The inverse of a sequence of face turns.
function invert(moves) {
  return moves.split(/\s+/).filter(Boolean).reverse()
    .map((m) => (m.endsWith("2") ? m : m.endsWith("'") ? m.slice(0, -1) : `${m}'`)).join(" ");
}

/// The setup of the cube the net shows (mid-solution: the position and the moves made), or null.
function setupShown() {
  if (state.setup === null) return null;
  const made = state.solution ? state.solution.moves.slice(0, state.step).join(" ") : "";
  return `${state.setup} ${made}`.trim();
}

// A 2x2 is solved in the frame it was held in, so its solution may end on a solved cube held
// another way: the whole-cube rotation (x, y, z as cubing.js reads them) that holds it so, by
// the colours that end up on U and F.
const ROTATIONS = (() => {
  const turn = { x: ["U", "F", "D", "B"], y: ["F", "R", "B", "L"], z: ["R", "U", "L", "D"] };
  const apply = (faces, axis, times) => {
    let now = { ...faces };
    for (let t = 0; t < times; t++) {
      const [a, b, c, d] = turn[axis];
      now = { ...now, [a]: now[b], [b]: now[c], [c]: now[d], [d]: now[a] };
    }
    return now;
  };
  const found = { UF: "" };
  let layer = [["", { U: "U", R: "R", F: "F", D: "D", L: "L", B: "B" }]];
  while (layer.length) {
    const next = [];
    for (const [alg, faces] of layer) {
      for (const axis of "xyz") {
        for (const [times, suffix] of [[1, ""], [2, "2"], [3, "'"]]) {
          const turned = apply(faces, axis, times);
          const key = turned.U + turned.F;
          if (key in found) continue;
          found[key] = `${alg} ${axis}${suffix}`.trim();
          next.push([found[key], turned]);
        }
      }
    }
    layer = next;
  }
  return found;
})();

/// The setup of a valid position from the server's solution: its inverse, after the rotation
/// that holds the solved cube as the solution leaves it (a 2x2's).
async function setupFromServer(stickers) {
  const puzzle = stickers.length === 24 ? "2x2" : "3x3";
  const ask = (method) => call("POST", "/solve", { position: stickers, puzzle, method, states: true });
  const answer = await ask(puzzle === "2x2" ? "optimal" : "two-phase")
    .catch(() => ask("layers"));
  if (typeof answer.solution !== "string") throw new Error(`no solution (${answer.status})`);
  const end = answer.states ? answer.states[answer.states.length - 1] : "";
  const n = puzzle === "2x2" ? 4 : 9;
  const rotation = puzzle === "2x2" ? ROTATIONS[end[0] + end[2 * n]] || "" : "";
  return `${rotation} ${invert(answer.solution)}`.trim();
}

/// Shows the position (and the solution, at its step) in the 3D view.
async function sync3d() {
  const player = view3d.player;
  if (!player) return;
  const ticket = ++view3d.sync;
  const stickers = state.stickers.join("");
  view3d.busy++;
  try {
    if (state.setup === null) {
      // Painted or random: the server knows the moves once the position is valid.
      if (state.checked !== stickers) {
        $("view3d").classList.add("stale");
        return;
      }
      const setup = await setupFromServer(stickers);
      if (ticket !== view3d.sync || stickers !== state.stickers.join("")) return;
      state.setup = setup;
    }
    $("view3d").classList.remove("stale");
    const key = key3d();
    if (view3d.shown !== key) {
      player.pause();
      player.puzzle = puzzleId();
      player.experimentalSetupAlg = state.setup;
      player.alg = state.solution ? state.solution.moves.join(" ") : "";
      view3d.shown = key;
    }
    await seek3d();
  } catch (e) {
    $("view3d").classList.add("stale");
  } finally {
    view3d.busy--;
  }
}

/// Moves the 3D view to the solution's step the net shows.
async function seek3d() {
  const player = view3d.player;
  if (!player || view3d.shown === null) return;
  const ticket = ++view3d.seek;
  view3d.busy++;
  try {
    player.pause();
    const total = state.solution ? state.solution.moves.length : 0;
    if (state.step >= total) {
      player.timestamp = "end";
    } else {
      const indexer = await player.experimentalModel.indexer.get();
      if (ticket !== view3d.seek) return;
      player.timestamp = indexer.indexToMoveStartTimestamp(state.step);
    }
    await player.experimentalModel.currentMoveInfo.get();
  } finally {
    view3d.busy--;
  }
}

/// The net follows the 3D view when its own buttons play or step the solution.
function follow3d(info) {
  if (view3d.busy > 0 || !state.solution || view3d.shown !== key3d()) return;
  const done = info.patternIndex + info.movesFinishing.length + info.movesFinished.length;
  if (done !== state.step) goTo(done, true);
}

async function load3d() {
  const box = $("view3d");
  let twisty;
  try {
    twisty = await import(TWISTY_MODULE);
    // three.js, which the player's renderer imports once it draws: installed with cubing.
    await import("three/src/constants.js");
  } catch (e) {
    box.classList.add("unavailable");
    box.innerHTML = `<p class="note">${UNAVAILABLE}</p>`;
    document.body.classList.add("no3d");
    return;
  }
  const player = new twisty.TwistyPlayer({
    puzzle: puzzleId(),
    background: "none",
    controlPanel: "bottom-row",
    viewerLink: "none",
    hintFacelets: "none",
    experimentalSetupAnchor: "start",
    tempoScale: Number($("tempo").value),
  });
  box.replaceChildren(player);
  view3d.player = player;
  player.experimentalModel.currentMoveInfo.addFreshListener(follow3d);
  $("tempo").addEventListener("change", () => { player.tempoScale = Number($("tempo").value); });
  sync3d();
}

function start() {
  $("puzzle").addEventListener("change", changePuzzle);
  $("apply").addEventListener("click", applyText);
  $("text").addEventListener("keydown", (e) => { if (e.key === "Enter") applyText(); });
  $("reset").addEventListener("click", () => { setPosition(solvedStickers(), ""); validate(); });
  $("random").addEventListener("click", randomPosition);
  $("solve").addEventListener("click", solve);
  $("first").addEventListener("click", () => goTo(0));
  $("previous").addEventListener("click", () => goTo(state.step - 1));
  $("next").addEventListener("click", () => goTo(state.step + 1));
  $("last").addEventListener("click", () => goTo(Infinity));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") goTo(state.step + 1);
    if (e.key === "ArrowLeft") goTo(state.step - 1);
  });
  renderPalette();
  setPosition(solvedStickers(), "");
  validate();
  load3d();
}

start();
