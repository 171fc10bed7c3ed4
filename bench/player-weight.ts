/**
 * `npm run bench:weight [-- --runs 3]`, and a step of `npm run bench`.
 *
 * What a player's phone downloads from opening a join link to answering the first question: a
 * fresh phone-sized Chromium (Debian's, through Playwright, no cache) opens `/join?code=CODE` (the
 * link the lobby's QR code encodes), joins with a nickname, waits in the lobby until the host (a
 * bare WebSocket, as in the load benchmark) starts the game, and answers the first question. Every
 * JavaScript and CSS response the page received is summed as the bytes that crossed the wire
 * (compressed body, `request.sizes().responseBodySize`); a file the page took from the service
 * worker or from the cache the worker's precache filled counts with the bytes of the worker's own
 * fetch of it. The rest of the worker's precache,
 * which starts after the page has loaded and runs in the background, is reported apart.
 *
 * Alone, it starts the production server (`node build/node/server.js`, from the existing build)
 * on a loopback port with a fresh database; `npm run bench` hands it its own server instead.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium, type Request } from "@playwright/test";
import WebSocket from "ws";
import { HOST_NICKNAME } from "#app/game/rules";
import { chromiumLaunchOptions } from "#tests/chromium";
import { startGameServer, type GameServer } from "./game-server";
import { keepCookies, withCookies } from "./cookie-jar";

const root = path.resolve(import.meta.dirname, "..");
const PHONE = { width: 390, height: 844 };

export interface WeightFile {
  name: string;
  bytes: number;
}

export interface PlayerWeight {
  /** Compressed bytes of every JavaScript and CSS response the page received. */
  totalBytes: number;
  jsBytes: number;
  cssBytes: number;
  files: WeightFile[];
  /** What the service worker fetched in the background meanwhile (its precache); not in the total. */
  serviceWorkerBytes: number;
  serviceWorkerFiles: number;
}

/** A JSON POST to the server's API as the browser with that client id. */
export async function api(url: string, pathname: string, body: unknown, clientId: string) {
  const response = await fetch(url + pathname, {
    method: "POST",
    headers: withCookies(clientId, { "content-type": "application/json", "x-client-id": clientId }),
    body: JSON.stringify(body),
  });
  keepCookies(clientId, response.headers.getSetCookie());
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
  return response.json();
}

function kindOf(request: Request): "js" | "css" | null {
  const { pathname } = new URL(request.url());
  if (request.resourceType() === "stylesheet" || pathname.endsWith(".css")) return "css";
  if (request.resourceType() === "script" || pathname.endsWith(".js") || pathname.endsWith(".mjs")) return "js";
  return null;
}

export interface BenchGame {
  gameCode: string;
  /** The host's bare WebSocket, in the game's lobby. */
  host: WebSocket;
  /** The host starts the game: its one question ("What is 2 + 2?", B. 4 is right) opens. */
  start(): void;
}

/** A socket to the server's `/ws` as the browser with that client id, once open. */
export async function openSocket(serverUrl: string, clientId: string): Promise<WebSocket> {
  const socket = new WebSocket(`${serverUrl.replace(/^http/, "ws")}/ws?clientId=${encodeURIComponent(clientId)}`, {
    perMessageDeflate: false,
    headers: withCookies(clientId, {}),
  });
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  return socket;
}

/** Resolves with the socket's first message of that type. */
export function nextMessage(socket: WebSocket, type: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      if (!data.toString().startsWith(`{"type":"${type}"`)) return;
      socket.off("message", onMessage);
      resolve();
    };
    socket.on("message", onMessage);
  });
}

/**
 * A one-question quiz, a game of it, and its host in the lobby as a bare WebSocket, as in the load
 * benchmark. `questionTimeLimit` (5-240 s) keeps the question open longer than the quiz's 30 s.
 */
export async function openBenchGame(serverUrl: string, { title, questionTimeLimit }: { title: string; questionTimeLimit?: number }): Promise<BenchGame> {
  const hostId = `bench-host-${process.pid}-${Date.now()}`;
  const quiz = await api(serverUrl, "/api/quizzes", { title, timeLimit: 30, isPublic: false }, hostId);
  const question = { quizId: quiz.id, order: 0, text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1, timeLimit: questionTimeLimit };
  await api(serverUrl, "/api/questions", question, hostId);
  const { gameCode } = (await api(serverUrl, "/api/games", { quizId: quiz.id }, hostId)) as { gameCode: string };
  await api(serverUrl, `/api/games/${gameCode}/register-host`, { clientId: hostId }, hostId);

  const host = await openSocket(serverUrl, hostId);
  const hostReady = nextMessage(host, "GAME_SNAPSHOT");
  host.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: HOST_NICKNAME } }));
  await hostReady;
  return { gameCode, host, start: () => host.send(JSON.stringify({ type: "START_GAME", payload: { gameCode } })) };
}

/** One phone joins one game and answers its first question; what its page downloaded. */
export async function measurePlayerWeight(serverUrl: string): Promise<PlayerWeight> {
  const { gameCode, host, start } = await openBenchGame(serverUrl, { title: "Weight benchmark" });
  // A second player, who never answers, keeps the question open: the phone's answer does not close
  // it, so the results screen (a later screen, not part of answering) never enters the count.
  const other = await openSocket(serverUrl, `bench-other-${process.pid}-${Date.now()}`);
  const otherJoined = nextMessage(other, "PLAYER_JOINED");
  other.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: "Other table" } }));
  await otherJoined;
  step("host ready; launching Chromium");
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    // A new context is a new profile: empty HTTP cache, no service worker yet.
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    const finished: Array<Promise<{ request: Request; bytes: number; byServiceWorker: boolean; fromServiceWorker: boolean }>> = [];
    let counting = true;
    context.on("requestfinished", (request) => {
      // The service worker's precache goes on after the answer: what finishes after it is left out.
      if (!counting || !kindOf(request)) return;
      finished.push(
        Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
          request,
          bytes: sizes.responseBodySize,
          byServiceWorker: request.serviceWorker() !== null,
          fromServiceWorker: response?.fromServiceWorker() ?? false,
        })),
      );
    });
    const page = await context.newPage();
    step(`opening /join?code=${gameCode}`);
    await page.goto(`${serverUrl}/join?code=${gameCode}`);
    await page.getByLabel("Nickname").fill("Phone");
    await page.getByRole("button", { name: "Join Game" }).click();
    await page.waitForURL(`**/waiting/${gameCode}`);
    await page.getByText("Waiting for host to start the game...").waitFor();
    step("in the lobby; starting the game");
    start();
    await page.waitForURL(`**/play/${gameCode}`);
    await page.getByRole("button", { name: /B\. 4/ }).click();
    await page.getByText("Answer submitted!", { exact: false }).waitFor();
    counting = false;
    const responses = await Promise.all(finished);
    await context.close();

    const byName = new Map<string, WeightFile & { kind: "js" | "css" }>();
    // A response taken from the browser's cache has no body size (Chromium reports it below zero).
    // The worker's precache fills that cache: a file the page then took from there, or from the
    // worker, crossed the wire once, in the worker's fetch, and counts as the page's.
    const fetchedByWorker = new Map<string, number>();
    for (const { request, bytes, byServiceWorker } of responses) {
      if (byServiceWorker && bytes > 0) fetchedByWorker.set(new URL(request.url()).pathname, bytes);
    }
    for (const { request, bytes, byServiceWorker, fromServiceWorker } of responses) {
      if (byServiceWorker) continue;
      const name = new URL(request.url()).pathname;
      const entry = byName.get(name) ?? { name, bytes: 0, kind: kindOf(request)! };
      if (fromServiceWorker || bytes <= 0) {
        entry.bytes += fetchedByWorker.get(name) ?? 0;
        fetchedByWorker.delete(name);
      } else entry.bytes += bytes;
      byName.set(name, entry);
    }
    const serviceWorkerBytes = [...fetchedByWorker.values()].reduce((total, bytes) => total + bytes, 0);
    const serviceWorkerFiles = fetchedByWorker.size;
    const files = [...byName.values()].sort((a, b) => b.bytes - a.bytes);
    const sum = (list: WeightFile[]) => list.reduce((total, file) => total + file.bytes, 0);
    return {
      totalBytes: sum(files),
      jsBytes: sum(files.filter((file) => file.kind === "js")),
      cssBytes: sum(files.filter((file) => file.kind === "css")),
      files: files.map(({ name, bytes }) => ({ name, bytes })),
      serviceWorkerBytes,
      serviceWorkerFiles,
    };
  } finally {
    await browser.close();
    host.terminate();
    other.terminate();
  }
}

/** The run with the median total of several. */
export async function medianPlayerWeight(serverUrl: string, runs: number): Promise<{ median: PlayerWeight; totals: number[] }> {
  const results: PlayerWeight[] = [];
  for (let run = 0; run < runs; run++) results.push(await measurePlayerWeight(serverUrl));
  const sorted = [...results].sort((a, b) => a.totalBytes - b.totalBytes);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)], totals: results.map((result) => result.totalBytes) };
}

function step(line: string): void {
  process.stderr.write(`[weight] ${line}\n`);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The figure's lines for the bench's table: label, value. */
export function weightRows(weight: PlayerWeight, totals: number[], command: string, biggest = 6): Array<[string, string]> {
  return [
    [
      "player JS+CSS, join link to first answer",
      `${kb(weight.totalBytes)} compressed (JS ${kb(weight.jsBytes)}, CSS ${kb(weight.cssBytes)}; ${weight.files.length} files; median of ${totals.length}: ${totals
        .map(kb)
        .join(", ")}) — \`${command}\``,
    ],
    [
      "player biggest files",
      weight.files
        .slice(0, biggest)
        .map((file) => `${path.basename(file.name)} ${kb(file.bytes)}`)
        .join(" · "),
    ],
    [
      "service worker precache",
      `${kb(weight.serviceWorkerBytes)} in ${weight.serviceWorkerFiles} files, fetched in the background by the time of the answer (not in the total; it goes on precaching the whole build after)`,
    ],
  ];
}

// ------------------------------------------------------------------ alone

async function startServer(): Promise<GameServer> {
  if (!fs.existsSync(path.join(root, "build/node/server.js"))) throw new Error("no build: run `npm run build` first");
  return startGameServer({ root });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "3" }, biggest: { type: "string", default: "10" } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1 (got ${values.runs}).`);
  const server = await startServer();
  try {
    const { median, totals } = await medianPlayerWeight(server.url, runs);
    const command = `npm run bench:weight -- --runs ${runs}`;
    const rows = weightRows(median, totals, command, Number(values.biggest));
    const width = Math.max(...rows.map(([label]) => label.length));
    for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
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
