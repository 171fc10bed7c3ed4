/**
 * One load-generator process of the outsider's measurement (forked by bench/outsider.ts): its share
 * of the players, on `ws`'s own client unless `--client lean` says otherwise (bench/client-socket.ts).
 * Each player notes when every question, or the bare server's broadcast, reached it on the
 * machine's monotonic clock (bench/monotonic.ts), so the runner can time it from the moment its
 * host sent the command; it also keeps the bench's usual figure, from the message's `serverNow`.
 */
import { connectWithRetry, type ClientSocket } from "./client-socket";
import type { QuestionKind } from "#app/game/question-kinds";
import { frameTypeOf } from "./lean-socket";
import { monotonicMs } from "./monotonic";
import type { OutsiderCommand, OutsiderReport, Receipts } from "./outsider-ipc";
import { answerFor } from "./questions";

const CONNECT_CONCURRENCY = 50;

let sockets: ClientSocket[] = [];
/** By round (the bare server's) or question number (the game's): when it reached each player. */
let receipts: Receipts = {};
/** By question number: arrival less the message's `serverNow`, as the bench's other modes time it. */
let sinceServerNow: Receipts = {};
let sent = 0;
let acknowledged = 0;
let finished = 0;
let errors: string[] = [];

function report(message: OutsiderReport): void {
  process.send!(message);
}

async function openAll(count: number, urlOf: (index: number) => string, ready: (socket: ClientSocket, index: number) => void): Promise<void> {
  sockets = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      const socket = await connectWithRetry(urlOf(index));
      sockets[index] = socket;
      ready(socket, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONNECT_CONCURRENCY, count) }, lane));
}

function reset(): void {
  receipts = {};
  sinceServerNow = {};
  sent = acknowledged = finished = 0;
  errors = [];
}

async function openBare(url: string, count: number): Promise<void> {
  reset();
  await openAll(
    count,
    () => url,
    (socket) =>
      socket.on("message", (data: Buffer) => {
        const at = monotonicMs();
        const { round, serverNow } = JSON.parse(data.toString()).payload;
        (receipts[round] ??= []).push(at);
        (sinceServerNow[round] ??= []).push(Date.now() - serverNow);
      }),
  );
  report({ event: "ready" });
}

async function joinGame(command: Extract<OutsiderCommand, { cmd: "game" }>): Promise<void> {
  reset();
  const { url, gameCode, firstIndex, count, keys, answers } = command;
  let joined = 0;
  await openAll(
    count,
    (index) => `${url}?clientId=outsider-player-${firstIndex + index}&game=${gameCode}`,
    (socket, index) => {
      let playerId = 0;
      let answerSentAt = 0;
      let timer: NodeJS.Timeout | null = null;
      socket.on("message", (data: Buffer) => {
        const at = monotonicMs();
        switch (frameTypeOf(data)) {
          case "PLAYER_JOINED":
            if (playerId === 0) {
              playerId = JSON.parse(data.toString()).payload.player.id;
              if (++joined === count) report({ event: "ready" });
            }
            return;
          case "QUESTION_STARTED": {
            const { payload } = JSON.parse(data.toString());
            const questionNumber: number = payload.questionNumber;
            (receipts[questionNumber] ??= []).push(at);
            (sinceServerNow[questionNumber] ??= []).push(Date.now() - payload.serverNow);
            if (!answers) return;
            const { kind, answers: options } = payload.question as { kind: QuestionKind; answers?: string[] };
            // A random moment in the open window, leaving a tenth of it so a busy machine is not late.
            timer = setTimeout(
              () => {
                timer = null;
                answerSentAt = performance.now();
                sent++;
                const answer = answerFor(kind, options?.length ?? 0, keys[questionNumber - 1]);
                socket.send(JSON.stringify({ type: "SUBMIT_ANSWER", payload: { gameCode, playerId, ...answer, time: 0 } }));
              },
              Math.random() * (payload.endsAt - payload.serverNow) * 0.9,
            );
            return;
          }
          case "ANSWER_ACCEPTED":
            if (answerSentAt > 0) acknowledged++;
            answerSentAt = 0;
            return;
          case "ERROR":
            if (errors.length < 20) errors.push(JSON.parse(data.toString()).payload?.message ?? "?");
            return;
          case "GAME_OVER":
            if (timer) clearTimeout(timer);
            finished++;
            return;
        }
      });
      socket.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: `P${firstIndex + index}` } }));
    },
  );
}

function fail(error: unknown): void {
  report({ event: "failed", message: error instanceof Error ? error.message : String(error) });
}

process.on("message", (command: OutsiderCommand) => {
  switch (command.cmd) {
    case "clock":
      report({ event: "clock", at: monotonicMs() });
      return;
    case "bare":
      openBare(command.url, command.count).catch(fail);
      return;
    case "game":
      joinGame(command).catch(fail);
      return;
    case "collect":
      report({ event: "samples", receipts, sinceServerNow, sent, acknowledged, finished, errors });
      return;
    case "close":
      for (const socket of sockets) socket?.terminate();
      sockets = [];
      report({ event: "closed" });
      return;
  }
});
