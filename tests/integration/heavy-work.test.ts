/**
 * Issue 26, holes 4 and 5 (concurrency): files that cost the server out of all proportion to their
 * size, sent as a stranger would to the real server. A zip bomb dressed as a spreadsheet, whether
 * its index tells the truth or lies; four 40 MB quiz files at once; a JSON file built to exhaust
 * the heap that parses it; a decompression-bomb picture. Each is refused with a 4xx (or, past the
 * node's few slots for heavy work, a 503 with Retry-After), the server lives on, and the event
 * loop, which the server shares with this test, never stalls for 100 ms or more.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAs, startTestServer, type TestServer } from "./harness";
import { decompressionBombPng, zipBombXlsx } from "./hostile-files";

const run = promisify(execFile);
let server: TestServer;
let dir: string;
/** Pictures need a session (docs/decisions/0042): a guest's, as the editor starts one. */
let guestCookie: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "heavy-work-"));
  server = await startTestServer({
    // One file read at a time and one waiting, whatever the machine's cores; every request here
    // comes from one address, which the per-address cap (tested on its own below) would stop first.
    heavyWork: { concurrency: 1, queue: 1, perAddress: 100 },
    // The creation limits are not what is tested here.
    limits: { quizzesPerIpPerHour: 0, questionsPerIpPerHour: 0, imagesPerIpPerHour: 0 },
  } as Parameters<typeof startTestServer>[0]);
  guestCookie = (await signInAs(server, "guest")).cookie;
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const MB = 1024 * 1024;

interface Measured<T> {
  result: T;
  /** The event loop's worst delay while the attack ran, ms. */
  worstDelayMs: number;
  /** The process's resident memory at its highest, above where it started, MB. */
  rssGrowthMb: number;
}

/** Runs `attack`, watching the event loop's delay and the process's memory meanwhile. */
async function measured<T>(attack: () => Promise<T>): Promise<Measured<T>> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const sampler = setInterval(sample, 5);
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const result = await attack();
    sample();
    return { result, worstDelayMs: histogram.max / 1e6, rssGrowthMb: (peak - baseline) / MB };
  } finally {
    clearInterval(sampler);
    histogram.disable();
  }
}

/**
 * `attack` until one run keeps the event loop's worst delay under 100 ms, three runs at most;
 * `check` asserts each run's answers. On a shared machine of two cores, the scheduler alone stalls
 * an idle node process by more than 100 ms now and then; an attack that blocks the loop does so on
 * every run (the code this replaced blocked it for seconds each time).
 */
async function calmUnder<T>(attack: () => Promise<T>, check: (result: T) => void): Promise<Measured<T>> {
  let best: Measured<T> | undefined;
  for (let run = 0; run < 3 && !(best && best.worstDelayMs < 100); run++) {
    const attempt = await measured(attack);
    check(attempt.result);
    if (!best || attempt.worstDelayMs < best.worstDelayMs) best = attempt;
  }
  return best!;
}

interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

let replies = 0;

/**
 * POSTs as strangers with curl would, all at once: from one other process, so that sending 40 MB
 * costs this process (which runs the server) nothing the server would not pay itself. `Expect:` is
 * turned off, so each whole body goes at once.
 */
async function curlAll(pathname: string, requests: string[][], to = server): Promise<Reply[]> {
  const args = ["-s", "--parallel", "--parallel-immediate"];
  const outputs = requests.map((request, i) => {
    const output = { headers: path.join(dir, `reply-${++replies}.headers`), body: path.join(dir, `reply-${replies}.body`) };
    if (i > 0) args.push("--next");
    args.push("-H", "Expect:", "-H", "X-Client-Id: heavy-work-test", ...request, "-D", output.headers, "-o", output.body, `${to.url}${pathname}`);
    return output;
  });
  await run("curl", args);
  return outputs.map((output) => {
    const [statusLine, ...lines] = fs.readFileSync(output.headers, "utf8").trim().split("\r\n");
    const headers = new Headers(lines.map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()] as [string, string]));
    return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(fs.readFileSync(output.body, "utf8")) };
  });
}

const curl = async (pathname: string, request: string[], to = server) => (await curlAll(pathname, [request], to))[0];

let files = 0;
/** `bytes` in a file of their own, for curl to send. */
function saved(bytes: Uint8Array | string, name: string): string {
  const file = path.join(dir, `${++files}-${name}`);
  fs.writeFileSync(file, bytes);
  return file;
}

const importSpreadsheet = (file: string, to = server) => curl("/api/quizzes/import", ["-F", `file=@${file}`], to);
const importJson = (file: string, to = server) => curl("/api/quizzes/import", ["-H", "Content-Type: application/json", "--data-binary", `@${file}`], to);
const uploadPicture = (file: string) => curl("/api/images", ["-H", `Cookie: ${guestCookie}`, "-F", `image=@${file};filename=picture.png`]);

const CSV_QUIZ = "Question,Answer 1,Answer 2,Correct\nCapital of France?,Paris,Rome,1\n";
const csvQuiz = () => saved(CSV_QUIZ, "quiz.csv");

describe("a zip bomb sent as a spreadsheet to /api/quizzes/import (no account)", () => {
  it("is refused from the archive's index: 400, memory and the event loop untouched", async () => {
    // The reader is warm, as on a server that has imported before: what is measured is the bomb.
    expect((await importSpreadsheet(csvQuiz())).status).toBe(201);
    const bomb = zipBombXlsx({ unpackedMb: 300 });
    expect(bomb.length).toBeLessThan(2 * MB);
    const file = saved(bomb, "bomb.xlsx");
    const { worstDelayMs, rssGrowthMb } = await calmUnder(
      () => importSpreadsheet(file),
      (result) => {
        expect(result.status).toBe(400);
        expect(result.body).toMatchObject({
          error: "This spreadsheet unpacks to more than 20 MB; it cannot be read.",
          code: "IMPORT_SPREADSHEET_UNPACKS_TOO_LARGE",
        });
      },
    );
    expect(rssGrowthMb).toBeLessThan(100);
    expect(worstDelayMs).toBeLessThan(100);
  });

  it("is refused as it inflates past what a lying index declares: 400, memory and the event loop untouched", async () => {
    const file = saved(zipBombXlsx({ unpackedMb: 300, lie: true }), "lying-bomb.xlsx");
    const { worstDelayMs, rssGrowthMb } = await calmUnder(
      () => importSpreadsheet(file),
      (result) => {
        expect(result.status).toBe(400);
        expect(result.body).toMatchObject({ code: "IMPORT_XLSX_UNREADABLE" });
      },
    );
    expect(rssGrowthMb).toBeLessThan(100);
    expect(worstDelayMs).toBeLessThan(100);
  });
});

/** A quiz file of one question, padded with an unknown field to `bytes`. */
function paddedQuizFile(bytes: number): string {
  const quiz = {
    format: "quiz-night.quiz",
    version: 1,
    title: "Padded",
    questions: [{ kind: "choice", text: "2 + 2?", answers: ["3", "4"], correctAnswerIndex: 1 }],
  };
  const start = JSON.stringify(quiz).slice(0, -1) + ',"padding":"';
  return saved(start + "a".repeat(bytes - start.length - 2) + '"}', "padded.json");
}

describe("quiz files of 40 MB", () => {
  it("four at once: one read, one waiting, two told busy at once (503, Retry-After, a code), the loop never stalled", async () => {
    const file = paddedQuizFile(40 * MB - 1024);
    const json = ["-H", "Content-Type: application/json", "--data-binary", `@${file}`];
    const { worstDelayMs } = await calmUnder(
      () => curlAll("/api/quizzes/import", [json, json, json, json]),
      (result) => {
        const busy = result.filter((reply) => reply.status === 503);
        expect(busy).toHaveLength(2);
        for (const reply of busy) {
          expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
          expect(reply.body).toMatchObject({ code: "SERVER_BUSY" });
        }
        for (const reply of result.filter((reply) => reply.status !== 503)) expect([201, 400]).toContain(reply.status);
      },
    );
    expect(worstDelayMs).toBeLessThan(100);
    // Busy only while they ran.
    expect((await importSpreadsheet(csvQuiz())).status).toBe(201);
  });

  it("four at once from one address: one read, three told to wait for it (429, Retry-After, a code)", async () => {
    const perAddress = await startTestServer({
      heavyWork: { concurrency: 2, queue: 4 },
      limits: { quizzesPerIpPerHour: 0, questionsPerIpPerHour: 0 },
    } as Parameters<typeof startTestServer>[0]);
    try {
      const file = paddedQuizFile(40 * MB - 1024);
      const json = ["-H", "Content-Type: application/json", "--data-binary", `@${file}`];
      const result = await curlAll("/api/quizzes/import", [json, json, json, json], perAddress);
      const waiting = result.filter((reply) => reply.status === 429);
      expect(waiting).toHaveLength(3);
      for (const reply of waiting) {
        expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(reply.body).toMatchObject({ code: "ADDRESS_BUSY" });
      }
      expect(result.filter((reply) => reply.status === 503)).toEqual([]);
    } finally {
      await perAddress.stop();
    }
  });

  it("one of millions of values is refused before it is parsed: 413, the loop never stalled", async () => {
    const file = saved(`{"questions":[${"{},".repeat(Math.floor((40 * MB - 1024) / 3))}{}]}`, "values.json");
    const { worstDelayMs } = await calmUnder(
      () => importJson(file),
      (result) => {
        expect(result.status).toBe(413);
        expect(result.body).toMatchObject({ error: "This file is too large or too complex to read.", code: "IMPORT_FILE_TOO_COMPLEX" });
      },
    );
    expect(worstDelayMs).toBeLessThan(100);
  });

  it("one too large for its worker's heap is refused before it is decoded: 413, the server and its imports go on", async () => {
    // A node whose workers have a heap of 32 MB: a 30 MB text, decoded and parsed, cannot fit. (Let
    // through, its one large string would end the process, not the worker: V8 gives up on a single
    // allocation near the limit before Node's handler can end the worker.)
    const small = await startTestServer({ heavyWork: { workerMemoryMb: 32 }, limits: { quizzesPerIpPerHour: 0, questionsPerIpPerHour: 0 } } as Parameters<
      typeof startTestServer
    >[0]);
    try {
      const file = paddedQuizFile(30 * MB);
      const { worstDelayMs } = await calmUnder(
        () => importJson(file, small),
        (result) => {
          expect(result.status).toBe(413);
          expect(result.body).toMatchObject({ code: "IMPORT_FILE_TOO_COMPLEX" });
        },
      );
      expect(worstDelayMs).toBeLessThan(100);
      expect((await fetch(`${small.url}/healthz`)).status).toBe(200);
      expect((await importSpreadsheet(csvQuiz(), small)).status).toBe(201);
    } finally {
      await small.stop();
    }
  });
});

describe("pictures", () => {
  it("a decompression bomb (20,000 x 20,000 in a few KB) is refused from its header: 400, memory and the event loop untouched", async () => {
    // Warm: the first upload of a process loads libvips's PNG reader.
    const small = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#808080" } })
      .png()
      .toBuffer();
    expect((await uploadPicture(saved(small, "small.png"))).status).toBe(201);
    const bomb = decompressionBombPng(20_000);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const file = saved(bomb, "bomb.png");
    const { worstDelayMs, rssGrowthMb } = await calmUnder(
      () => uploadPicture(file),
      (result) => {
        expect(result.status).toBe(400);
        expect(result.body).toMatchObject({ error: "This picture could not be read." });
      },
    );
    expect(rssGrowthMb).toBeLessThan(100);
    expect(worstDelayMs).toBeLessThan(100);
  });

  it("uploads past the slots and the queue are told busy (503, Retry-After)", async () => {
    // Noise does not compress: each takes libvips a while to decode and encode.
    const side = 1200;
    const noise = Buffer.alloc(side * side * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const pictures = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        sharp(noise, { raw: { width: side, height: side, channels: 3 } })
          .modulate({ hue: i * 40 })
          .png({ compressionLevel: 1 })
          .toBuffer(),
      ),
    );
    const uploads = pictures.map((picture, i) => ["-H", `Cookie: ${guestCookie}`, "-F", `image=@${saved(picture, `noise-${i}.png`)};filename=picture.png`]);
    const replies = await curlAll("/api/images", uploads);
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([201, 201, 503, 503]);
    for (const reply of replies.filter((reply) => reply.status === 503)) {
      expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(reply.body).toMatchObject({ code: "SERVER_BUSY" });
    }
  });
});
