// The cube editor: paints a net of stickers, asks the server to validate and solve it, and steps
// through the solution with the states the server computed (no cube model here: one model, the
// library's, behind the API).
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

function setPosition(stickers) {
  state.stickers = [...stickers];
  clearSolution();
  renderNet();
}

function paintSticker(index) {
  if (isFixed(index)) return;
  if (state.solution) {
    // Painting edits the position, not the solution's steps.
    state.stickers = shown();
    clearSolution();
  }
  state.stickers[index] = state.paint;
  renderNet();
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
    setPosition(answer.stickers);
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

function goTo(step) {
  if (!state.solution) return;
  state.step = Math.max(0, Math.min(step, state.solution.moves.length));
  renderStep();
  renderNet();
}

function changePuzzle() {
  state.puzzle = $("puzzle").value;
  $("method").disabled = state.puzzle === "2x2";
  setPosition(solvedStickers());
  validate();
}

function start() {
  $("puzzle").addEventListener("change", changePuzzle);
  $("apply").addEventListener("click", applyText);
  $("text").addEventListener("keydown", (e) => { if (e.key === "Enter") applyText(); });
  $("reset").addEventListener("click", () => { setPosition(solvedStickers()); validate(); });
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
  setPosition(solvedStickers());
  validate();
}

start();
