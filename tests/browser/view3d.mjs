// The editor's 3D view (cubing.js's <twisty-player>) end to end, in headless Chromium.
// Usage: node view3d.mjs URL OUT_DIR            with the npm install (`npm ci --prefix web`):
//          the cube renders in our colours, turns with the mouse, follows the net's position and
//          steps, and its own Play button plays a solution to the solved cube (3x3 and 2x2);
//        node view3d.mjs URL OUT_DIR --fallback  with `cubelab serve --web-modules /nonexistent`:
//          the page says how to install the view, and the net still solves.
// scripts/test-browser.sh starts the servers; screenshots go to OUT_DIR.
import { chromium } from "playwright-core";
import assert from "node:assert/strict";

const [url, out, mode] = process.argv.slice(2);
const fallback = mode === "--fallback";
const scramble = "R U F' L2 D B";
const SOLVED3 = "U".repeat(9) + "R".repeat(9) + "F".repeat(9) + "D".repeat(9) + "L".repeat(9) + "B".repeat(9);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  // Headless as root on a machine with no network beyond loopback; WebGL on the CPU
  // (SwiftShader), asked for explicitly rather than by Chromium's deprecated fallback.
  args: ["--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));
page.on("console", (m) => {
  if (m.type() !== "error") return;
  // Without the install, the one import the page tries (and catches) fails with a 404.
  const missing = fallback && /Failed to load resource.*404/.test(m.text()) &&
    m.location().url.endsWith("/modules/cubing/dist/lib/cubing/twisty/index.js");
  if (!missing) errors.push(`${m.text()} (${m.location().url})`);
});
const stickers = () => page.$$eval("#net .sticker", (cells) => cells.map((c) => c.dataset.colour).join(""));
const step = () => page.textContent("#step");

/// Types moves or stickers into the text field and waits for the position to be valid.
async function apply(text) {
  await page.fill("#text", text);
  await page.click("#apply");
  await page.waitForFunction(() => document.querySelector("#validity").textContent === "A valid position.");
}

/// Solves the position shown, by `method`, and returns the moves listed.
async function solve(method) {
  if (await page.isEnabled("#method")) await page.selectOption("#method", method);
  await page.click("#solve");
  await page.waitForSelector("#moves li");
  return page.$$eval("#moves li", (items) => items.map((i) => i.textContent));
}

try {
  await page.goto(url);
  await page.waitForSelector("#validity.ok");
  if (fallback) {
    await page.waitForSelector("#view3d.unavailable");
    const note = await page.textContent("#view3d");
    assert.match(note, /3D view unavailable: run npm ci --prefix web, then restart cubelab serve/, note);
    assert.equal(await page.$("twisty-player"), null);
    assert.ok(!(await page.isVisible("#tempo")), "no 3D speed control without the 3D view");
    await apply(scramble);
    const moves = await solve("optimal");
    assert.equal(moves.length, 6);
    await page.click("#last");
    assert.equal(await step(), "move 6 of 6");
    assert.equal(await stickers(), SOLVED3);
    await page.screenshot({ path: `${out}/editor-no-3d.png` });
    assert.deepEqual(errors, []);
    console.log("without the install: the note, and the net solves");
  } else {
    await run3d();
    assert.deepEqual(errors, []);
  }
} finally {
  await browser.close();
}

async function run3d() {
  const player = page.locator("#view3d twisty-player");
  await player.waitFor();
  // The player's state, read through its model (its public, if "experimental", API).
  const model = (what) => page.evaluate(async (what) => {
    const p = document.querySelector("#view3d twisty-player");
    const m = p.experimentalModel;
    const kpuzzle = await m.kpuzzle.get();
    const pattern = await m.currentPattern.get();
    const info = await m.coarseTimelineInfo.get();
    const orbit = await m.twistySceneModel.orbitCoordinates.get();
    const setup = (await p.experimentalGet.setupAlg()).toString();
    const alg = (await p.experimentalGet.alg()).toString();
    const expect = (setup2, moves) => pattern.isIdentical(kpuzzle.defaultPattern().applyAlg(setup2).applyAlg(moves));
    return {
      puzzle: await p.experimentalGet.puzzleID(),
      setup, alg,
      playing: info.playing, atStart: info.atStart, atEnd: info.atEnd,
      longitude: orbit.longitude, latitude: orbit.latitude,
      solved: pattern.isIdentical(kpuzzle.defaultPattern()),
      solvedAnyHow: pattern.experimentalIsSolved({ ignorePuzzleOrientation: true, ignoreCenterOrientation: true }),
      // What the 3D view should show: the setup and the first `what.made` moves, or `what.is`.
      matches: what ? expect(what.setup ?? setup, what.moves ?? "") : null,
    };
  }, what);
  // The colours in a screenshot of the player (on its grey panel), as the faces they are (cubing.js's scheme:
  // our white U, red R, green F, yellow D, orange L, blue B), by pixel count.
  const colours = async (name) => {
    const png = await player.screenshot({ path: `${out}/${name}.png` });
    return page.evaluate(async (b64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext("2d");
      ctx.drawImage(bitmap, 0, 0);
      const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
      const refs = { U: [255, 255, 255], R: [255, 0, 0], F: [0, 255, 0], D: [255, 255, 0], L: [255, 136, 0], B: [34, 102, 255] };
      const counts = { U: 0, R: 0, F: 0, D: 0, L: 0, B: 0 };
      for (let i = 0; i < data.length; i += 4) {
        for (const [face, [r, g, b]] of Object.entries(refs)) {
          if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 60) counts[face]++;
        }
      }
      return counts;
    }, png.toString("base64"));
  };
  const settle = async (check, what) => {
    await page.waitForFunction(async (what) => {
      const p = document.querySelector("#view3d twisty-player");
      const info = await p.experimentalModel.coarseTimelineInfo.get();
      return !info.playing;
    }, what);
    for (let i = 0; i < 50; i++) {
      const state = await model(what);
      if (check(state)) return state;
      await page.waitForTimeout(100);
    }
    const state = await model(what);
    assert.fail(`the 3D view did not get there: ${JSON.stringify({ what, state })}`);
  };

  // The solved cube: U, F and R face the camera, white, green and red, and nothing else.
  await page.waitForFunction(() => document.querySelector("#view3d twisty-player")?.experimentalModel);
  let state = await settle((s) => s.solved && s.puzzle === "3x3x3");
  let seen = { U: 0, R: 0, F: 0 };
  // The first paint waits for three.js's modules (about 250 files) and the puzzle's geometry,
  // and its first frames may show the stickers dimmed.
  for (const until = Date.now() + 30000; Date.now() < until && Math.min(seen.U, seen.R, seen.F) < 1000;) {
    await page.waitForTimeout(200);
    seen = await colours("3d-solved");
  }
  assert.ok(seen.U > 1000 && seen.F > 1000 && seen.R > 1000, `white, green, red faces: ${JSON.stringify(seen)}`);
  assert.ok(seen.D + seen.L + seen.B < 50, `no yellow, orange or blue on the solved cube's front: ${JSON.stringify(seen)}`);

  // A position typed as moves: the 3D view is set up with them.
  await apply(scramble);
  state = await settle((s) => s.setup === scramble && !s.solved, { setup: scramble });
  assert.ok(state.matches);
  const scrambled = await colours("3d-scrambled");
  assert.ok(Object.values(scrambled).filter((n) => n > 200).length >= 4, `several colours: ${JSON.stringify(scrambled)}`);

  // Solve; ◀ ▶ move the 3D view with the net, move by move.
  const moves = await solve("optimal");
  assert.equal(moves.length, 6);
  await settle((s) => s.alg === moves.join(" ") && s.atStart);
  for (let k = 1; k <= moves.length; k++) {
    await page.click("#next");
    assert.equal(await step(), `move ${k} of ${moves.length}`);
    const made = { setup: scramble, moves: moves.slice(0, k).join(" ") };
    await settle((s) => s.matches, made);
  }
  await page.click("#previous");
  await settle((s) => s.matches, { setup: scramble, moves: moves.slice(0, -1).join(" ") });
  await page.click("#first");
  await settle((s) => s.atStart && s.matches, { setup: scramble });
  assert.equal(await step(), `move 0 of ${moves.length}`);

  const box = await player.boundingBox();
  // The player's own Play button (the 4th of the six in its bottom row) plays the solution with
  // animated turns; the net follows it move by move, to the solved cube.
  await page.selectOption("#tempo", "2");
  await page.mouse.click(box.x + box.width * (3.5 / 6), box.y + box.height - 18);
  await page.waitForFunction(() => document.querySelector("#step").textContent.startsWith("move 3 "));
  await page.screenshot({ path: `${out}/editor-3d.png` });
  state = await settle((s) => s.atEnd && s.solved);
  assert.equal(await step(), `move ${moves.length} of ${moves.length}`);
  assert.equal(await stickers(), SOLVED3);

  // Dragging turns the cube (the camera goes round it).
  const before = await model();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.5, { steps: 8 });
  await page.mouse.up();
  const after = await model();
  assert.notEqual(after.longitude, before.longitude, "a drag turns the 3D view");
  assert.ok(after.solved, "and turns no layer");
  console.log(`3x3: rendered (${JSON.stringify(seen)}), turned by the mouse, stepped with the net, played ${moves.join(" ")} to solved`);

  // A random position: its setup comes from the server's two-phase solution, and after Solve
  // and » the 3D view is solved too.
  await page.click("#random");
  await page.waitForFunction(() => document.querySelector("#validity").textContent === "A valid position.");
  const random = await settle((s) => !s.solved && s.setup.length > 0 && s.alg === "");
  const randomMoves = await solve("two-phase");
  await page.click("#last");
  await settle((s) => s.atEnd && s.solved && s.alg === randomMoves.join(" "));
  assert.equal(await stickers(), SOLVED3);
  console.log(`random 3x3 set up as ${random.setup.split(" ").length} moves, solved in 3D`);

  // The 2x2: typed moves that turn the whole cube (L) are solved in the frame the cube is
  // held in, so the solution ends on a solved cube held another way; the 3D view ends there too.
  await page.selectOption("#puzzle", "2x2");
  await settle((s) => s.puzzle === "2x2x2" && s.solved);
  await apply("L D");
  await settle((s) => s.puzzle === "2x2x2" && !s.solvedAnyHow && s.matches, { setup: "L D" });
  const moves2 = await solve("optimal");
  await page.click("#last");
  const end2 = await stickers();
  const rotated = end2 !== "U".repeat(4) + "R".repeat(4) + "F".repeat(4) + "D".repeat(4) + "L".repeat(4) + "B".repeat(4);
  state = await settle((s) => s.atEnd && s.solvedAnyHow);
  await colours("3d-2x2-solved");
  console.log(`2x2: L D solved by ${moves2.join(" ")}, the net ends ${end2}${rotated ? " (held turned)" : ""}, the 3D view solved${state.solved ? "" : " (held turned)"}`);
  assert.equal(state.solved, !rotated, "the 3D view is held as the net is");
  await page.click("#first");
  await settle((s) => s.atStart && s.matches, { setup: "L D" });
}
