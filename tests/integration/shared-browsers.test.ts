/**
 * Shared browsers (issue 26, hole 10; docs/decisions/0044-shared-browsers.md): a school computer on
 * which one person after another hosts, signs in and signs out. The client id cookie stays on that
 * computer through all of it, so it alone must never be what gives a game's host seat, host pages
 * and full results. A game made signed in belongs to its account; one made signed out belongs to the
 * browser that holds the secret the server set when the game was made, until someone signs in or
 * out there. Each browser below is a cookie jar over real HTTP and a real WebSocket, as Chromium is.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import { TestClient, signInAs, startTestServer, type TestServer } from "./harness";

let server: TestServer;
let quizId: number;

beforeAll(async () => {
  server = await startTestServer();
  const author = `author-${randomUUID()}`;
  const quiz = await server.api("/api/quizzes", {
    body: { title: "Shared computer quiz", description: "", timeLimit: 30, isPublic: true },
    clientId: author,
  });
  expect(quiz.status).toBe(201);
  quizId = quiz.body.id;
  const question = await server.api("/api/questions", {
    body: { quizId, order: 0, text: "2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
    clientId: author,
  });
  expect(question.status).toBe(201);
});

afterAll(async () => {
  await server?.stop();
});

interface Reply {
  status: number;
  location: string | null;
  headers: Headers;
  body: string;
}

/** One browser profile: its cookies, kept and sent as a browser does (same origin, no redirects followed). */
class Browser {
  readonly cookies = new Map<string, string>();

  constructor(clientId = `browser-${randomUUID()}`) {
    // The page's script writes the persisted client id into its cookie (app/game/client/storage.ts).
    this.cookies.set("quiz_client_id", clientId);
  }

  get clientId(): string {
    return this.cookies.get("quiz_client_id")!;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(pathname: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
    const response = await fetch(server.url + pathname, {
      method: form ? "POST" : "GET",
      headers: { cookie: this.cookieHeader(), ...headers },
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const name = pair.slice(0, pair.indexOf("=")).trim();
      const value = pair.slice(pair.indexOf("=") + 1).trim();
      if (value === "" || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, location: response.headers.get("location"), headers: response.headers, body: await response.text() };
  }

  /** "Host" on the Host page: a new game of the quiz, this browser at its host seat. */
  async hostNewGame(): Promise<string> {
    const reply = await this.request("/host", { quizId: String(quizId), hostName: "Teacher" });
    expect(reply.status, reply.body).toBe(302);
    const gameCode = /^\/waiting\/([A-Z0-9]+)\?/.exec(reply.location ?? "")?.[1];
    expect(gameCode).toBeDefined();
    return gameCode!;
  }

  async logIn(email: string, password = "secret-password"): Promise<void> {
    const reply = await this.request("/auth", { intent: "login", email, password });
    expect(reply.status, reply.body).toBe(302);
    expect(this.cookies.has("qn_session")).toBe(true);
  }

  async logOut(): Promise<void> {
    const reply = await this.request("/logout", {});
    expect(reply.status).toBe(302);
    expect(this.cookies.has("qn_session")).toBe(false);
  }

  /** A page load: its socket carries the page's cookies, as a browser's does. */
  async socket(): Promise<TestClient> {
    return TestClient.connect(server, this.clientId, { cookie: this.cookieHeader() });
  }
}

/** What this browser gets of the game's host side: the host seat on the socket, the host page, the full results. */
async function hostSide(browser: Browser, gameCode: string): Promise<{ seat: string; hostPage: number | string; results: number }> {
  const socket = await browser.socket();
  socket.send("JOIN_GAME", { gameCode, nickname: "__HOST__" });
  const seat = await Promise.race([
    socket.next("GAME_SNAPSHOT", (payload) => payload.role === "host").then(() => "host"),
    socket.next("ERROR").then((error) => error.code ?? error.message),
  ]);
  await socket.close();
  const page = await browser.request(`/host/${gameCode}`);
  const results = await browser.request(`/api/games/${gameCode}/results`, undefined, { "x-client-id": browser.clientId });
  return { seat, hostPage: page.status === 200 ? 200 : `${page.status} ${page.location}`, results: results.status };
}

const RIGHTFUL = { seat: "host", hostPage: 200, results: 200 };
const REFUSED = { seat: "NOT_HOST", hostPage: "302 /", results: 403 };

async function gameIdOf(gameCode: string): Promise<number> {
  const row = await server.db.selectFrom("games").select("id").where("game_code", "=", gameCode).orderBy("id", "desc").executeTakeFirstOrThrow();
  return row.id;
}

describe("a school computer", () => {
  it("a game hosted signed out: its browser keeps the host side across reloads; a copied client id alone gets nothing", async () => {
    const computer = new Browser();
    const gameCode = await computer.hostNewGame();
    expect(await hostSide(computer, gameCode)).toEqual(RIGHTFUL);
    // A reload, a new socket: still the host.
    expect(await hostSide(computer, gameCode)).toEqual(RIGHTFUL);

    // The client id is no secret: it is in the page's script, in localStorage, on every socket's URL.
    const copy = new Browser(computer.clientId);
    expect(await hostSide(copy, gameCode)).toEqual(REFUSED);
  });

  it("someone signs in on the computer after a signed-out game: that game's host side is refused to them", async () => {
    const computer = new Browser();
    const gameCode = await computer.hostNewGame();
    expect(await hostSide(computer, gameCode)).toEqual(RIGHTFUL);

    const next = await signInAs(server);
    await computer.logIn(next.email);
    expect(await hostSide(computer, gameCode)).toEqual(REFUSED);
  });

  it("someone signs in and out again: the browser is signed out as before, and still refused the earlier signed-out game (and its report)", async () => {
    const computer = new Browser();
    const gameCode = await computer.hostNewGame();
    const gameId = await gameIdOf(gameCode);
    expect((await computer.request(`/my-games/${gameId}`)).status).toBe(200);

    const next = await signInAs(server);
    await computer.logIn(next.email);
    await computer.logOut();
    expect(computer.cookies.get("quiz_client_id")).toBe(computer.clientId);
    expect(await hostSide(computer, gameCode)).toEqual(REFUSED);
    expect((await computer.request(`/my-games/${gameId}`)).status).toBe(404);

    // A game made now, signed out again, is this browser's as before.
    const fresh = await computer.hostNewGame();
    expect(await hostSide(computer, fresh)).toEqual(RIGHTFUL);
  });

  it("a game hosted signed in belongs to the account: another account on the same browser is refused, the owner gets back in", async () => {
    const computer = new Browser();
    const owner = await signInAs(server);
    await computer.logIn(owner.email);
    const gameCode = await computer.hostNewGame();
    expect(await hostSide(computer, gameCode)).toEqual(RIGHTFUL);

    // The owner leaves without signing out; the next person signs in over it.
    const next = await signInAs(server);
    await computer.logIn(next.email);
    expect(await hostSide(computer, gameCode)).toEqual(REFUSED);

    // Signed out, nobody's: refused too.
    await computer.logOut();
    expect(await hostSide(computer, gameCode)).toEqual(REFUSED);

    // The owner comes back to the same computer and signs in: the host side is theirs again.
    await computer.logIn(owner.email);
    expect(await hostSide(computer, gameCode)).toEqual(RIGHTFUL);
  });

  it("a signed-in host's session ended elsewhere ('Sign out everywhere', expiry): the browser left behind is refused", async () => {
    const computer = new Browser();
    const owner = await signInAs(server);
    await computer.logIn(owner.email);
    const gameCode = await computer.hostNewGame();
    expect(await hostSide(computer, gameCode)).toEqual(RIGHTFUL);

    await server.db.deleteFrom("sessions").where("user_id", "=", owner.user.id).execute();
    expect(await hostSide(computer, gameCode)).toEqual(REFUSED);
  });

  it("a sign-in ends the host seat of the computer's open sockets too; they reopen as the browser is now, and are refused", async () => {
    const computer = new Browser();
    const gameCode = await computer.hostNewGame();
    const host = await computer.socket();
    await host.joinAsHost(gameCode);
    // A player on the same computer (another tab).
    const player = await TestClient.connect(server, computer.clientId, { cookie: computer.cookieHeader() });
    const playerId = await player.joinAsPlayer(gameCode, "Pupil");

    const next = await signInAs(server);
    await computer.logIn(next.email);
    // The page's socket outlives a sign-in (the game runs from the root layout): the server closes
    // every socket of that browser, which reopens with its cookies as they are now.
    expect(await host.closedByServer()).toBe(CloseCode.SIGN_IN_CHANGED);
    expect(await player.closedByServer()).toBe(CloseCode.SIGN_IN_CHANGED);
    const reopened = await computer.socket();
    reopened.send("JOIN_GAME", { gameCode, nickname: "__HOST__" });
    expect(await reopened.next("ERROR")).toMatchObject({ code: "NOT_HOST" });
    // The player comes back as the same player.
    const playerAgain = await computer.socket();
    expect(await playerAgain.joinAsPlayer(gameCode, "Pupil")).toBe(playerId);
    await Promise.all([reopened.close(), playerAgain.close()]);
  });

  it("a page's socket opens before its first game is made: the page load gave the browser its host secret, so that socket is the host", async () => {
    const computer = new Browser();
    const home = await computer.request("/", undefined, { accept: "text/html" });
    expect(home.status).toBe(200);
    expect(home.headers.getSetCookie().find((line) => line.startsWith("qn_host="))).toMatch(/; HttpOnly/);
    const socket = await computer.socket();
    const gameCode = await computer.hostNewGame();
    expect(await socket.joinAsHost(gameCode)).toMatchObject({ role: "host", gameCode });
    await socket.close();
  });

  it("a page's socket opened before signing in is reopened at the sign-in, and then hosts the account's game", async () => {
    const computer = new Browser();
    await computer.request("/", undefined, { accept: "text/html" });
    const socket = await computer.socket();
    const owner = await signInAs(server);
    await computer.logIn(owner.email);
    expect(await socket.closedByServer()).toBe(CloseCode.SIGN_IN_CHANGED);
    const reopened = await computer.socket();
    const gameCode = await computer.hostNewGame();
    expect(await reopened.joinAsHost(gameCode)).toMatchObject({ role: "host", gameCode });
    await reopened.close();
  });
});

describe("pages that show a game's display and remote keys", () => {
  it("are never stored by a cache (Cache-Control: no-store), signed out as much as signed in", async () => {
    const computer = new Browser();
    const gameCode = await computer.hostNewGame();
    for (const pathname of [`/host/${gameCode}`, `/waiting/${gameCode}?hosted=1`, `/waiting/${gameCode}.data`]) {
      const reply = await computer.request(pathname);
      expect(reply.status, pathname).toBe(200);
      expect(reply.body, pathname).toMatch(/\/display\/[A-Z0-9]+\?key=/);
      expect(reply.headers.get("cache-control"), pathname).toMatch(/no-store/);
    }
    const renewed = await computer.request(`/host/${gameCode}/new-links`, { redirectTo: `/waiting/${gameCode}` });
    expect(renewed.status).toBe(302);
    expect(renewed.headers.get("cache-control")).toMatch(/no-store/);
  });
});
