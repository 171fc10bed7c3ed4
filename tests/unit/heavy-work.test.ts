/**
 * The pieces of heavy work's bounds, each alone: the slots and queue of server/heavy-work.ts, the
 * JSON scan before a quiz file is parsed, the zip index check, and their variables.
 */
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from "#app/limits/heavy-limits";
import { jsonWithinShape } from "#app/quiz-files/import-reading.server";
import { parseEnv } from "#app/env/env.server";
import { checkArchive } from "#app/quiz-files/xlsx-archive.server";
import { parseQuizSpreadsheet, quizTemplateCsv, TEMPLATE_QUESTIONS } from "#app/quiz-files/quiz-spreadsheet.server";
import { releasedWhenRead } from "#app/reports/game-report-files.server";
import type { HeavyJob } from "#app/quiz-files/heavy-jobs.server";
import { HeavyWork } from "#server/heavy-work";
import { silentLogger } from "#server/logger";
import { zipBombXlsx } from "../integration/hostile-files";

const heavyWork = (concurrency: number, queue: number) => new HeavyWork({ concurrency, queue, retryAfterSeconds: 7 }, { file: "unused.js" }, silentLogger);

describe("HeavyWork's slots", () => {
  it("runs `concurrency` at once, queues `queue` more, and answers busy past them at once", async () => {
    const work = heavyWork(1, 1);
    const first = await work.acquire("192.0.2.1");
    expect(first.ok).toBe(true);
    const second = work.acquire("192.0.2.2");
    expect(await work.acquire("192.0.2.3")).toEqual({ ok: false, reason: "busy", retryAfterSeconds: 7 });
    expect(work.load).toEqual({ running: 1, waiting: 1 });
    if (first.ok) {
      first.release();
      first.release(); // a second release changes nothing
    }
    const next = await second;
    expect(next.ok).toBe(true);
    expect(work.load).toEqual({ running: 1, waiting: 0 });
    if (next.ok) next.release();
    expect(work.load).toEqual({ running: 0, waiting: 0 });
  });

  it("gives a slot back however a task ends", async () => {
    const work = heavyWork(1, 0);
    await expect(work.run("192.0.2.1", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await work.run("192.0.2.1", async () => 42)).toEqual({ ok: true, value: 42 });
  });

  it("lets one address have one job in at a time (running or waiting), and answers it address-busy past that", async () => {
    const work = heavyWork(1, 4);
    const running = await work.acquire("192.0.2.1");
    expect(await work.acquire("192.0.2.1")).toEqual({ ok: false, reason: "address-busy", retryAfterSeconds: 7 });
    const waiting = work.acquire("192.0.2.2");
    expect(await work.acquire("192.0.2.2")).toEqual({ ok: false, reason: "address-busy", retryAfterSeconds: 7 });
    expect(work.load).toEqual({ running: 1, waiting: 1 });
    if (running.ok) running.release();
    const second = await waiting;
    // The first address's job is over: it may send another, which waits behind the second's.
    const again = work.acquire("192.0.2.1");
    expect(work.load).toEqual({ running: 1, waiting: 1 });
    if (second.ok) second.release();
    const third = await again;
    if (third.ok) third.release();
    expect(work.load).toEqual({ running: 0, waiting: 0 });
    expect((await work.acquire("192.0.2.1")).ok).toBe(true);
  });
});

describe("a worker that runs out of heap", () => {
  it("is ended, its job answered out-of-memory, and the next job gets a new worker", async () => {
    // A worker that, on its first job, allocates small objects until its heap is gone (the way a
    // parse runs out: many allocations, each small), and answers any later job at once.
    const code = `
      const { parentPort } = require("node:worker_threads");
      let jobs = 0;
      parentPort.on("message", () => {
        if (++jobs > 1 || process.env.HEAVY_TEST_CALM) return parentPort.postMessage({ status: "ok" });
        const kept = [];
        for (;;) kept.push({ at: kept.length, text: "x".repeat(64) + kept.length });
      });`;
    const work = new HeavyWork({ workerMemoryMb: 32 }, { code }, silentLogger);
    const job: HeavyJob = { kind: "read-import", source: { quizFile: [], isPublic: false }, limits: { maxRows: 1, maxUnpackedBytes: 1 } };
    expect(await work.inWorker(job)).toEqual({ ok: false, reason: "out-of-memory" });
    // A new worker (its first job again), which this time is let off: it answers.
    process.env.HEAVY_TEST_CALM = "1";
    try {
      expect(await work.inWorker(job)).toEqual({ ok: true, value: { status: "ok" } });
    } finally {
      delete process.env.HEAVY_TEST_CALM;
      await work.close();
    }
  }, 60_000);
});

describe("a report's slot", () => {
  const stream = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2]));
        controller.enqueue(new Uint8Array([3]));
        controller.close();
      },
    });

  it("is given back once the file is read to its end", async () => {
    let released = 0;
    const body = releasedWhenRead(stream(), () => released++);
    expect(released).toBe(0);
    expect([...new Uint8Array(await new Response(body).arrayBuffer())]).toEqual([1, 2, 3]);
    expect(released).toBe(1);
  });

  it("is given back when the download is dropped or the writing fails", async () => {
    let released = 0;
    await releasedWhenRead(stream(), () => released++).cancel("gone");
    expect(released).toBe(1);
    const failing = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new Error("disk")) });
    await expect(new Response(releasedWhenRead(failing, () => released++)).arrayBuffer()).rejects.toThrow("disk");
    expect(released).toBe(2);
  });
});

describe("the scan of a quiz file's JSON before it is parsed", () => {
  const bytes = (text: string) => [new TextEncoder().encode(text)];
  it("passes a real quiz file, strings with brackets, commas and escaped quotes included", () => {
    expect(jsonWithinShape(bytes(JSON.stringify({ title: 'a, [b] {c} "d" \\', questions: TEMPLATE_QUESTIONS })))).toBe(true);
  });
  it("refuses too many values or too deep a nesting, whatever the chunks", () => {
    expect(jsonWithinShape(bytes(`[${"0,".repeat(MAX_JSON_VALUES)}0]`))).toBe(false);
    expect(jsonWithinShape(bytes("[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1)))).toBe(false);
    expect(jsonWithinShape(bytes("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH)))).toBe(true);
    // An escaped quote split between two chunks stays inside its string.
    const text = new TextEncoder().encode(`["a\\",[[[[${",".repeat(10)}"]`);
    const cut = text.indexOf(0x5c) + 1;
    expect(jsonWithinShape([text.subarray(0, cut), text.subarray(cut)])).toBe(true);
  });
});

describe("the zip index check", () => {
  it("passes a real workbook and refuses a bomb from its index", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Quiz").addRow(["Question", "Answer 1"]);
    const real = new Uint8Array(await workbook.xlsx.writeBuffer());
    expect(checkArchive(real, { maxUnpackedBytes: 1024 * 1024 })).toMatchObject({ ok: true });
    expect(checkArchive(zipBombXlsx({ unpackedMb: 30 }), { maxUnpackedBytes: 20 * 1024 * 1024 })).toMatchObject({ ok: false, reason: "too-large" });
    expect(checkArchive(new TextEncoder().encode("not a zip"), { maxUnpackedBytes: 1024 })).toEqual({ ok: false, reason: "unreadable" });
  });

  it("reads a spreadsheet within the row limit and refuses one past it", async () => {
    const csv = new TextEncoder().encode(quizTemplateCsv());
    expect(await parseQuizSpreadsheet(csv, "t.csv", { maxRows: 10, maxUnpackedBytes: 1024 * 1024 })).toMatchObject({ status: "ok" });
    expect(await parseQuizSpreadsheet(csv, "t.csv", { maxRows: 3, maxUnpackedBytes: 1024 * 1024 })).toEqual({
      status: "invalid",
      errors: [{ row: 0, message: "A spreadsheet can have at most 3 rows.", error: { code: "IMPORT_TOO_MANY_ROWS", values: { max: 3 } } }],
    });
    const sheet = new ExcelJS.Workbook();
    const rows = sheet.addWorksheet("Quiz");
    rows.addRow(["Question", "Answer 1", "Answer 2", "Correct"]);
    for (let i = 0; i < 5; i++) rows.addRow([`Q${i}`, "a", "b", 1]);
    const xlsx = new Uint8Array(await sheet.xlsx.writeBuffer());
    expect(await parseQuizSpreadsheet(xlsx, "t.xlsx", { maxRows: 6, maxUnpackedBytes: 1024 * 1024 })).toMatchObject({ status: "ok" });
    expect(await parseQuizSpreadsheet(xlsx, "t.xlsx", { maxRows: 5, maxUnpackedBytes: 1024 * 1024 })).toMatchObject({
      errors: [{ message: "A spreadsheet can have at most 5 rows." }],
    });
  });
});

describe("the variables", () => {
  it("are read, and unset keep their defaults", () => {
    const env = parseEnv({
      HEAVY_WORK_CONCURRENCY: "2",
      HEAVY_WORK_QUEUE: "0",
      HEAVY_WORK_MEMORY_MB: "128",
      SPREADSHEET_MAX_ROWS: "500",
      SPREADSHEET_MAX_UNPACKED_MB: "10",
      IMAGE_MAX_PIXELS: "20000000",
    });
    expect(env).toMatchObject({
      HEAVY_WORK_CONCURRENCY: 2,
      HEAVY_WORK_QUEUE: 0,
      HEAVY_WORK_MEMORY_MB: 128,
      SPREADSHEET_MAX_ROWS: 500,
      SPREADSHEET_MAX_UNPACKED_MB: 10,
      IMAGE_MAX_PIXELS: 20_000_000,
    });
    expect(parseEnv({}).HEAVY_WORK_CONCURRENCY).toBeUndefined();
    expect(() => parseEnv({ HEAVY_WORK_CONCURRENCY: "0" })).toThrow(/HEAVY_WORK_CONCURRENCY/);
  });
});
