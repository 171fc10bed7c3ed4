/**
 * Fuzzes the live /ws endpoint. While a real game is in progress (a host and four well-behaved
 * players), dozens of other sockets send more than 10,000 random and malformed frames. Sockets
 * that stay below the rate limit must get exactly one ERROR per frame the server has to refuse;
 * flooding, oversized and invalid-UTF-8 sockets must be closed with their codes. The server must
 * keep serving HTTP, and the game must go on to GAME_OVER as if the fuzzers had never been there.
 */
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientMessageSchema, CloseCode, MAX_MESSAGE_BYTES, type ClientMessage } from "#app/game/protocol";
import { HOST_NICKNAME } from "#app/game/rules";
import { isOffensive } from "#app/schemas/profanity";
import { createLogger, type Logger } from "#server/logger";
import { SAMPLE_QUESTIONS, TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

/** fast-check seed of every generated frame; a failure names it, and FUZZ_SEED replays it. */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** The rate limit is 20 messages a second with a burst of 40: paced sockets stay well below it. */
const PACE = { burst: 20, perTick: 2, tickMs: 110 };
const FUZZ_MS = 10_000;
/** Sockets that send junk without joining, and sockets that first join properly with an odd nickname. */
const OUTSIDERS = 30;
const BACKGROUND_OUTSIDERS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(20);
}

const nicknameKey = (nickname: string) => nickname.toLocaleLowerCase("en-US");

/** A logger that keeps what the server logs at error level (a failed handler, a lost commit). */
function errorLog(): { logger: Logger; errors: { event?: string; msg: string; err?: { message?: string } }[] } {
  const errors: { event?: string; msg: string; err?: { message?: string } }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) {
        const entry = JSON.parse(line) as { level: number; event?: string; msg: string; err?: { message?: string } };
        if (entry.level >= 50) errors.push({ event: entry.event, msg: entry.msg, err: entry.err && { message: entry.err.message } });
      }
      done();
    },
  });
  return { logger: createLogger({ level: "warn", destination: sink }), errors };
}

// ------------------------------------------------------------------ the server's state per socket, as far as replies depend on it

/** What ws.ts and the room remember about a socket: whether it has a room, and whether its client id is a player. */
interface SocketModel {
  room: boolean;
  playerId: number | null;
}

interface GameFacts {
  gameCode: string;
  /** Lower-cased nicknames of everybody in the game, so a JOIN_GAME with one of them is refused. */
  taken: Set<string>;
}

/**
 * What the server must answer to one frame from a socket in `model` (and how the model changes):
 * every frame gets exactly one ERROR, except a proper JOIN_GAME of a socket whose client is
 * already a player (a rejoin) and a LEAVE_GAME that leaves or finds nothing to leave. Frames whose
 * outcome would depend on a race (a join with a fresh nickname, an answer for the socket's own
 * player) are never sent: they come back as "skip".
 */
function expectedReply(model: SocketModel, message: ClientMessage | null, game: GameFacts): "error" | "none" | "skip" {
  if (!message) return "error";
  switch (message.type) {
    case "JOIN_GAME": {
      if (message.payload.gameCode !== game.gameCode) return "error";
      const { nickname } = message.payload;
      const nameRefused = game.taken.has(nicknameKey(nickname)) || nicknameKey(nickname) === nicknameKey(HOST_NICKNAME);
      // Only the registered host may be __HOST__; a player's own client rejoins whatever name it sends.
      const refused = nickname === HOST_NICKNAME || (model.playerId === null && nameRefused);
      // A new player with a fresh nickname: a real join, never sent (and so no change to the model).
      if (!refused && model.playerId === null) return "skip";
      model.room = true;
      return refused ? "error" : "none";
    }
    case "LEAVE_GAME":
      if (!model.room) return "none";
      if (message.payload.gameCode !== game.gameCode) return "error";
      model.room = false;
      return "none";
    case "SUBMIT_ANSWER":
      return message.payload.playerId === model.playerId ? "skip" : "error";
    default:
      return "error";
  }
}

/** The message the server would act on, or null for a frame it must refuse as malformed. */
function wellFormed(data: string | Uint8Array): ClientMessage | null {
  if (typeof data !== "string") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  const result = ClientMessageSchema.safeParse(parsed);
  return result.success ? result.data : null;
}

// ------------------------------------------------------------------ frames

const MESSAGE_TYPES = [
  "JOIN_GAME",
  "START_GAME",
  "SUBMIT_ANSWER",
  "NEXT_QUESTION",
  "LEAVE_GAME",
  "PLAY_AGAIN",
  "KICK_PLAYER",
  "LOCK_GAME",
  "PAUSE_QUESTION",
  "RESUME_QUESTION",
] as const;
const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** A JSON frame of exactly `bytes` bytes whose nickname is far too long. */
function frameOfSize(bytes: number, gameCode: string): string {
  const head = `{"type":"JOIN_GAME","payload":{"gameCode":"${gameCode}","nickname":"`;
  const tail = `"}}`;
  return head + "n".repeat(bytes - head.length - tail.length) + tail;
}

/** Frames written by hand: the shapes a fuzzer is unlikely to find, and prototype-pollution bait. */
function nastyFrames(gameCode: string, goodIds: number[]): string[] {
  const submit = (rest: string) => `{"type":"SUBMIT_ANSWER","payload":{"gameCode":"${gameCode}",${rest}}}`;
  return [
    "",
    " ",
    "{",
    "}{",
    '{"type":"JOIN_GAME",}',
    "{'type':'JOIN_GAME'}",
    "\ufeff{}",
    "null",
    "true",
    "-0",
    "1e400",
    '"JOIN_GAME"',
    "[]",
    '[{"type":"START_GAME","payload":{"gameCode":"' + gameCode + '"}}]',
    "{}",
    '{"type":null,"payload":null}',
    '{"type":{},"payload":{}}',
    '{"type":[1,[2,"x"]],"payload":{}}',
    '{"type":"","payload":{}}',
    '{"type":"START_GAME"}',
    '{"type":"START_GAME","payload":null}',
    '{"type":"START_GAME","payload":[]}',
    '{"type":"START_GAME","payload":"' + gameCode + '"}',
    '{"type":"start_game","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"START\\u005fGAME","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"START_GAME\\u0000","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"JOIN_GAME","type":"START_GAME","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"ERROR","payload":{"message":"spoofed"}}',
    '{"type":"GAME_OVER","payload":{"players":[],"playerCount":0}}',
    '{"type":"' + "X".repeat(5000) + '","payload":{}}',
    // Prototype pollution bait: JSON.parse makes these own keys, which must change nothing.
    '{"__proto__":{"type":"START_GAME","payload":{"gameCode":"' + gameCode + '"}}}',
    '{"type":"START_GAME","payload":{"__proto__":{"gameCode":"' + gameCode + '"}}}',
    '{"type":"START_GAME","payload":{"gameCode":"' + gameCode + '","__proto__":{"isHost":true,"role":"host"}},"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}},"type":"NEXT_QUESTION","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"PLAY_AGAIN","payload":{"gameCode":"' + gameCode + '","constructor":{"prototype":{"isHost":true}}}}',
    '{"type":"__proto__","payload":{}}',
    '{"type":"constructor","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"hasOwnProperty","payload":{}}',
    submit(`"playerId":${goodIds[0]},"answerIndex":1,"__proto__":{"playerId":${goodIds[1]}}`),
    submit(`"playerId":{"__proto__":${goodIds[0]}},"answerIndex":1`),
    // Numbers at and past the edges.
    submit(`"playerId":${goodIds[0]},"answerIndex":-0`),
    submit(`"playerId":-0,"answerIndex":0`),
    submit(`"playerId":1e400,"answerIndex":0`),
    submit(`"playerId":9007199254740993,"answerIndex":0`),
    submit(`"playerId":${goodIds[0]},"answerIndex":3.0000000000000001`),
    submit(`"playerId":${goodIds[0]},"answerIndex":1e-400`),
    submit(`"playerId":"${goodIds[0]}","answerIndex":"1"`),
    // Deep nesting where a value goes (never as the type: see the last describe block).
    deepArray(8000),
    deepObject(2500),
    `{"type":"JOIN_GAME","payload":{"gameCode":${deepArray(5000)},"nickname":"x"}}`,
    `{"type":"JOIN_GAME","payload":${deepObject(2500)}}`,
    submit(`"playerId":${goodIds[0]},"answerIndex":0,"time":${deepArray(7000)}`),
    submit(`"playerId":${goodIds[0]},"answerIndex":0,"time":${deepObject(2000)}`),
    // Game codes that normalise to the live code, and ones that cannot exist (0, 1, I and O are not drawn).
    '{"type":"NEXT_QUESTION","payload":{"gameCode":"' + gameCode.toLowerCase() + '"}}',
    '{"type":"NEXT_QUESTION","payload":{"gameCode":" ' + gameCode.slice(0, 3) + "-" + gameCode.slice(3) + ' "}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"000000","nickname":"Nobody"}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"IOIOIO","nickname":"Nobody"}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"' + gameCode + '","nickname":"__HOST__"}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"' + gameCode + '","nickname":"  __HOST__ "}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"' + gameCode + '","nickname":"__host__"}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"' + gameCode + '","nickname":"ANN"}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"' + gameCode + '","nickname":"   "}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"' + gameCode + '","nickname":"\\u3000\\u3000"}}',
    '{"type":"JOIN_GAME","payload":{"gameCode":"' + gameCode + '","nickname":"' + "x".repeat(16) + '"}}',
    '{"type":"LEAVE_GAME","payload":{"gameCode":"' + gameCode + '"}}',
    // The host's moderation, from anybody else.
    ...goodIds.map((id) => `{"type":"KICK_PLAYER","payload":{"gameCode":"${gameCode}","playerId":${id}}}`),
    `{"type":"KICK_PLAYER","payload":{"gameCode":"${gameCode}","playerId":${goodIds[0]},"__proto__":{"role":"host"}}}`,
    '{"type":"LOCK_GAME","payload":{"gameCode":"' + gameCode + '","locked":true}}',
    '{"type":"LOCK_GAME","payload":{"gameCode":"' + gameCode + '","locked":"true"}}',
    // The host's pause, from anybody else (and by a name it does not have).
    '{"type":"PAUSE_QUESTION","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"RESUME_QUESTION","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"PAUSE","payload":{"gameCode":"' + gameCode + '"}}',
    '{"type":"LEAVE_GAME","payload":{"gameCode":"ZZZZ22"}}',
    '{"type":"LEAVE_GAME","payload":{}}',
    frameOfSize(MAX_MESSAGE_BYTES, gameCode),
    frameOfSize(MAX_MESSAGE_BYTES - 1, gameCode),
  ];
}

type Frame = string | Uint8Array;

/** Random frames: broken JSON, JSON that is not a message, unknown types, and real types with payloads right or wrong. */
function frameArbitrary(gameCode: string, goodIds: number[], takenNicknames: string[]): fc.Arbitrary<Frame> {
  const liveCode = fc.constantFrom(gameCode, gameCode.toLowerCase(), `${gameCode.slice(0, 3)}-${gameCode.slice(3)}`, ` ${gameCode} `);
  const gameCodeArb = fc.oneof(
    { weight: 4, arbitrary: liveCode },
    { weight: 1, arbitrary: fc.constantFrom("000000", "111111", "OIOIOI", "ßßß") },
    { weight: 2, arbitrary: fc.string({ maxLength: 10 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
  const nicknameArb = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...takenNicknames, HOST_NICKNAME, " __HOST__", "__host__", "__Host__") },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constantFrom("", "   ", "\t\n", "x".repeat(16), "😀".repeat(8)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
  const playerIdArb = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...goodIds) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 100 }) },
    { weight: 2, arbitrary: fc.constantFrom(0, -1, -7, 1.5, 2 ** 53, Number.MAX_VALUE, "1", null, true, [1], {}) },
    { weight: 1, arbitrary: fc.double() },
  );
  const answerIndexArb = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 3 }) },
    { weight: 2, arbitrary: fc.constantFrom(-1, 4, 5, 1.5, 1e9, "0", null, false, [0]) },
    { weight: 1, arbitrary: fc.integer() },
  );
  const extraKeys = fc.dictionary(fc.constantFrom("isHost", "role", "score", "points", "playerId", "type", "extra", "admin"), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 3,
  });
  const payloadArb = fc
    .tuple(
      fc.record(
        {
          gameCode: gameCodeArb,
          nickname: nicknameArb,
          playerId: playerIdArb,
          answerIndex: answerIndexArb,
          locked: fc.oneof(fc.boolean(), fc.constantFrom(0, 1, "true", null)),
          time: fc.jsonValue({ maxDepth: 3 }),
        },
        { requiredKeys: [] },
      ),
      fc.option(extraKeys, { nil: undefined }),
    )
    .map(([fields, extra]) => ({ ...extra, ...fields }));
  const messageLike = fc.record({ type: fc.constantFrom(...MESSAGE_TYPES), payload: payloadArb }).map((message) => JSON.stringify(message));
  const brokenJson = fc.oneof(
    messageLike.chain((text) => fc.integer({ min: 0, max: text.length - 1 }).map((cut) => text.slice(0, cut))),
    fc.string({ maxLength: 60 }).filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    }),
  );
  const notAMessage = fc.jsonValue({ maxDepth: 3 }).filter((value) => value === null || typeof value !== "object" || Array.isArray(value));
  const unknownType = fc
    .record({
      type: fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.boolean(), fc.constant(null)),
      payload: fc.jsonValue({ maxDepth: 2 }),
    })
    .map((message) => JSON.stringify(message));
  const missingParts = fc.oneof(
    fc.constantFrom(...MESSAGE_TYPES).map((type) => JSON.stringify({ type })),
    payloadArb.map((payload) => JSON.stringify({ payload })),
    fc
      .record({ type: fc.constantFrom(...MESSAGE_TYPES), payload: fc.oneof(fc.constant(null), fc.array(fc.integer()), fc.integer(), fc.string()) })
      .map((message) => JSON.stringify(message)),
  );
  const binary = fc.oneof(
    fc.uint8Array({ maxLength: 600 }),
    messageLike.map((text) => new TextEncoder().encode(text)),
  );
  const nearCap = fc.constantFrom(MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES - 1, MAX_MESSAGE_BYTES - 100).map((bytes) => frameOfSize(bytes, gameCode));
  return fc.oneof(
    { weight: 10, arbitrary: messageLike },
    { weight: 4, arbitrary: brokenJson },
    { weight: 2, arbitrary: notAMessage.map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: unknownType },
    { weight: 2, arbitrary: missingParts },
    { weight: 2, arbitrary: binary },
    { weight: 1, arbitrary: nearCap },
    { weight: 3, arbitrary: fc.constantFrom(...nastyFrames(gameCode, goodIds)) },
  );
}

// ------------------------------------------------------------------ fuzzing sockets

interface Fuzzer {
  name: string;
  client: TestClient;
  model: SocketModel;
  sent: number;
  expectedErrors: number;
  /** The frames sent, for the failure report. */
  log: string[];
}

const describeFrame = (frame: Frame) =>
  typeof frame === "string" ? JSON.stringify(frame.length > 120 ? `${frame.slice(0, 120)}...(${frame.length})` : frame) : `<binary ${frame.length} bytes>`;

function sendFrame(client: TestClient, frame: Frame): void {
  if (typeof frame === "string") client.sendRaw(frame);
  else client.socket.send(frame, { binary: true });
}

async function openSocket(server: TestServer, clientId = `fuzz-${randomUUID()}`): Promise<TestClient> {
  const client = await TestClient.connect(server, clientId);
  // A socket the server closes may still report an error; the close code is what the test checks.
  client.socket.on("error", () => {});
  return client;
}

/** Sends `frames` from one socket below the rate limit until `stop()`, counting the ERRORs it must get. */
async function pace(fuzzer: Fuzzer, frames: Frame[], game: GameFacts, stop: () => boolean): Promise<void> {
  let next = 0;
  const sendOne = () => {
    while (next < frames.length && fuzzer.client.closeCode === null) {
      const frame = frames[next++];
      const reply = expectedReply(fuzzer.model, wellFormed(frame), game);
      if (reply === "skip") continue;
      sendFrame(fuzzer.client, frame);
      fuzzer.sent++;
      if (reply === "error") fuzzer.expectedErrors++;
      fuzzer.log.push(`${reply}: ${describeFrame(frame)}`);
      return;
    }
  };
  for (let i = 0; i < PACE.burst; i++) sendOne();
  while (!stop() && next < frames.length && fuzzer.client.closeCode === null) {
    await sleep(PACE.tickMs);
    for (let i = 0; i < PACE.perTick; i++) sendOne();
  }
}

/** Sends every frame at once (a flood); returns how many were sent. */
function flood(client: TestClient, frames: Frame[], game: GameFacts): number {
  const model: SocketModel = { room: false, playerId: null };
  let sent = 0;
  for (const frame of frames) {
    if (expectedReply(model, wellFormed(frame), game) === "skip") continue;
    sendFrame(client, frame);
    sent++;
  }
  return sent;
}

/** Every paced socket whose ERRORs do not match its refused frames (sockets the server closed must have a 4xxx/1009 code). */
async function unanswered(fuzzers: Fuzzer[]): Promise<string[]> {
  const errorsOf = (fuzzer: Fuzzer) => fuzzer.client.all("ERROR").length;
  await until(() => fuzzers.every((f) => f.client.closeCode !== null || errorsOf(f) >= f.expectedErrors), 10_000);
  await sleep(300); // anything extra would have arrived by now
  const problems: string[] = [];
  for (const fuzzer of fuzzers) {
    const { closeCode } = fuzzer.client;
    if (closeCode !== null) {
      if (!(closeCode === 1009 || (closeCode >= 4000 && closeCode < 5000))) problems.push(`${fuzzer.name} was closed with ${closeCode}`);
      continue;
    }
    if (errorsOf(fuzzer) !== fuzzer.expectedErrors) {
      problems.push(
        `${fuzzer.name} (seed ${SEED}) got ${errorsOf(fuzzer)} ERRORs for ${fuzzer.expectedErrors} refused frames of ${fuzzer.sent}:\n  ${fuzzer.log.join("\n  ")}`,
      );
    }
    const withoutCode = fuzzer.client.all("ERROR").filter((error) => !error.code);
    if (withoutCode.length > 0) problems.push(`${fuzzer.name} got ERRORs without a code: ${JSON.stringify(withoutCode.slice(0, 3))}`);
  }
  return problems;
}

// ------------------------------------------------------------------ the game under fuzz

describe("fuzzing /ws while a game is in progress", () => {
  let server: TestServer;
  let gameCode: string;
  let hostClientId: string;
  let host: TestClient;
  /** Ann, Bob and Cat answer every question; Quiet never does, so only the host's Next closes a question. */
  const good: { name: string; client: TestClient; id: number; picks: (number | null)[]; points: number[] }[] = [];
  const joiners: { nickname: string; id: number; fuzzer: Fuzzer }[] = [];
  const sockets: TestClient[] = [];
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  let framesSent = 0;
  const log = errorLog();
  /** How many messages the host and each good player had received when the fuzzing began. */
  let hostSeenBeforeFuzz = 0;
  const playerSeenBeforeFuzz = new Map<TestClient, number>();

  const correct = SAMPLE_QUESTIONS.map((question) => question.correctAnswerIndex);
  const wrong = correct.map((index) => (index + 1) % 4);

  async function connect(clientId?: string): Promise<TestClient> {
    const client = await openSocket(server, clientId);
    sockets.push(client);
    return client;
  }

  async function httpStatus(): Promise<number> {
    const response = await fetch(`${server.url}/`);
    await response.arrayBuffer();
    return response.status;
  }

  /** Polls GET / every 250 ms until stopped; returns every status seen. */
  function pollHttp(stop: () => boolean): Promise<number[]> {
    return (async () => {
      const statuses: number[] = [];
      while (!stop()) {
        statuses.push(await httpStatus().catch(() => 0));
        await sleep(250);
      }
      return statuses;
    })();
  }

  function gameFacts(): GameFacts {
    return { gameCode, taken: new Set([...good.map((player) => player.name), ...joiners.map((joiner) => joiner.nickname)].map(nicknameKey)) };
  }

  function framesFor(socketIndex: number, count: number): Frame[] {
    const arbitrary = frameArbitrary(
      gameCode,
      good.map((player) => player.id),
      [...good.map((player) => player.name.toUpperCase()), ...joiners.slice(0, 5).map((joiner) => joiner.nickname)],
    );
    return fc.sample(arbitrary, { numRuns: count, seed: SEED + socketIndex });
  }

  beforeAll(async () => {
    server = await startTestServer({
      limits: { joinsPerIpPerMinute: 1_000_000, joinsPerIpPerGamePerMinute: 1_000_000, playersPerIpPerGame: 1_000_000, joinsPerGamePerMinute: 1_000_000 },
      logger: log.logger,
    });
    ({ gameCode, hostClientId } = await createGameFixture(server, { timeLimit: 120 }));
    host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    const picks: Record<string, (number | null)[]> = {
      Ann: [correct[0], wrong[1], correct[2]],
      Bob: [wrong[0], correct[1], correct[2]],
      Cat: [correct[0], correct[1], wrong[2]],
      Quiet: [null, null, null],
    };
    for (const [name, answers] of Object.entries(picks)) {
      const client = await connect();
      good.push({ name, client, id: await client.joinAsPlayer(gameCode, name), picks: answers, points: [] });
    }

    // Fuzzers that join properly, with nicknames that are odd but valid (some of them prototype bait).
    const odd = [
      ...["__proto__", "constructor", "toString", "hasOwnProperty", "prototype"],
      ...["<script>", "'; DROP TABLE", "Robert'); --", "%s%n%x", "null", "undefined", "NaN"],
      ...["😀😀😀", "\u200bAnn", "Ａｎｎ", "ÅNGSTRÖM", "İstanbul", "ǅemal", "\u202eevil", "x\u0000y", "  padded  "],
    ];
    const random = fc.sample(fc.string({ unit: "grapheme", minLength: 1, maxLength: 10 }), { numRuns: 60, seed: SEED });
    const nicknames: string[] = [];
    const keys = new Set([...good.map((player) => player.name), HOST_NICKNAME].map(nicknameKey));
    for (const raw of [...odd, ...random]) {
      const nickname = raw.trim();
      const usable = nickname.length > 0 && nickname.length <= 15 && !keys.has(nicknameKey(nickname)) && !isOffensive(nickname);
      if (!usable || nicknames.length >= 30) continue;
      keys.add(nicknameKey(nickname));
      nicknames.push(raw);
    }
    for (const [index, raw] of nicknames.entries()) {
      const client = await connect();
      const id = await client.joinAsPlayer(gameCode, raw);
      const fuzzer: Fuzzer = {
        name: `joiner ${index} ${JSON.stringify(raw)}`,
        client,
        model: { room: true, playerId: id },
        sent: 0,
        expectedErrors: 0,
        log: [],
      };
      joiners.push({ nickname: raw.trim(), id, fuzzer });
    }

    host.send("START_GAME", { gameCode });
    for (const client of [host, ...good.map((player) => player.client)]) {
      await client.next("QUESTION_STARTED", (payload) => payload.questionNumber === 1);
    }
    hostSeenBeforeFuzz = host.received.length;
    for (const player of good) playerSeenBeforeFuzz.set(player.client, player.client.received.length);
  });

  afterAll(async () => {
    await Promise.all(sockets.map((client) => (client.closeCode === null ? client.terminate() : undefined)));
    await server.stop();
  });

  it("answers every refused frame with ERROR or closes the socket, while serving HTTP and the open question", async () => {
    let stopped = false;
    const stop = () => stopped;
    const game = gameFacts();
    const statuses = pollHttp(stop);

    // Paced sockets: outsiders that never join, and the joiners, each below the rate limit.
    const outsiders: Fuzzer[] = [];
    for (let i = 0; i < OUTSIDERS; i++) {
      // Some connect with a client id the server must replace by an anonymous one.
      const clientId = [undefined, "bad id", "x".repeat(150), "<script>", HOST_NICKNAME][i % 5];
      const client = await connect(clientId);
      outsiders.push({ name: `outsider ${i}`, client, model: { room: false, playerId: null }, sent: 0, expectedErrors: 0, log: [] });
    }
    const paced = [...outsiders, ...joiners.map((joiner) => joiner.fuzzer)];
    const pacing = paced.map((fuzzer, index) => pace(fuzzer, framesFor(index, 260), game, stop));

    // Flooding sockets (closed with 4002), oversized frames (1009) and invalid UTF-8 text (1007).
    const floods: TestClient[] = [];
    const oversized: { client: TestClient; atCapAnswered: boolean }[] = [];
    const invalidText: TestClient[] = [];
    const violators = (async () => {
      for (let wave = 0; !stopped; wave++) {
        for (let i = 0; i < 3; i++) {
          const client = await connect();
          floods.push(client);
          framesSent += flood(client, framesFor(10_000 + wave * 3 + i, 120), game);
        }
        const big = await connect();
        big.sendRaw(frameOfSize(MAX_MESSAGE_BYTES, gameCode));
        framesSent++;
        const atCapAnswered = await big.next("ERROR").then(
          () => true,
          () => false,
        );
        if (wave % 2 === 0) big.sendRaw(frameOfSize(MAX_MESSAGE_BYTES + 1, gameCode));
        else big.socket.send(new Uint8Array(MAX_MESSAGE_BYTES + 1 + wave), { binary: true });
        framesSent++;
        oversized.push({ client: big, atCapAnswered });
        const garbled = await connect();
        garbled.socket.send(Buffer.from([0x7b, 0xc3, 0x28, 0xff, 0xfe, 0x7d]), { binary: false });
        framesSent++;
        invalidText.push(garbled);
        await sleep(800);
      }
    })();

    // Halfway through, the good players answer the first question.
    await sleep(FUZZ_MS / 2);
    for (const player of good.filter((p) => p.picks[0] !== null)) {
      player.client.send("SUBMIT_ANSWER", { gameCode, playerId: player.id, answerIndex: player.picks[0] });
      expect(await player.client.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 1, answerIndex: player.picks[0] });
    }
    await sleep(FUZZ_MS / 2);
    stopped = true;
    await Promise.all([...pacing, violators]);

    expect(await unanswered(paced)).toEqual([]);
    expect(log.errors, "errors the server logged").toEqual([]);
    const stayedOpen = paced.filter((fuzzer) => fuzzer.client.closeCode === null).length;
    expect(stayedOpen, "paced sockets must stay below the rate limit").toBeGreaterThanOrEqual(paced.length * 0.9);
    framesSent += paced.reduce((total, fuzzer) => total + fuzzer.sent, 0);
    expect(framesSent).toBeGreaterThanOrEqual(10_000);

    await until(() => [...floods, ...oversized.map((o) => o.client), ...invalidText].every((client) => client.closeCode !== null), 5000);
    expect(floods.map((client) => client.closeCode)).toEqual(floods.map(() => CloseCode.RATE_LIMITED));
    expect(oversized.map(({ client, atCapAnswered }) => [client.closeCode, atCapAnswered])).toEqual(oversized.map(() => [1009, true]));
    expect(invalidText.map((client) => client.closeCode)).toEqual(invalidText.map(() => 1007));

    const seen = await statuses;
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.filter((status) => status !== 200)).toEqual([]);
    expect(await httpStatus()).toBe(200);

    // The fuzzers are done; their players drop, which changes nothing while Quiet has not answered.
    await Promise.all(paced.map((fuzzer) => fuzzer.client.close()));
  }, 60_000);

  it("left the game exactly as the good players made it", async () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isHost).toBeUndefined();

    // The host and the good players heard nothing but the answers and the live counts.
    expect(host.received.slice(hostSeenBeforeFuzz).filter((entry) => entry.message.type !== "ANSWER_PROGRESS")).toEqual([]);
    for (const player of good) {
      expect(player.client.closeCode).toBeNull();
      expect(player.client.all("ERROR")).toEqual([]);
      const heard = player.client.received.slice(playerSeenBeforeFuzz.get(player.client)).map((entry) => entry.message.type);
      expect(heard).toEqual(player.picks[0] === null ? [] : ["ANSWER_ACCEPTED"]);
    }

    // A second host screen sees the state as it stands: question 1, the players who joined properly, the good answers only.
    const probe = await connect(hostClientId);
    const snapshot = await probe.joinAsHost(gameCode);
    expect(snapshot).toMatchObject({ phase: "question", questionNumber: 1, playerCount: good.length + joiners.length });
    expect(snapshot.locked ?? false, "nobody but the host may lock the game").toBe(false);
    const ids = [...good.map((player) => player.id), ...joiners.map((joiner) => joiner.id)];
    expect(snapshot.players.map((player) => player.id ?? -1).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(snapshot.players.map((player) => player.nickname))).toEqual(
      new Set([...good.map((player) => player.name), ...joiners.map((joiner) => joiner.nickname)]),
    );
    const progress = await probe.next("ANSWER_PROGRESS");
    const answerCounts = [0, 0, 0, 0];
    for (const player of good) if (player.picks[0] !== null) answerCounts[player.picks[0]]++;
    expect(progress).toEqual({ questionNumber: 1, answeredCount: 3, playerCount: ids.length, answerCounts });
    await probe.close();
  });

  it("lets the good players finish under more fuzzing, with the scores the server reported to them", async () => {
    let stopped = false;
    const stop = () => stopped;
    const game = gameFacts();
    const background: Fuzzer[] = [];
    for (let i = 0; i < BACKGROUND_OUTSIDERS; i++) {
      background.push({ name: `background ${i}`, client: await connect(), model: { room: false, playerId: null }, sent: 0, expectedErrors: 0, log: [] });
    }
    const pacing = background.map((fuzzer, index) => pace(fuzzer, framesFor(20_000 + index, 400), game, stop));

    const players = good.map((player) => player.client);
    for (let q = 0; q < SAMPLE_QUESTIONS.length; q++) {
      if (q > 0) {
        for (const client of [host, ...players]) await client.next("QUESTION_STARTED", (payload) => payload.questionNumber === q + 1);
        for (const player of good.filter((p) => p.picks[q] !== null)) {
          player.client.send("SUBMIT_ANSWER", { gameCode, playerId: player.id, answerIndex: player.picks[q] });
          expect(await player.client.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: q + 1, answerIndex: player.picks[q] });
        }
      }
      // Quiet has not answered, so the question is still open until the host moves on.
      host.send("NEXT_QUESTION", { gameCode });
      for (const player of good) {
        const results = await player.client.next("ANSWER_RESULTS", (payload) => payload.questionNumber === q + 1);
        expect(results.playerResults).toHaveLength(1);
        const [own] = results.playerResults;
        expect(own).toMatchObject({ playerId: player.id, nickname: player.name, answerIndex: player.picks[q], correct: player.picks[q] === correct[q] });
        player.points.push(own.points);
        expect(own.score).toBe(player.points.reduce((total, points) => total + points, 0));
      }
    }

    const totals = good.map((player) => player.points.reduce((total, points) => total + points, 0));
    for (const [index, player] of good.entries()) {
      expect((await player.client.next("GAME_OVER")).you?.score).toBe(totals[index]);
    }
    const over = await host.next("GAME_OVER");
    expect(over.playerCount).toBe(good.length + joiners.length);
    for (const [index, player] of good.entries()) {
      if (totals[index] > 0) expect(over.players).toContainEqual(expect.objectContaining({ id: player.id, nickname: player.name, score: totals[index] }));
    }
    expect(totals.filter((total) => total > 0)).toHaveLength(3);

    stopped = true;
    await Promise.all(pacing);
    expect(await unanswered(background)).toEqual([]);
    expect(log.errors, "errors the server logged").toEqual([]);
    framesSent += background.reduce((total, fuzzer) => total + fuzzer.sent, 0);
    expect(await httpStatus()).toBe(200);
  }, 60_000);

  it("stored only the good players' answers and the players who joined properly", async () => {
    const row = await server.db.selectFrom("games").selectAll().where("game_code", "=", gameCode).executeTakeFirstOrThrow();
    expect(row.status).toBe("finished");
    const players = await server.db.selectFrom("players").select(["id", "nickname"]).where("game_id", "=", row.id).orderBy("id").execute();
    expect(players).toEqual(
      [...good.map((player) => ({ id: player.id, nickname: player.name })), ...joiners.map((joiner) => ({ id: joiner.id, nickname: joiner.nickname }))].sort(
        (a, b) => a.id - b.id,
      ),
    );
    const answers = await server.db
      .selectFrom("answers")
      .select(["player_id", "question_index", "answer_index", "points"])
      .where("game_id", "=", row.id)
      .orderBy("player_id")
      .orderBy("question_index")
      .execute();
    const sent = good.flatMap((player) =>
      player.picks.flatMap((pick, index) =>
        pick === null ? [] : [{ player_id: player.id, question_index: index, answer_index: pick, points: player.points[index] }],
      ),
    );
    expect(answers).toEqual(sent);
    expect(framesSent, "frames sent in all").toBeGreaterThanOrEqual(10_000);
  });
});

// ------------------------------------------------------------------ found by fuzzing

describe("frames whose type cannot be turned into text", () => {
  let server: TestServer;
  const log = errorLog();

  beforeAll(async () => {
    server = await startTestServer({ logger: log.logger });
  });

  afterAll(async () => {
    await server.stop();
  });

  // parseClientMessage (app/game/protocol.ts) builds its error text with String(data.type), which
  // throws for an object without a callable toString/valueOf (TypeError) and for deeply nested
  // arrays (RangeError). ws.ts then logs "a message handler failed" at error level and replies
  // with a generic ERROR that has no code. The protocol promises that parsing never throws.
  it.each([
    { name: "an object whose toString is a number", frame: '{"type":{"toString":1},"payload":{}}' },
    { name: "an object whose toString and valueOf are objects", frame: '{"type":{"toString":{},"valueOf":{}},"payload":{}}' },
    { name: "an array holding such an object", frame: '{"type":[{"toString":1}],"payload":{}}' },
    { name: "arrays nested 7000 deep", frame: `{"type":${deepArray(7000)},"payload":{}}` },
  ])("answers a type that is $name with a BAD_MESSAGE ERROR and logs nothing", async ({ frame }) => {
    const client = await openSocket(server);
    client.sendRaw(frame);
    const error = await client.next("ERROR");
    expect(client.closeCode).toBeNull();
    await client.close();
    expect(log.errors.splice(0), "errors the server logged").toEqual([]);
    expect(error).toMatchObject({ code: "BAD_MESSAGE" });
  });

  it("quotes a type it does not know with the quoted value beside the message, for the browser to translate", async () => {
    const client = await openSocket(server);
    client.sendRaw('{"type":"FOO","payload":{}}');
    expect(await client.next("ERROR")).toEqual({
      message: "Unknown message type: FOO.",
      code: "BAD_MESSAGE",
      key: "MESSAGE_UNKNOWN_TYPE",
      values: { type: "FOO" },
    });
    client.sendRaw('{"type":"JOIN_GAME"}');
    expect(await client.next("ERROR")).toEqual({
      message: "JOIN_GAME needs a payload object.",
      code: "BAD_MESSAGE",
      key: "MESSAGE_TYPE_NO_PAYLOAD",
      values: { type: "JOIN_GAME" },
    });
    client.sendRaw('{"type":"JOIN_GAME","payload":{"gameCode":"AB2","nickname":"Bo"}}');
    expect(await client.next("ERROR")).toEqual({ message: "Quiz code must be 6 characters", code: "BAD_MESSAGE", key: "GAME_CODE_LENGTH" });
    await client.close();
  });
});
