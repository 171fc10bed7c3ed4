/**
 * Issue 26, hole 3: the patterns that read numbers and time limits typed by strangers take time in
 * proportion to their input, and long input is refused before any pattern runs. A 300,000-character
 * field once took minutes of a blocked event loop; here the loop's worst delay while reading one
 * (`monitorEventLoopDelay`) stays under the 100 ms the issue allows.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { parseTypedNumber } from "#app/game/question-kinds";
import { parseQuizSpreadsheet, QUIZ_SPREADSHEET_COLUMNS, readTimeLimit } from "#app/quiz-files/quiz-spreadsheet.server";

const LONG = Number(process.env.LINEAR_TEST_LENGTH ?? 300_000);

/** The event loop's worst delay, in ms, while `work` runs (synchronously or not). */
async function worstLoopDelay(work: () => unknown): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  await sleep(20);
  await work();
  await sleep(20);
  histogram.disable();
  return histogram.max / 1e6;
}

/** The shapes that made the old patterns backtrack: a long run the pattern can split many ways, then a character that fails it. */
const HOSTILE_NUMBERS = [
  "1".repeat(LONG) + "x",
  "1".repeat(LONG) + ".",
  `1${".1".repeat(LONG / 2)}x`,
  `1${",111".repeat(LONG / 4)},1`,
  `${" ".repeat(LONG)}1x`,
];

describe("parseTypedNumber on long input", () => {
  it.each(HOSTILE_NUMBERS.map((text, i) => [i, text]))("shape %i: read as no number, the loop never blocked", async (_, text) => {
    let result: number | null = 0;
    const delay = await worstLoopDelay(() => (result = parseTypedNumber(text)));
    expect(result).toBeNull();
    expect(delay).toBeLessThan(100);
  });

  it("still reads what people type", () => {
    expect(parseTypedNumber(" 1 000 000 ")).toBe(1_000_000);
    expect(parseTypedNumber("1.969,5")).toBe(1969.5);
    expect(parseTypedNumber("1e6")).toBe(1e6);
    expect(parseTypedNumber("5.")).toBe(5);
    expect(parseTypedNumber(".5")).toBe(0.5);
  });
});

describe("the spreadsheet's time-limit reader on long input", () => {
  const header = QUIZ_SPREADSHEET_COLUMNS.join(",");
  const timeLimitColumn = QUIZ_SPREADSHEET_COLUMNS.indexOf("Time limit");
  const row = (timeLimit: string) => {
    const cells: string[] = QUIZ_SPREADSHEET_COLUMNS.map(() => "");
    cells[0] = "Capital of France?";
    cells[2] = "Paris";
    cells[3] = "Rome";
    cells[QUIZ_SPREADSHEET_COLUMNS.indexOf("Correct")] = "1";
    cells[timeLimitColumn] = timeLimit;
    return cells.join(",");
  };

  const LONG_CELLS = [
    ["spaces before the unit", `1${" ".repeat(LONG)}x`],
    ["spaces before a unit", `1${" ".repeat(LONG)}s`],
    ["digits", "1".repeat(LONG) + "s"],
    ["a long unit-like tail", `1${"s".repeat(LONG)}`],
  ];

  it.each(LONG_CELLS)("%s: no number of seconds, the loop never blocked", async (_, cell) => {
    let result: unknown;
    const delay = await worstLoopDelay(() => (result = readTimeLimit(cell)));
    expect(result).toBeNaN();
    expect(delay).toBeLessThan(100);
  });

  it("a CSV row that long is refused before any cell is read", async () => {
    const csv = new TextEncoder().encode(`${header}\n${row(`1${" ".repeat(LONG)}x`)}\n`);
    const result = await parseQuizSpreadsheet(csv, "quiz.csv");
    expect(result).toEqual({
      status: "invalid",
      errors: [
        { row: 0, message: "A row of this spreadsheet is longer than 16384 characters.", error: { code: "IMPORT_ROW_TOO_LONG", values: { max: 16384 } } },
      ],
    });
  });

  it("still reads the units people write", async () => {
    for (const [cell, seconds] of [
      ["30", 30],
      ["30s", 30],
      ["30 sec", 30],
      ["45 secs", 45],
      ["60 seconds", 60],
      ["20 Second", 20],
    ] as const) {
      const result = await parseQuizSpreadsheet(new TextEncoder().encode(`${header}\n${row(cell)}\n`), "quiz.csv");
      expect(result, cell).toMatchObject({ status: "ok", questions: [{ timeLimit: seconds }] });
    }
  });
});
