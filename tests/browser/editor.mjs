// The web editor end to end, in headless Chromium: paint a scrambled cube sticker by sticker,
// see the live validation, solve it, step through the solution to the solved cube.
// Usage: node editor.mjs URL SCREENSHOT.png   (scripts/test-browser.sh starts the server)
import { chromium } from "playwright-core";
import assert from "node:assert/strict";

const [url, screenshot] = process.argv.slice(2);
const scramble = "R U F' L2 D B";

const api = async (path, body) => {
  const response = await fetch(new URL(path, url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return response.json();
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  // Headless as root on a machine with no network beyond loopback; WebGL (the 3D view) on the
  // CPU, by SwiftShader (tests/browser/view3d.mjs tests that view).
  args: ["--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(url);
  await page.waitForSelector("#validity.ok");
  const stickers = async () =>
    page.$$eval("#net .sticker", (cells) => cells.map((c) => c.dataset.colour).join(""));
  const solved = await stickers();
  assert.equal(solved, "U".repeat(9) + "R".repeat(9) + "F".repeat(9) + "D".repeat(9) + "L".repeat(9) + "B".repeat(9));

  // One sticker painted wrong: the page says what is wrong, from the server.
  await page.click('#palette [data-face="R"]');
  await page.click('#net [data-index="0"]');
  await page.waitForSelector("#validity.bad");
  const complaint = await page.textContent("#validity");
  assert.match(complaint, /colour/, complaint);
  await page.click("#reset");
  await page.waitForSelector("#validity.ok");

  // Paint the scrambled cube, sticker by sticker.
  const target = (await api("/validate", { position: scramble })).stickers;
  let painted = 0;
  for (let i = 0; i < target.length; i++) {
    const cell = page.locator(`#net [data-index="${i}"]`);
    if ((await cell.getAttribute("data-colour")) === target[i]) continue;
    await page.click(`#palette [data-face="${target[i]}"]`);
    await cell.click();
    painted++;
  }
  assert.equal(await stickers(), target);
  await page.waitForFunction(() => document.querySelector("#validity").textContent === "A valid position.");
  console.log(`painted ${painted} stickers`);

  // Solve optimally and step through to the solved cube.
  await page.selectOption("#method", "optimal");
  await page.click("#solve");
  await page.waitForSelector("#moves li");
  const answer = await page.textContent("#answer");
  assert.match(answer, /^6 moves \(htm, optimal\)/, answer);
  const moves = await page.$$eval("#moves li", (items) => items.map((i) => i.textContent));
  assert.equal(moves.length, 6);
  for (let step = 1; step <= moves.length; step++) {
    await page.click("#next");
    assert.equal(await page.textContent("#step"), `move ${step} of ${moves.length}`);
    if (step === 2 && screenshot) await page.screenshot({ path: screenshot });
  }
  assert.equal(await stickers(), solved);
  assert.ok(await page.isDisabled("#next"));
  // And back to the start: the painted position again.
  await page.click("#first");
  assert.equal(await stickers(), target);
  assert.deepEqual(errors, []);
  console.log(`solved in ${moves.length} moves (${moves.join(" ")}), stepped to solved`);
} finally {
  await browser.close();
}
