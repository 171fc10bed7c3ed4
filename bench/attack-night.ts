/**
 * A quiz night under attack (issue 26): the production server in its own process, one game of
 * `players` players (each on its own loopback address, as phones on a venue's network), and from one
 * other address a stranger sending each attack of issue 26's points 1-5 twenty times in parallel, in
 * waves, from the moment one question closes until the next one closes. So each attack overlaps a
 * question's delivery and its answers. The first question is played with no attack, as a reference.
 *
 * For each attack it records the question's delivery and the answers' acknowledgement times, every
 * answer the attacker got (status and time), the server's RSS growth over its RSS before the attack,
 * and the server's own worst event-loop delay (prom-client's, read from /metrics, which resets it
 * at each read). `npm run bench:attacks` prints them (bench/attacks.ts); the integration test
 * tests/integration/attacks-under-play.test.ts asserts what is not a speed.
 */
import http from "node:http";
import { HOST_NICKNAME } from "#app/game/rules";
import {
  hugeIndexes,
  largeQuizFile,
  longFields,
  multipartFile,
  repeatedFields,
  sendHostile,
  zipBombUpload,
  type HostileRequest,
  type SentRequest,
} from "#tests/hostile-requests";
import { benchServerEnv, startGameServer, type GameServer } from "./game-server";
import { frameTypeOf, openLeanSocket, type LeanSocket } from "./lean-socket";
import { cookieOf } from "./cookie-jar";
import { loopbackAddress, postJson } from "./loopback";
import { sampleProcess, summarize, type LatencySummary } from "./stats";

export interface AttackNightOptions {
  /** The folder with build/ (the repository's root). */
  root: string;
  players?: number;
  /** Copies of an attack in flight at once. */
  copies?: number;
  /** Each question's time limit (seconds). */
  timeLimitSeconds?: number;
  /** Told as each attack ends. */
  onAttackDone?: (figures: AttackFigures) => void;
}

export interface AttackFigures {
  attack: string;
  delivery: LatencySummary;
  ack: LatencySummary;
  answersSent: number;
  answersAcknowledged: number;
  /** The attacker's answers by status ("0" for a connection the server closed before answering). */
  statuses: Record<string, number>;
  attackerRequests: number;
  attackerLatency: LatencySummary;
  /** The server's RSS at its highest during the attack, over its RSS just before it (MiB). */
  rssGrowthMib: number;
  /** The server's worst event-loop delay during the attack (ms), from its own monitor. */
  serverLoopDelayMaxMs: number;
}

interface Attack {
  name: string;
  /** Each copy's route and body, by its index. */
  request(copy: number): { route: string; body: HostileRequest };
}

const METRICS_TOKEN = "attack-night-metrics-token";
const ATTACKER_ADDRESS = "127.254.254.254";

/** A CSV whose time-limit cell a quadratic regular expression chokes on. */
function longTimeLimitCsv(length = 300_000): HostileRequest {
  const csv = `Question,Answer 1,Answer 2,Correct,Time limit\nWhich?,A,B,1,${"1".repeat(length)} x\n`;
  return multipartFile("file", "questions.csv", "text/csv", Buffer.from(csv));
}

/** Issue 26's points 1-5, as a stranger's requests. */
function attacks(): Attack[] {
  const formRoutes = ["/join", "/auth", "/create", "/night/new", "/language", "/theme"];
  const repeated = repeatedFields();
  const indexes = hugeIndexes();
  const long = longFields();
  const csv = longTimeLimitCsv();
  const bomb = zipBombUpload();
  const bigFile = largeQuizFile();
  return [
    { name: "1. repeated form fields", request: (copy) => ({ route: formRoutes[copy % formRoutes.length], body: repeated }) },
    { name: "2. array indexes near 2^32", request: (copy) => ({ route: copy % 2 ? "/night/new" : "/create", body: indexes }) },
    {
      name: "3. quadratic regular expressions",
      request: (copy) => (copy % 2 ? { route: "/create", body: long } : { route: "/api/quizzes/import", body: csv }),
    },
    { name: "4. zip bomb spreadsheet", request: () => ({ route: "/api/quizzes/import", body: bomb }) },
    { name: "5. 40 MB quiz files", request: () => ({ route: "/api/quizzes/import", body: bigFile }) },
  ];
}

/** The server's worst event-loop delay since the last read, in ms (prom-client resets it when read). */
async function serverLoopDelayMaxMs(url: string): Promise<number> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await response.text();
  const match = /^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text);
  return match ? Number(match[1]) * 1000 : Number.NaN;
}

/** A guest session for the attacker, as any stranger can start one. */
function guestCookie(url: string): Promise<string> {
  const body = Buffer.from("intent=guest");
  return new Promise((resolve, reject) => {
    http
      .request(
        new URL("/auth", url),
        {
          method: "POST",
          localAddress: ATTACKER_ADDRESS,
          agent: false,
          headers: { "content-type": "application/x-www-form-urlencoded", "content-length": body.length },
        },
        (response) => {
          response.resume();
          const cookie = [response.headers["set-cookie"] ?? []].flat().find((value) => value.startsWith("qn_session="));
          if (!cookie) reject(new Error(`no guest session: ${response.statusCode}`));
          else resolve(cookie.split(";")[0]);
        },
      )
      .on("error", reject)
      .end(body);
  });
}

interface QuestionWindow {
  deliveries: number[];
  acks: number[];
  sent: number;
  acknowledged: number;
}

/** Plays one game of `players` and attacks every question after the first; the figures per attack. */
export async function runAttackNight({ root, players = 200, copies = 20, timeLimitSeconds = 6, onAttackDone }: AttackNightOptions): Promise<AttackFigures[]> {
  const plan = attacks();
  const server: GameServer = await startGameServer({
    root,
    env: { ...benchServerEnv(100_000, players), METRICS_TOKEN, NEXT_QUESTION_SECONDS: "1", RESULTS_DELAY_MS: "300" },
  });
  const sockets: LeanSocket[] = [];
  try {
    const wsUrl = `${server.url.replace("http", "ws")}/ws`;
    const hostAddress = loopbackAddress(0);
    const hostClientId = "attack-night-host";
    const post = (pathname: string, body: unknown) => postJson(server.url, pathname, body, hostClientId, hostAddress);
    const quiz = await post("/api/quizzes", { title: "A night under attack", timeLimit: timeLimitSeconds, isPublic: false });
    for (let order = 0; order <= plan.length; order++) {
      await post("/api/questions", {
        quizId: quiz.id,
        order,
        text: `Question ${order + 1}: which is right?`,
        answers: ["Ant", "Bee", "Cat", "Dog"],
        correctAnswerIndex: order % 4,
      });
    }
    const { gameCode } = (await post("/api/games", { quizId: quiz.id })) as { gameCode: string };
    await post(`/api/games/${gameCode}/register-host`, { clientId: hostClientId });
    const host = await openLeanSocket(`${wsUrl}?clientId=${hostClientId}&game=${gameCode}`, { localAddress: hostAddress, cookie: cookieOf(hostClientId) });
    sockets.push(host);

    const windows: QuestionWindow[] = Array.from({ length: plan.length + 1 }, () => ({ deliveries: [], acks: [], sent: 0, acknowledged: 0 }));
    const gameOver = new Promise<void>((resolve) => host.on("message", (data: Buffer) => frameTypeOf(data) === "GAME_OVER" && resolve()));
    /** Resolves at each question's close (its ANSWER_RESULTS at the host), by question number. */
    const closed = new Map<number, () => void>();
    let current = "setting up";
    const died = server.exited.then((code) => {
      throw new Error(`the server's process ended (${code}) during: ${current}`);
    });
    died.catch(() => {});
    const closings = Array.from({ length: plan.length + 1 }, (_, index) =>
      Promise.race([new Promise<void>((resolve) => closed.set(index + 1, resolve)), died]),
    );
    let hostQuestion = 0;
    host.on("message", (data: Buffer) => {
      const type = frameTypeOf(data);
      if (type === "QUESTION_STARTED") hostQuestion = JSON.parse(data.toString()).payload.questionNumber;
      else if (type === "ANSWER_RESULTS") closed.get(hostQuestion)?.();
    });
    await new Promise<void>((resolve, reject) => {
      host.on("message", (data: Buffer) => {
        if (frameTypeOf(data) === "GAME_SNAPSHOT") resolve();
        else if (frameTypeOf(data) === "ERROR") reject(new Error(`the host was refused: ${data.toString()}`));
      });
      host.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: HOST_NICKNAME } }));
    });

    for (let index = 0; index < players; index++) {
      const socket = await openLeanSocket(`${wsUrl}?clientId=attack-night-player-${index}&game=${gameCode}`, { localAddress: loopbackAddress(1 + index) });
      sockets.push(socket);
      let playerId = 0;
      let awaiting = 0;
      let sentAt = 0;
      await new Promise<void>((joined) => {
        socket.on("message", (data: Buffer) => {
          const receivedAt = Date.now();
          const type = frameTypeOf(data);
          if (type === "PLAYER_JOINED" && playerId === 0) {
            playerId = JSON.parse(data.toString()).payload.player.id;
            joined();
          } else if (type === "QUESTION_STARTED") {
            const { payload } = JSON.parse(data.toString());
            const window = windows[payload.questionNumber - 1];
            window.deliveries.push(receivedAt - payload.serverNow);
            setTimeout(
              () => {
                awaiting = payload.questionNumber;
                sentAt = performance.now();
                window.sent++;
                socket.send(JSON.stringify({ type: "SUBMIT_ANSWER", payload: { gameCode, playerId, answerIndex: index % 4, time: 0 } }));
              },
              Math.random() * (payload.endsAt - payload.serverNow) * 0.8,
            );
          } else if (type === "ANSWER_ACCEPTED" && awaiting !== 0) {
            const window = windows[awaiting - 1];
            window.acks.push(performance.now() - sentAt);
            window.acknowledged++;
            awaiting = 0;
          }
        });
        socket.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: `Player ${index + 1}` } }));
      });
    }

    const cookie = await guestCookie(server.url);
    const figures: AttackFigures[] = [];
    host.send(JSON.stringify({ type: "START_GAME", payload: { gameCode } }));
    for (const [index, attack] of plan.entries()) {
      // From question `index + 1`'s close to question `index + 2`'s: its delivery and its answers.
      await closings[index];
      current = attack.name;
      await serverLoopDelayMaxMs(server.url);
      const before = sampleProcess(server.pid)!.rssBytes;
      let peak = before;
      const sampler = setInterval(() => {
        const sample = sampleProcess(server.pid);
        if (sample) peak = Math.max(peak, sample.rssBytes);
      }, 25);
      const answers: SentRequest[] = [];
      let attacking = true;
      const copiesInFlight = Array.from({ length: copies }, async (_, copy) => {
        while (attacking) {
          const { route, body } = attack.request(copy);
          const answer = await sendHostile(server.url, route, body, { cookie }, ATTACKER_ADDRESS).catch((error: Error) => ({
            status: -1,
            ms: 0,
            body: error.message,
          }));
          answers.push(answer);
          if (answer.status === -1) await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      try {
        await closings[index + 1];
      } finally {
        attacking = false;
        await Promise.all(copiesInFlight);
        clearInterval(sampler);
      }
      clearInterval(sampler);
      const window = windows[index + 1];
      const statuses: Record<string, number> = {};
      for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      figures.push({
        attack: attack.name,
        delivery: summarize(window.deliveries),
        ack: summarize(window.acks),
        answersSent: window.sent,
        answersAcknowledged: window.acknowledged,
        statuses,
        attackerRequests: answers.length,
        attackerLatency: summarize(answers.map((answer) => answer.ms)),
        rssGrowthMib: (peak - before) / 1024 / 1024,
        serverLoopDelayMaxMs: await serverLoopDelayMaxMs(server.url),
      });
      onAttackDone?.(figures.at(-1)!);
    }
    const reference = windows[0];
    figures.unshift({
      attack: "0. no attack (reference)",
      delivery: summarize(reference.deliveries),
      ack: summarize(reference.acks),
      answersSent: reference.sent,
      answersAcknowledged: reference.acknowledged,
      statuses: {},
      attackerRequests: 0,
      attackerLatency: summarize([]),
      rssGrowthMib: 0,
      serverLoopDelayMaxMs: Number.NaN,
    });
    await gameOver;
    return figures;
  } finally {
    for (const socket of sockets) socket.close();
    await server.stop();
  }
}
