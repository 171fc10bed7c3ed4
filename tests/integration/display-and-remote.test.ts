/**
 * Display and remote (issue 17, docs/decisions/0032-display-and-remote.md) over real sockets: a
 * display watches with the game's display key and can never act; a wrong key is refused; a remote
 * (another browser with the remote key) runs the game beside the host's own screen; a display that
 * reconnects comes back to the current screen; the keys survive a restart; the host's "New links"
 * replaces both keys and closes what came in with the old ones.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GameRoom } from "#server/game-room";
import { TestClient, browserCookie, createGameFixture, startTestServer, type TestServer } from "./harness";

let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await server.stop();
});

async function connect(on: TestServer = server, clientId?: string): Promise<TestClient> {
  const client = await TestClient.connect(on, clientId);
  clients.push(client);
  return client;
}

async function keysOf(gameCode: string, on: TestServer = server): Promise<{ displayKey: string; remoteKey: string }> {
  const row = await on.db.selectFrom("games").select(["display_key", "remote_key"]).where("game_code", "=", gameCode).executeTakeFirstOrThrow();
  return { displayKey: row.display_key!, remoteKey: row.remote_key! };
}

async function watch(gameCode: string, key: string, on: TestServer = server) {
  const display = await connect(on);
  display.send("WATCH_GAME", { gameCode, key });
  const snapshot = await display.next("GAME_SNAPSHOT");
  return { display, snapshot };
}

/**
 * Every field holding an id in what a client received, as "TYPE path" ("LOBBY_UPDATE players[].id"):
 * `id` and any `...Id`; a null one (a display's `playerId: null`) names nobody.
 */
function idFieldsOf(client: TestClient): string[] {
  const found: string[] = [];
  const walk = (type: string, value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(type, item, `${path}[]`);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (/^id$|Ids?$/.test(key) && inner !== null) found.push(`${type} ${at}`);
        walk(type, inner, at);
      }
    }
  };
  for (const { message } of client.received) walk(message.type, message.payload, "");
  return found;
}

/** A game with its host and two players in the lobby. */
async function lobby(options: Parameters<typeof createGameFixture>[1] = {}) {
  const fixture = await createGameFixture(server, options);
  const keys = await keysOf(fixture.gameCode);
  const host = await connect(server, fixture.hostClientId);
  await host.joinAsHost(fixture.gameCode);
  const ann = await connect();
  const bob = await connect();
  const annId = await ann.joinAsPlayer(fixture.gameCode, "Ann");
  const bobId = await bob.joinAsPlayer(fixture.gameCode, "Bob");
  return { ...fixture, ...keys, host, ann, bob, annId, bobId };
}

describe("a display", () => {
  it("gets its keys with the game: two different random base64url keys", async () => {
    const { displayKey, remoteKey } = await lobby();
    expect(displayKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(remoteKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(displayKey).not.toBe(remoteKey);
  });

  it("is refused with a wrong key, a key of another game, or the remote key, and is then no part of the game", async () => {
    const game = await lobby();
    const other = await createGameFixture(server);
    const otherKeys = await keysOf(other.gameCode);
    // The right key with its last character changed (one in 64 keys already ends in "x").
    const wrongKey = `${game.displayKey.slice(0, -1)}${game.displayKey.endsWith("x") ? "y" : "x"}`;
    for (const key of [wrongKey, otherKeys.displayKey, game.remoteKey, "short"]) {
      const stranger = await connect();
      stranger.send("WATCH_GAME", { gameCode: game.gameCode, key });
      expect(await stranger.next("ERROR")).toEqual({
        code: "BAD_KEY",
        key: "BAD_DISPLAY_KEY",
        message: "This display link is not valid. Open the display again from the host's screen.",
      });
      stranger.send("START_GAME", { gameCode: game.gameCode });
      expect((await stranger.next("ERROR")).code).toBe("NOT_HOST");
      await stranger.expectNone("GAME_SNAPSHOT", 50);
    }
    // A key without a game code, or no key at all, never reaches a room.
    const bare = await connect();
    bare.send("WATCH_GAME", { gameCode: game.gameCode });
    expect((await bare.next("ERROR")).code).toBe("BAD_MESSAGE");
  });

  it("watches as a display and is refused every host command with NOT_HOST, in every phase", async () => {
    const game = await lobby({ questions: [{ kind: "typeAnswer", text: "Largest ocean?", acceptedAnswers: ["Pacific"] }] });
    const { display, snapshot } = await watch(game.gameCode, game.displayKey);
    expect(snapshot).toMatchObject({ role: "display", playerId: null, phase: "lobby", playerCount: 2 });
    // The names alone: a display holds no player's id outside the standings (issue 17).
    expect(snapshot.players).toEqual([{ nickname: "Ann" }, { nickname: "Bob" }]);

    const commands: [string, Record<string, unknown>][] = [
      ["START_GAME", {}],
      ["NEXT_QUESTION", {}],
      ["PAUSE_QUESTION", {}],
      ["RESUME_QUESTION", {}],
      ["END_GAME", {}],
      ["KICK_PLAYER", { playerId: game.annId }],
      ["LOCK_GAME", { locked: true }],
      ["ACCEPT_ANSWER", { questionNumber: 1, text: "Atlantic" }],
      ["SET_PICTURES_ON_PLAYERS", { enabled: true }],
      ["PLAY_AGAIN", {}],
    ];
    const tryAll = async (phase: string) => {
      for (const [type, payload] of commands) {
        display.send(type, { gameCode: game.gameCode, ...payload });
        expect((await display.next("ERROR")).code, `${type} in the ${phase}`).toBe("NOT_HOST");
      }
      // Nor can it answer for a player.
      display.send("SUBMIT_ANSWER", { gameCode: game.gameCode, playerId: game.annId, text: "Pacific" });
      expect((await display.next("ERROR")).code).toBe("UNKNOWN_PLAYER");
    };
    await tryAll("lobby");
    expect(game.host.all("LOBBY_LOCKED")).toEqual([]);
    expect(game.host.all("PLAYER_LEFT")).toEqual([]);

    game.host.send("START_GAME", { gameCode: game.gameCode });
    await display.next("QUESTION_STARTED");
    await tryAll("question");
    game.ann.send("SUBMIT_ANSWER", { gameCode: game.gameCode, playerId: game.annId, text: "Atlantic" });
    await game.ann.next("ANSWER_ACCEPTED");
    const progress = await display.next("ANSWER_PROGRESS", (payload) => payload.answeredCount === 1);
    expect(progress).toEqual({ questionNumber: 1, answeredCount: 1, playerCount: 2, answerCounts: [] });
    expect(game.host.all("QUESTION_PAUSED")).toEqual([]);

    game.host.send("NEXT_QUESTION", { gameCode: game.gameCode });
    const reveal = await display.next("ANSWER_RESULTS");
    expect(reveal.playerResults).toEqual([]);
    expect(reveal.typedAnswers).toBeUndefined();
    expect(reveal.acceptedAnswers).toEqual(["Pacific"]);
    // The host's own reveal has the typed answers it may accept.
    expect((await game.host.next("ANSWER_RESULTS")).typedAnswers).toEqual([{ text: "Atlantic", count: 1, correct: false }]);
    await tryAll("results");
    // The display's refused Accept changed nothing: no second reveal reached anyone.
    await game.host.expectNone("ANSWER_RESULTS", 100);

    game.host.send("END_GAME", { gameCode: game.gameCode });
    const over = await display.next("GAME_OVER");
    expect(over.you).toBeUndefined();
    expect(over.players.map((player) => player.nickname).sort()).toEqual(["Ann", "Bob"]);
    await tryAll("podium");

    // Nothing it received names a browser or carries a player's own result, nor a player's id beyond the podium's.
    const everything = JSON.stringify(display.received.map((entry) => entry.message));
    for (const clientId of [game.ann.clientId, game.bob.clientId, game.hostClientId]) expect(everything).not.toContain(clientId);
    expect(display.all("PLAYER_JOINED")).toEqual([]);
    expect(idFieldsOf(display).filter((field) => !/^GAME_OVER players\[\]\.id$|^(QUESTION_STARTED|ANSWER_RESULTS) question\.id$/.test(field))).toEqual([]);
  });

  it("comes back to the current screen when it reconnects, and any number of displays watch at once", async () => {
    const game = await lobby();
    const first = await watch(game.gameCode, game.displayKey);
    const second = await watch(game.gameCode, game.displayKey);
    game.host.send("START_GAME", { gameCode: game.gameCode });
    const question = await first.display.next("QUESTION_STARTED");
    expect(await second.display.next("QUESTION_STARTED")).toEqual(question);
    expect(question.question.text).toBe("2 + 2?");

    // The projector's laptop loses the network mid-question and comes back.
    await first.display.terminate();
    game.bob.send("SUBMIT_ANSWER", { gameCode: game.gameCode, playerId: game.bobId, answerIndex: 1 });
    await game.bob.next("ANSWER_ACCEPTED");
    const back = await watch(game.gameCode, game.displayKey);
    expect(back.snapshot).toMatchObject({ role: "display", phase: "question", questionNumber: 1 });
    expect((await back.display.next("QUESTION_STARTED")).question.text).toBe("2 + 2?");
    expect(await back.display.next("ANSWER_PROGRESS")).toMatchObject({ answeredCount: 1, answerCounts: [] });

    game.host.send("NEXT_QUESTION", { gameCode: game.gameCode });
    await back.display.next("ANSWER_RESULTS");
    // Back during the reveal: the reveal with its question, and no player's result.
    const again = await watch(game.gameCode, game.displayKey);
    expect(again.snapshot.phase).toBe("results");
    const reveal = await again.display.next("ANSWER_RESULTS");
    expect(reveal).toMatchObject({ correctAnswerIndex: 1, answerCounts: [0, 1, 0, 0], playerResults: [], question: { text: "2 + 2?" } });
    await again.display.next("LEADERBOARD_UPDATE");
    const onLeaderboard = await watch(game.gameCode, game.displayKey);
    expect(onLeaderboard.snapshot.phase).toBe("leaderboard");
    expect((await onLeaderboard.display.next("LEADERBOARD_UPDATE")).players[0]).toMatchObject({ nickname: "Bob", rank: 1 });
  });

  it("sees the lobby's newest names as players join and leave, at most once a second", async () => {
    const game = await lobby();
    const { display } = await watch(game.gameCode, game.displayKey);
    const cat = await connect();
    await cat.joinAsPlayer(game.gameCode, "Cat");
    const update = await display.next("LOBBY_UPDATE", (payload) => payload.playerCount === 3);
    expect(update.players).toEqual([{ nickname: "Ann" }, { nickname: "Bob" }, { nickname: "Cat" }]);
    game.host.send("KICK_PLAYER", { gameCode: game.gameCode, playerId: game.annId });
    const after = await display.next("LOBBY_UPDATE", (payload) => payload.playerCount === 2, 3000);
    expect(after.players).toEqual([{ nickname: "Bob" }, { nickname: "Cat" }]);
    expect(display.all("PLAYER_LEFT")).toEqual([]);
    // No player's id in anything it got in the lobby; the host still has every id, to remove a player by.
    expect(idFieldsOf(display)).toEqual([]);
    expect((await game.host.next("PLAYER_JOINED", (payload) => payload.player.nickname === "Cat")).player.id).toEqual(expect.any(Number));
  });
});

describe("a remote", () => {
  it("runs the game from another browser with the remote key beside the host's screen: start, pause, resume, skip, lock, kick and end", async () => {
    const game = await lobby({ timeLimit: 30 });
    const { display } = await watch(game.gameCode, game.displayKey);
    // The host's phone: a browser the game has never seen.
    const remote = await connect(server, "phone-of-the-host");
    remote.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "__HOST__", key: game.remoteKey });
    const snapshot = await remote.next("GAME_SNAPSHOT");
    expect(snapshot).toMatchObject({ role: "host", phase: "lobby", playerCount: 2 });
    expect(remote.all("PLAYER_JOINED").map((joined) => joined.player.nickname)).toEqual(["Ann", "Bob"]);

    remote.send("LOCK_GAME", { gameCode: game.gameCode, locked: true });
    expect(await game.host.next("LOBBY_LOCKED")).toEqual({ locked: true });
    await remote.next("LOBBY_LOCKED");
    remote.send("LOCK_GAME", { gameCode: game.gameCode, locked: false });
    await game.host.next("LOBBY_LOCKED");

    remote.send("START_GAME", { gameCode: game.gameCode });
    await Promise.all([
      game.ann.next("QUESTION_STARTED"),
      game.host.next("QUESTION_STARTED"),
      display.next("QUESTION_STARTED"),
      remote.next("QUESTION_STARTED"),
    ]);

    remote.send("PAUSE_QUESTION", { gameCode: game.gameCode });
    const paused = await display.next("QUESTION_PAUSED");
    expect(await game.host.next("QUESTION_PAUSED")).toEqual(paused);
    remote.send("RESUME_QUESTION", { gameCode: game.gameCode });
    await display.next("QUESTION_RESUMED");

    // Both host connections see the live count with the picks; the display without.
    game.ann.send("SUBMIT_ANSWER", { gameCode: game.gameCode, playerId: game.annId, answerIndex: 1 });
    await game.ann.next("ANSWER_ACCEPTED");
    expect((await remote.next("ANSWER_PROGRESS", (payload) => payload.answeredCount === 1)).answerCounts).toEqual([0, 1, 0, 0]);
    expect((await game.host.next("ANSWER_PROGRESS", (payload) => payload.answeredCount === 1)).answerCounts).toEqual([0, 1, 0, 0]);

    remote.send("NEXT_QUESTION", { gameCode: game.gameCode });
    const hostReveal = await remote.next("ANSWER_RESULTS");
    expect(hostReveal.playerResults.map((result) => result.nickname).sort()).toEqual(["Ann", "Bob"]);
    await display.next("ANSWER_RESULTS");

    // The laptop's host screen still works alongside.
    game.host.send("NEXT_QUESTION", { gameCode: game.gameCode });
    await remote.next("LEADERBOARD_UPDATE");

    remote.send("KICK_PLAYER", { gameCode: game.gameCode, playerId: game.bobId });
    expect(await game.bob.closedByServer()).toBe(4004);
    expect(await game.host.next("PLAYER_LEFT")).toEqual({ playerId: game.bobId });

    remote.send("NEXT_QUESTION", { gameCode: game.gameCode });
    await display.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2);
    remote.send("END_GAME", { gameCode: game.gameCode });
    const over = await display.next("GAME_OVER");
    expect(over.players.map((player) => player.nickname)).toEqual(["Ann"]);
    await game.host.next("GAME_OVER");
    expect((await game.ann.next("GAME_OVER")).you).toEqual({ rank: 1, score: expect.any(Number) });
    // Ended, not revealed: the second question's results never went out.
    expect(display.all("ANSWER_RESULTS")).toHaveLength(1);
    const row = await server.db.selectFrom("games").select(["status", "phase", "ended_at"]).where("game_code", "=", game.gameCode).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "finished", phase: "finished" });
    expect(row.ended_at).not.toBeNull();

    remote.send("END_GAME", { gameCode: game.gameCode });
    expect((await remote.next("ERROR")).code).toBe("GAME_OVER");
  });

  it("is refused with a wrong key or the display key, and End game is refused before the start", async () => {
    const game = await lobby();
    for (const key of [game.displayKey, `${game.remoteKey}x`]) {
      const phone = await connect();
      phone.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "__HOST__", key });
      expect(await phone.next("ERROR")).toMatchObject({ code: "NOT_HOST" });
      phone.send("START_GAME", { gameCode: game.gameCode });
      expect((await phone.next("ERROR")).code).toBe("NOT_HOST");
    }
    game.host.send("END_GAME", { gameCode: game.gameCode });
    expect(await game.host.next("ERROR")).toEqual({ code: "NOT_STARTED", key: "NOT_STARTED", message: "The game has not started yet." });
    // A player cannot end it either.
    game.ann.send("END_GAME", { gameCode: game.gameCode });
    expect(await game.ann.next("ERROR")).toEqual({ code: "NOT_HOST", key: "NOT_HOST_END", message: "Only the host can end the game." });
  });
});

describe("the keys", () => {
  it("survive a restart: a display and a remote join the resumed game with the same links", async () => {
    const first = await startTestServer();
    const fixture = await createGameFixture(first);
    const keys = await keysOf(fixture.gameCode, first);
    const host = await connect(first, fixture.hostClientId);
    await host.joinAsHost(fixture.gameCode);
    const ann = await connect(first);
    await ann.joinAsPlayer(fixture.gameCode, "Ann");
    host.send("START_GAME", { gameCode: fixture.gameCode });
    await ann.next("QUESTION_STARTED");
    await first.close();

    const second = await startTestServer({ databasePath: first.databasePath });
    try {
      const { display, snapshot } = await watch(fixture.gameCode, keys.displayKey, second);
      expect(snapshot).toMatchObject({ role: "display", phase: "question" });
      await display.next("QUESTION_STARTED");
      const remote = await connect(second);
      remote.send("JOIN_GAME", { gameCode: fixture.gameCode, nickname: "__HOST__", key: keys.remoteKey });
      expect(await remote.next("GAME_SNAPSHOT")).toMatchObject({ role: "host", phase: "question" });
      remote.send("END_GAME", { gameCode: fixture.gameCode });
      await display.next("GAME_OVER");
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await second.stop();
    }
  });

  it("are drawn for a game created before them, once however many ask at once, and let its display in", async () => {
    const fixture = await createGameFixture(server);
    await server.db.updateTable("games").set({ display_key: null, remote_key: null }).where("game_code", "=", fixture.gameCode).execute();
    const { ensureGameKeys } = await import("#app/models/game-keys.server");
    const game = await server.db.selectFrom("games").select("id").where("game_code", "=", fixture.gameCode).executeTakeFirstOrThrow();
    const [a, b] = await Promise.all([ensureGameKeys(server.db, game.id), ensureGameKeys(server.db, game.id)]);
    expect(a).toEqual(b);
    expect(a!.displayKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const { snapshot } = await watch(fixture.gameCode, a!.displayKey);
    expect(snapshot.role).toBe("display");
  });
});

/** The host's "New links" button as a browser without JavaScript posts it: a form, with the browser's client id cookie. */
async function postNewLinks(gameCode: string, clientId: string, redirectTo = `/waiting/${gameCode}`) {
  const response = await fetch(`${server.url}/host/${gameCode}/new-links`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: browserCookie(clientId), origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ redirectTo }),
  });
  return { status: response.status, location: response.headers.get("location") };
}

describe("new links", () => {
  it("replace both keys: the old display and remote are closed and refused, the new links work, and the host keeps its seat", async () => {
    const game = await lobby();
    const { display } = await watch(game.gameCode, game.displayKey);
    const remote = await connect(server, "phone-of-the-host");
    remote.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "__HOST__", key: game.remoteKey });
    expect(await remote.next("GAME_SNAPSHOT")).toMatchObject({ role: "host" });
    // The host's laptop in a second tab, come in with the remote key: still the host's own browser.
    const laptopTab = await connect(server, game.hostClientId);
    laptopTab.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "__HOST__", key: game.remoteKey });
    await laptopTab.next("GAME_SNAPSHOT");

    // Only the host's browser may: a player's gets sent home, and nothing changes.
    expect(await postNewLinks(game.gameCode, game.ann.clientId)).toEqual({ status: 302, location: "/" });
    expect(await keysOf(game.gameCode)).toEqual({ displayKey: game.displayKey, remoteKey: game.remoteKey });

    const reply = await postNewLinks(game.gameCode, game.hostClientId);
    expect(reply).toEqual({ status: 302, location: `/waiting/${game.gameCode}?links=new` });
    const renewed = await keysOf(game.gameCode);
    expect(renewed.displayKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(renewed.remoteKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(renewed.displayKey).not.toBe(game.displayKey);
    expect(renewed.remoteKey).not.toBe(game.remoteKey);

    // The display and the phone are told, and closed with a code that says not to come back.
    const told = {
      code: "LINK_REPLACED",
      key: "LINK_REPLACED",
      message: "The host made new links for this game, so this one no longer works. Ask the host for the new link.",
    };
    expect(await display.next("ERROR")).toEqual(told);
    expect(await display.closedByServer()).toBe(4006);
    expect(await remote.next("ERROR")).toEqual(told);
    expect(await remote.closedByServer()).toBe(4006);

    // The old keys are refused, on the socket and by the pages.
    const oldDisplay = await connect();
    oldDisplay.send("WATCH_GAME", { gameCode: game.gameCode, key: game.displayKey });
    expect((await oldDisplay.next("ERROR")).code).toBe("BAD_KEY");
    const oldRemote = await connect(server, "phone-of-the-host");
    oldRemote.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "__HOST__", key: game.remoteKey });
    expect((await oldRemote.next("ERROR")).code).toBe("NOT_HOST");
    oldRemote.send("START_GAME", { gameCode: game.gameCode });
    expect((await oldRemote.next("ERROR")).code).toBe("NOT_HOST");
    expect((await fetch(`${server.url}/display/${game.gameCode}?key=${game.displayKey}`)).status).toBe(404);
    expect((await fetch(`${server.url}/remote/${game.gameCode}?key=${game.remoteKey}`)).status).toBe(404);

    // The new ones work, and the host's page shows them.
    const fresh = await watch(game.gameCode, renewed.displayKey);
    expect(fresh.snapshot).toMatchObject({ role: "display", phase: "lobby", playerCount: 2 });
    const newRemote = await connect(server, "phone-of-the-host");
    newRemote.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "__HOST__", key: renewed.remoteKey });
    expect(await newRemote.next("GAME_SNAPSHOT")).toMatchObject({ role: "host" });
    expect((await fetch(`${server.url}/display/${game.gameCode}?key=${renewed.displayKey}`)).status).toBe(200);
    const page = await fetch(`${server.url}/waiting/${game.gameCode}?links=new`, { headers: { cookie: browserCookie(game.hostClientId) } });
    const html = await page.text();
    expect(html).toContain(renewed.displayKey);
    expect(html).not.toContain(game.displayKey);

    // The host's own connections were never closed and still run the game, with the new remote beside them.
    expect(game.host.closeCode).toBeNull();
    expect(laptopTab.closeCode).toBeNull();
    expect(game.host.all("ERROR")).toEqual([]);
    game.host.send("START_GAME", { gameCode: game.gameCode });
    await Promise.all([game.ann.next("QUESTION_STARTED"), fresh.display.next("QUESTION_STARTED"), newRemote.next("QUESTION_STARTED")]);
    newRemote.send("NEXT_QUESTION", { gameCode: game.gameCode });
    await game.host.next("ANSWER_RESULTS");

    // New links again, mid-game, from the question screen: the page it came from is where it goes back.
    expect(await postNewLinks(game.gameCode, game.hostClientId, `/host/${game.gameCode}`)).toEqual({
      status: 302,
      location: `/host/${game.gameCode}?links=new`,
    });
    expect(await fresh.display.closedByServer()).toBe(4006);
    expect(await newRemote.closedByServer()).toBe(4006);
    expect(game.host.closeCode).toBeNull();
  });

  it("keep a finished game's links, and send a stranger home", async () => {
    const game = await lobby();
    game.host.send("START_GAME", { gameCode: game.gameCode });
    await game.ann.next("QUESTION_STARTED");
    game.host.send("END_GAME", { gameCode: game.gameCode });
    await game.ann.next("GAME_OVER");
    await server.hub.getRoom(game.gameCode).then((room) => (room instanceof GameRoom ? room.settle() : undefined));
    expect(await postNewLinks(game.gameCode, game.hostClientId)).toEqual({ status: 302, location: `/waiting/${game.gameCode}` });
    expect(await keysOf(game.gameCode)).toEqual({ displayKey: game.displayKey, remoteKey: game.remoteKey });
    expect(await postNewLinks(game.gameCode, "someone-else")).toEqual({ status: 302, location: "/" });
    expect((await fetch(`${server.url}/host/${game.gameCode}/new-links`, { redirect: "manual" })).headers.get("location")).toBe("/");
  });
});
