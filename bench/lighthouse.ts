/**
 * `npm run bench:lighthouse [-- --runs 3]`, and a step of `npm run bench`.
 *
 * Lighthouse's scores for the pages a player sees: `/`, `/join` and a live `/play/CODE` with a
 * question showing. Lighthouse 12 (13 needs a newer Node) drives Debian's Chromium through
 * puppeteer-core, which it ships with, in its default mobile profile with its default simulated
 * throttling; each audit gets a fresh browser. The player's page is a real game: the host is a
 * bare WebSocket (as in bench/player-weight.ts), the player joins over its own socket with a client
 * id, the host starts the game, and the browser is given that client id (local storage and cookie,
 * as the app keeps it) before Lighthouse loads the page, so the page rejoins the game and shows the
 * open question. Lighthouse's storage reset clears the cache, service workers and Cache Storage,
 * never local storage or cookies, so the page loads cold and still knows its player.
 *
 * Prints the median per category of `--runs` runs (each category on its own: the figures of
 * different runs), the median of the main metrics, and every accessibility, best-practices or SEO
 * audit that failed in any run, by id.
 *
 * Alone, it starts the production server (`node build/node/server.js`, from the existing build)
 * on a loopback port with a fresh database; `npm run bench` hands it its own server instead.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import puppeteer, { type Page } from "puppeteer-core";
import { CLIENT_ID_COOKIE, STORAGE_KEYS } from "#app/game/client/storage";
import { chromiumLaunchOptions } from "#tests/chromium";
import { startGameServer, type GameServer } from "./game-server";
import { auditOf, lighthouseRows, summarizePage, CATEGORIES, type LighthouseResult, type LighthouseSummary, type PageAudit } from "./lighthouse-scores";
import { nextMessage, openBenchGame, openSocket } from "./player-weight";

const root = path.resolve(import.meta.dirname, "..");

function step(line: string): void {
  process.stderr.write(`[lighthouse] ${line}\n`);
}

/** Gives the browser the player's identity the way the app keeps it (app/game/client/storage.ts), on a page of the origin that loads no app. */
async function becomePlayer(page: Page, serverUrl: string, clientId: string, gameCode: string, nickname: string): Promise<void> {
  await page.goto(`${serverUrl}/healthz`);
  await page.evaluate(
    (keys, cookie, session) => {
      window.localStorage.setItem(keys.clientId, session.clientId);
      window.localStorage.setItem(keys.playerGame, JSON.stringify({ gameCode: session.gameCode, nickname: session.nickname }));
      document.cookie = `${cookie}=${encodeURIComponent(session.clientId)}; Path=/; Max-Age=3600; SameSite=Lax`;
    },
    STORAGE_KEYS,
    CLIENT_ID_COOKIE,
    { clientId, gameCode, nickname },
  );
}

/** A game with its question open and a player in it whose browser identity is returned. */
async function openQuestion(serverUrl: string) {
  const game = await openBenchGame(serverUrl, { title: "Lighthouse benchmark", questionTimeLimit: 240 });
  const clientId = `lighthouse-player-${process.pid}-${Date.now()}`;
  const nickname = "Phone";
  // Open until the browser's connection takes the player over (the server closes the older one), as when a phone reloads the page.
  const player = await openSocket(serverUrl, clientId);
  const joined = nextMessage(player, "PLAYER_JOINED");
  player.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode: game.gameCode, nickname } }));
  await joined;
  const questionOpen = nextMessage(player, "QUESTION_STARTED");
  game.start();
  await questionOpen;
  return {
    gameCode: game.gameCode,
    clientId,
    nickname,
    close() {
      player.terminate();
      game.host.terminate();
    },
  };
}

interface AuditSteps {
  /** Runs in the fresh browser before Lighthouse loads the page. */
  prepare?: (page: Page) => Promise<void>;
  /** Runs on the page Lighthouse loaded, once it is done: throws when the page was not the one meant. */
  check?: (page: Page) => Promise<void>;
}

/** One Lighthouse navigation of `url` in a fresh Chromium. */
async function auditPage(url: string, { prepare, check }: AuditSteps = {}): Promise<{ audit: PageAudit; lhr: LighthouseResult }> {
  const browser = await puppeteer.launch({ executablePath: chromiumLaunchOptions.executablePath, args: chromiumLaunchOptions.args, headless: true });
  try {
    const page = await browser.newPage();
    if (prepare) await prepare(page);
    const result = await lighthouse(url, { logLevel: "error", output: "json", onlyCategories: [...CATEGORIES] }, undefined, page);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = result.lhr as unknown as LighthouseResult & { runtimeError?: { code: string; message: string } };
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (check) await check(page);
    return { audit: auditOf(lhr), lhr };
  } finally {
    await browser.close();
  }
}

/** Audits `/`, `/join` and a live `/play/CODE` `runs` times each; the medians and what failed. */
export async function measureLighthouse(serverUrl: string, runs: number, { reportsDir }: { reportsDir?: string } = {}): Promise<LighthouseSummary> {
  const pages = ["/", "/join", "/play/CODE"];
  const audits = new Map<string, PageAudit[]>(pages.map((page) => [page, []]));
  let first: LighthouseResult | null = null;
  /** The whole report, for a look at what an audit found (open it at https://googlechrome.github.io/lighthouse/viewer/ or read the JSON). */
  const keep = (lhr: LighthouseResult, pathname: string, run: number) => {
    if (!reportsDir) return;
    fs.mkdirSync(reportsDir, { recursive: true });
    const name = pathname === "/" ? "home" : pathname.slice(1).replace(/\W+/g, "-").toLowerCase();
    fs.writeFileSync(path.join(reportsDir, `${name}-${run}.json`), JSON.stringify(lhr));
  };
  for (let run = 1; run <= runs; run++) {
    for (const pathname of pages) {
      step(`run ${run} of ${runs}: ${pathname}`);
      if (pathname === "/play/CODE") {
        const game = await openQuestion(serverUrl);
        try {
          const { audit, lhr } = await auditPage(`${serverUrl}/play/${game.gameCode}`, {
            prepare: (page) => becomePlayer(page, serverUrl, game.clientId, game.gameCode, game.nickname),
            check: async (page) => {
              const text = await page.evaluate(() => document.body.innerText);
              if (!text.includes("What is 2 + 2?")) throw new Error(`the player's page did not show the question: ${text.slice(0, 300)}`);
            },
          });
          audits.get(pathname)!.push(audit);
          keep(lhr, pathname, run);
        } finally {
          game.close();
        }
      } else {
        const { audit, lhr } = await auditPage(serverUrl + pathname);
        first ??= lhr;
        audits.get(pathname)!.push(audit);
        keep(lhr, pathname, run);
      }
    }
  }
  return {
    lighthouseVersion: first!.lighthouseVersion,
    browser: /Chrome\/[\d.]+/.exec(first!.environment.hostUserAgent)?.[0] ?? first!.environment.hostUserAgent,
    formFactor: first!.configSettings.formFactor,
    throttlingMethod: first!.configSettings.throttlingMethod,
    pages: pages.map((page) => summarizePage(page, audits.get(page)!)),
  };
}

// ------------------------------------------------------------------ alone

async function startServer(): Promise<GameServer> {
  if (!fs.existsSync(path.join(root, "build/node/server.js"))) throw new Error("no build: run `npm run build` first");
  return startGameServer({ root });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "3" },
      /** Writes the summary as JSON to this file. */
      json: { type: "string" },
      /** Writes every run's whole Lighthouse report (JSON) to this folder. */
      reports: { type: "string" },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1 (got ${values.runs}).`);
  const server = await startServer();
  try {
    const summary = await measureLighthouse(server.url, runs, { reportsDir: values.reports });
    const rows = lighthouseRows(summary, `npm run bench:lighthouse -- --runs ${runs}`);
    const width = Math.max(...rows.map(([label]) => label.length));
    for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
    if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
