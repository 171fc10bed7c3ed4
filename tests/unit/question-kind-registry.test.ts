/**
 * The question-kind registry (docs/adding-a-question-kind.md, docs/decisions/0045): every kind
 * registered provides every part, and no code outside app/game/kinds/ switches on a kind or
 * compares one against a kind's name.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KIND_DEFINITIONS, QUESTION_KINDS } from "#app/game/kinds";
import { KIND_SCHEMAS } from "#app/game/kinds/schemas";
import { KIND_SPREADSHEETS } from "#app/game/kinds/spreadsheets.server";

const PURE_PARTS = ["name", "label", "hasOptions", "pickOne", "scored", "keepsStreak", "typed", "scoredAtClose", "rated", "rightAnswer", "answer"] as const;
const PURE_FUNCTIONS = ["readAnswer", "judge", "correctAnswerText"] as const;

describe("every registered kind provides every part", () => {
  it.each(KIND_DEFINITIONS.map((kind) => [kind.name, kind] as const))("%s", (name, kind) => {
    for (const part of PURE_PARTS) expect(kind[part], `${name}.${part}`).not.toBeUndefined();
    for (const part of PURE_FUNCTIONS) expect(typeof kind[part], `${name}.${part}`).toBe("function");
    const schema = KIND_SCHEMAS[name];
    expect(schema.name).toBe(name);
    expect(Object.keys(schema.inputFields).length + Object.keys(schema.file.fields).length).toBeGreaterThan(0);
    expect(schema.file.description).not.toBe("");
    expect(schema.ai.guide).toContain(`kind "${name}"`);
    for (const fn of [schema.toContent, schema.toFile, schema.ai.fromModel, schema.editor.draftOf, schema.editor.inputOf, schema.editor.check]) {
      expect(typeof fn).toBe("function");
    }
    const sheet = KIND_SPREADSHEETS[name];
    expect(sheet.name).toBe(name);
    expect(sheet.spreadsheetName).not.toBe("");
    expect(typeof sheet.write).toBe("function");
    expect(typeof sheet.read).toBe("function");
  });

  it("lists the same kinds in every registry", () => {
    expect(Object.keys(KIND_SCHEMAS).sort()).toEqual([...QUESTION_KINDS].sort());
    expect(Object.keys(KIND_SPREADSHEETS).sort()).toEqual([...QUESTION_KINDS].sort());
    expect(new Set(QUESTION_KINDS).size).toBe(QUESTION_KINDS.length);
  });
});

// ------------------------------------------------------------------------------ the no-switch guard

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["app", "server", "db"];
const REGISTRY = path.join("app", "game", "kinds") + path.sep;

/** `switch (x.kind)` over something that is not a question (a heavy job's kind) is not a kind's switch. */
const NOT_QUESTION_KINDS = /switch \(job\.kind\)/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) ? [relative] : [];
  });
}

/** Where a source text switches on a kind or compares against a kind's name: "line: text" each. */
export function kindViolations(source: string, kinds: readonly string[]): string[] {
  const names = kinds.join("|");
  const rules = [
    /switch \([^)]*\bkind\)/,
    new RegExp(`[!=]==?\\s*["'\`](${names})["'\`]`),
    new RegExp(`["'\`](${names})["'\`]\\s*[!=]==?`),
    new RegExp(`\\bcase\\s+["'\`](${names})["'\`]\\s*:`),
  ];
  return source
    .split("\n")
    .flatMap((line, index) => (rules.some((rule) => rule.test(line)) && !NOT_QUESTION_KINDS.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
}

describe("no switch on a question kind outside app/game/kinds/", () => {
  it("finds a deliberate violation of each form", () => {
    expect(kindViolations('switch (question.kind) {\n  case "poll":', QUESTION_KINDS)).toHaveLength(2);
    expect(kindViolations('const scored = question.kind !== "poll";', QUESTION_KINDS)).toHaveLength(1);
    expect(kindViolations("if ('typeAnswer' === kind) {}", QUESTION_KINDS)).toHaveLength(1);
    expect(kindViolations("const scored = kindOf(question.kind).scored;", QUESTION_KINDS)).toEqual([]);
  });

  it("finds none in app/, server/ and db/", () => {
    const found = SCANNED.flatMap(sourceFiles)
      .filter((file) => !file.startsWith(REGISTRY))
      .flatMap((file) => kindViolations(fs.readFileSync(path.join(ROOT, file), "utf8"), QUESTION_KINDS).map((hit) => `${file}:${hit}`));
    expect(found).toEqual([]);
  });
});
