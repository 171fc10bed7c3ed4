/**
 * One process of the benchmark's load generator (forked by bench/run.ts): it drives its share of
 * the simulated players, because one Node event loop cannot drive more than a few thousand sockets.
 * It measures on the client side and reports raw samples to the parent over IPC. The many-games
 * mode's hosts and players live in bench/game-players.ts.
 */
import { connectWithRetry, type ClientSocket } from "./client-socket";
import type { QuestionKind } from "#app/game/question-kinds";
import { closeGames, setUpGames, startGames } from "./game-players";
import { frameTypeOf } from "./lean-socket";
import type { ParentCommand, WorkerReport } from "./ipc";
import { answerFor, type AnswerKey } from "./questions";

/** Sockets this worker opens at once; more would only fill the server's accept backlog. */
const CONNECT_CONCURRENCY = 50;

function report(message: WorkerReport): void {
  process.send!(message);
}

/** Opens `count` sockets, at most CONNECT_CONCURRENCY at a time, calling `ready` on each as it opens. */
async function openAll(count: number, urlOf: (index: number) => string, ready: (socket: ClientSocket, index: number) => void) {
  const sockets: ClientSocket[] = new Array(count);
  let next = 0;
  async function lane() {
    while (next < count) {
      const index = next++;
      const socket = await connectWithRetry(urlOf(index));
      sockets[index] = socket;
      ready(socket, index);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONNECT_CONCURRENCY, count) }, lane));
  return sockets;
}

let sockets: ClientSocket[] = [];
let baselineDeliveries: number[] = [];
let echoDeliveries: number[] = [];
let echoAcks: number[] = [];

/**
 * The bare server's sockets. A broadcast that opens an answer window (`echoWindowMs`) has every
 * socket answer at a random moment of it, as the players answer a question, and time the bare
 * server's immediate echo: the floor of an answer's acknowledgement under the same burst.
 */
async function runBaseline(url: string, count: number): Promise<void> {
  baselineDeliveries = [];
  echoDeliveries = [];
  echoAcks = [];
  sockets = await openAll(
    count,
    () => url,
    (socket) => {
      let answerSentAt = 0;
      socket.on("message", (data: Buffer) => {
        const receivedAt = Date.now();
        if (frameTypeOf(data) === "ECHO") {
          if (answerSentAt > 0) echoAcks.push(performance.now() - answerSentAt);
          answerSentAt = 0;
          return;
        }
        const { serverNow, echoWindowMs } = JSON.parse(data.toString()).payload;
        if (!echoWindowMs) {
          baselineDeliveries.push(receivedAt - serverNow);
          return;
        }
        echoDeliveries.push(receivedAt - serverNow);
        // A random moment in the window, leaving a tenth of it, as the players answer (bench/game-players.ts).
        setTimeout(
          () => {
            answerSentAt = performance.now();
            socket.send(JSON.stringify({ type: "SUBMIT_ANSWER", payload: { gameCode: "BARE00", playerId: 1, answerIndex: 0, time: 0 } }));
          },
          Math.random() * echoWindowMs * 0.9,
        );
      });
    },
  );
  report({ event: "baselineReady" });
}

interface PlayCommand {
  url: string;
  gameCode: string;
  firstIndex: number;
  count: number;
  keys: AnswerKey[];
}

async function runGame({ url, gameCode, firstIndex, count, keys }: PlayCommand): Promise<void> {
  const deliveries: number[] = [];
  const acksByKind: Record<string, number[]> = {};
  const deliveriesByKind: Record<string, number[]> = {};
  const errors: string[] = [];
  let questionStartedBytes = 0;
  let sent = 0;
  let acknowledged = 0;
  let strayAcks = 0;
  let joined = 0;
  let finished = 0;
  let unexpectedCloses = 0;

  const reportIfAllDone = () => {
    if (finished + unexpectedCloses !== count) return;
    report({ event: "finished", deliveries, deliveriesByKind, acksByKind, sent, acknowledged, errors, unexpectedCloses, strayAcks, questionStartedBytes });
  };

  const play = (socket: ClientSocket, index: number) => {
    let playerId = 0;
    let answerSentAt = 0;
    /** The question number whose ack this player waits for; 0 when none. */
    let awaitingAck = 0;
    let answeredKind: QuestionKind = "choice";
    let answerTimer: NodeJS.Timeout | null = null;
    let over = false;
    socket.on("message", (data: Buffer) => {
      const receivedAt = Date.now();
      const text = data.toString();
      // The lobby's once-a-second update is the bulk of the traffic and needs no reply.
      if (text.startsWith('{"type":"LOBBY_UPDATE"')) return;
      const message = JSON.parse(text);
      switch (message.type) {
        case "PLAYER_JOINED":
          if (playerId === 0) {
            playerId = message.payload.player.id;
            if (++joined === count) report({ event: "joined", at: Date.now() });
          }
          return;
        case "QUESTION_STARTED": {
          deliveries.push(receivedAt - message.payload.serverNow);
          questionStartedBytes = Math.max(questionStartedBytes, data.length);
          const { questionNumber } = message.payload;
          const { kind, answers } = message.payload.question as { kind: QuestionKind; answers: string[] };
          (deliveriesByKind[kind] ??= []).push(receivedAt - message.payload.serverNow);
          // A random moment in the open window, leaving a tenth of it so a busy machine is not late.
          const window = message.payload.endsAt - message.payload.serverNow;
          answerTimer = setTimeout(
            () => {
              answerTimer = null;
              const answer = answerFor(kind, answers.length, keys[questionNumber - 1]);
              answerSentAt = performance.now();
              awaitingAck = questionNumber;
              answeredKind = kind;
              sent++;
              socket.send(JSON.stringify({ type: "SUBMIT_ANSWER", payload: { gameCode, playerId, ...answer, time: 0 } }));
            },
            Math.random() * window * 0.9,
          );
          return;
        }
        case "ANSWER_ACCEPTED":
          // The ack of the answer just sent; anything else (a repeat, an old question's) is counted apart.
          if (message.payload.questionNumber !== awaitingAck) {
            strayAcks++;
            return;
          }
          awaitingAck = 0;
          acknowledged++;
          (acksByKind[answeredKind] ??= []).push(performance.now() - answerSentAt);
          return;
        case "ERROR":
          errors.push(message.payload.message);
          return;
        case "GAME_OVER":
          over = true;
          if (answerTimer) clearTimeout(answerTimer);
          finished++;
          reportIfAllDone();
          return;
      }
    });
    socket.on("close", () => {
      if (over) return;
      // A player cut off will not see the end: count it, and do not wait for it.
      over = true;
      if (answerTimer) clearTimeout(answerTimer);
      unexpectedCloses++;
      reportIfAllDone();
    });
    socket.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: `P${firstIndex + index}` } }));
  };
  sockets = await openAll(count, (index) => `${url}?clientId=bench-player-${firstIndex + index}&game=${gameCode}`, play);
}

function fail(error: unknown): void {
  report({ event: "failed", message: error instanceof Error ? error.message : String(error) });
}

process.on("message", (command: ParentCommand) => {
  switch (command.cmd) {
    case "baseline":
      runBaseline(command.url, command.count).catch(fail);
      return;
    case "collect":
      report({ event: "baselineSamples", deliveries: baselineDeliveries, echoDeliveries, echoAcks });
      return;
    case "play":
      runGame(command).catch(fail);
      return;
    case "setupGames":
      setUpGames(command).catch(fail);
      return;
    case "startGames":
      startGames(command.at, command.offsetsMs);
      return;
    case "close":
      closeGames();
      for (const socket of sockets) socket?.terminate();
      sockets = [];
      report({ event: "closed" });
      return;
  }
});
