/**
 * The floor a game's delivery is measured against, in both modes of `npm run bench`: a bare `ws`
 * server (bench/baseline-server.ts) that broadcasts one message, serialised once, to as many
 * sockets as the game's broadcast reaches, held open by the same load workers on the same cores.
 */
import type { BaselineCommand, BaselineReport, ParentCommand, WorkerReport } from "./ipc";
import { Reporter, forkScript, log, sleep } from "./processes";
import { summarize, type LatencySummary } from "./stats";

/** The size of a broadcast in the baseline: a QUESTION_STARTED of the bench's questions is 330-410 B with its kind, points and picture id. */
export const BROADCAST_BYTES = 400;
const BASELINE_SPACING_MS = 1500;

type Worker = Reporter<ParentCommand, WorkerReport>;
type Baseline = Reporter<BaselineCommand, BaselineReport>;

export interface BaselineFigures {
  delivery: LatencySummary;
  received: number;
  expected: number;
  /** The bare server's immediate echo of every socket's answer, under the burst of answer windows; null when none was asked. */
  echoAck: LatencySummary | null;
  echoAnswers: number;
}

/** Answer windows after the plain broadcasts: each a broadcast, then every socket answering at a random moment of `windowMs`. */
export interface EchoRounds {
  rounds: number;
  windowMs: number;
}

/** Splits N sockets over the workers: [firstIndex, count] each. */
export function slices(total: number, parts: number): Array<{ firstIndex: number; count: number }> {
  const size = Math.ceil(total / parts);
  return Array.from({ length: parts }, (_, part) => ({ firstIndex: part * size, count: Math.max(0, Math.min(size, total - part * size)) })).filter(
    (slice) => slice.count > 0,
  );
}

/**
 * Opens `sockets` sockets to a bare `ws` server over the workers, times `broadcasts` broadcasts to
 * all of them, then (with `echo`) its immediate acknowledgement of every socket's answer in each
 * answer window, and closes them.
 */
export async function measureBaseline(
  workers: Worker[],
  { sockets, broadcasts, echo }: { sockets: number; broadcasts: number; echo?: EchoRounds },
): Promise<BaselineFigures> {
  const baseline: Baseline = new Reporter(forkScript("baseline-server.ts"), "baseline server");
  try {
    const { port } = await baseline.next("listening");
    const parts = slices(sockets, workers.length);
    await Promise.all(
      parts.map((slice, index) => {
        const ready = workers[index].next("baselineReady");
        workers[index].send({ cmd: "baseline", url: `ws://127.0.0.1:${port}`, count: slice.count });
        return ready;
      }),
    );
    log(`baseline: ${sockets} sockets open; ${broadcasts} broadcasts of ${BROADCAST_BYTES} bytes`);
    for (let round = 0; round < broadcasts; round++) {
      const sent = baseline.next("broadcast");
      baseline.send({ cmd: "broadcast", bytes: BROADCAST_BYTES });
      await sent;
      await sleep(BASELINE_SPACING_MS);
    }
    for (let round = 0; round < (echo?.rounds ?? 0); round++) {
      if (round === 0) log(`baseline: ${echo!.rounds} answer windows of ${echo!.windowMs} ms, every socket answering once in each, echoed at once`);
      const sent = baseline.next("broadcast");
      baseline.send({ cmd: "broadcast", bytes: BROADCAST_BYTES, echoWindowMs: echo!.windowMs });
      await sent;
      await sleep(echo!.windowMs + BASELINE_SPACING_MS);
    }
    const samples: number[] = [];
    const echoAcks: number[] = [];
    for (const worker of workers.slice(0, parts.length)) {
      const report = worker.next("baselineSamples");
      worker.send({ cmd: "collect" });
      const { deliveries, echoAcks: acks } = await report;
      samples.push(...deliveries);
      echoAcks.push(...acks);
    }
    await Promise.all(
      workers.slice(0, parts.length).map((worker) => {
        const closed = worker.next("closed");
        worker.send({ cmd: "close" });
        return closed;
      }),
    );
    return {
      delivery: summarize(samples),
      received: samples.length,
      expected: sockets * broadcasts,
      echoAck: echo && echo.rounds > 0 ? summarize(echoAcks) : null,
      echoAnswers: echoAcks.length,
    };
  } finally {
    baseline.send({ cmd: "stop" });
    await new Promise((resolve) => baseline.child.once("exit", resolve));
  }
}
