/**
 * `npm run screenshots`: the README's pictures of a game, taken from the real thing. It starts the
 * built server (as `npm run serve` runs it; `npm run build` first when there is no build) on a free
 * port with a fresh database and its demo quizzes, hosts the Pub Quiz Sampler, opens its display as
 * a projector would (1280x720), joins players from phone-sized pages (390x844), starts the game and
 * saves the first question as the projector and a phone show it: docs/images/game-projector.png and
 * docs/images/game-phone.png (docs/testing.md, "Screenshots"). Debian's Chromium, as the end-to-end
 * tests launch it (tests/chromium.ts).
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import sharp from "sharp";
import { startGameServer } from "../bench/game-server";
import { chromiumLaunchOptions } from "#tests/chromium";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const imagesDir = path.join(root, "docs", "images");
const PHONE = { width: 390, height: 844 };
const PROJECTOR = { width: 1280, height: 720 };
const DEMO_QUIZ = "Pub Quiz Sampler";
/** The phone in the picture is the first; the others make the display's count a room's. */
const NICKNAMES = ["Kim", "Sam", "Alex", "Priya"];

/** A browser context whose client id is `clientId`, as a returning browser's (tests/e2e/fixtures.ts does the same). */
async function browserAs(browser: Browser, clientId: string, options: Parameters<Browser["newContext"]>[0]): Promise<BrowserContext> {
  const context = await browser.newContext({ deviceScaleFactor: 1, ...options });
  await context.addInitScript((id) => window.localStorage.setItem("quizClientId", id), clientId);
  return context;
}

/** A PNG as small as its flat colours allow: a palette of at most 256 colours, compressed hard. */
async function savePng(screenshot: Buffer, file: string) {
  const png = await sharp(screenshot).png({ palette: true, quality: 90, compressionLevel: 9, effort: 10 }).toBuffer();
  fs.writeFileSync(file, png);
  return png.length;
}

async function main() {
  if (!fs.existsSync(path.join(root, "build", "node", "server.js"))) {
    execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  }
  const server = await startGameServer({ root, env: { SEED_DEMO: "true" } });
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    // The host: a laptop's browser that opens a game of the demo quiz and takes its host seat.
    const hostId = `host-${randomUUID()}`;
    const host = await browserAs(browser, hostId, { viewport: { width: 1280, height: 900 }, baseURL: server.url });
    await host.addCookies([{ name: "quiz_client_id", value: hostId, url: server.url }]);
    const headers = { "x-client-id": hostId };
    const quizzes = (await (await host.request.get("/api/quizzes", { headers })).json()) as { id: string; title: string }[];
    const quiz = quizzes.find((candidate) => candidate.title === DEMO_QUIZ);
    if (!quiz) throw new Error(`no demo quiz "${DEMO_QUIZ}" in ${JSON.stringify(quizzes.map((q) => q.title))}`);
    const game = (await (await host.request.post("/api/games", { data: { quizId: quiz.id }, headers })).json()) as { gameCode: string };
    const code = game.gameCode;
    await host.request.post(`/api/games/${code}/register-host`, { data: { clientId: hostId } });
    const hostPage = await host.newPage();
    await hostPage.goto(`/waiting/${code}`);
    const displayLink = hostPage.getByRole("region", { name: "Display and remote" }).getByRole("link", { name: "Open the display" });
    const displayUrl = await displayLink.getAttribute("href");
    if (!displayUrl) throw new Error("the host's lobby shows no display link");

    // The projector's computer: a browser the game has never seen, opening the display's link.
    const projector = await (await browserAs(browser, `projector-${randomUUID()}`, { viewport: PROJECTOR, baseURL: server.url })).newPage();
    await projector.goto(displayUrl);
    await projector.getByRole("heading", { name: "Game code" }).waitFor();
    // As a host does on the projector's computer: the page becomes the projector's screen (large, dark, no header).
    await projector.getByRole("button", { name: "Full screen" }).click();

    // The players: phones joining with the code and a nickname.
    const phones = [];
    for (const nickname of NICKNAMES) {
      const context = await browserAs(browser, `player-${randomUUID()}`, { viewport: PHONE, isMobile: true, hasTouch: true, baseURL: server.url });
      const phone = await context.newPage();
      await phone.goto(`/waiting/${code}?nickname=${encodeURIComponent(nickname)}`);
      phones.push(phone);
    }
    await projector
      .getByTestId("player-count")
      .filter({ hasText: String(NICKNAMES.length) })
      .waitFor();

    // The host starts; the first question is on every screen.
    await hostPage.getByRole("button", { name: "Start Game" }).click();
    await projector.getByRole("heading", { name: /^Question 1 of / }).waitFor();
    const phone = phones[0];
    await phone.waitForURL(`**/play/${code}`);
    // Two of the others answer, so the projector's count moves; the pictured phone has yet to.
    for (const other of phones.slice(1, 3)) {
      await other.getByRole("button", { name: /Clarinet/ }).click();
    }
    await projector
      .getByTestId("answered-count")
      .filter({ hasText: /^2 of / })
      .waitFor();
    await phone.getByRole("button", { name: /Clarinet/ }).waitFor();

    fs.mkdirSync(imagesDir, { recursive: true });
    const shots = [
      [phone, "game-phone.png"],
      [projector, "game-projector.png"],
    ] as const;
    for (const [page, name] of shots) {
      const bytes = await savePng(await page.screenshot({ animations: "disabled", caret: "hide" }), path.join(imagesDir, name));
      console.log(`docs/images/${name}: ${(bytes / 1024).toFixed(0)} KiB`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
