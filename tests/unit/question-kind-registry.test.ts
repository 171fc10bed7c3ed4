/**
 * The question-kind registry (docs/adding-a-question-kind.md, docs/decisions/0045): every kind
 * registered provides every part and every component, and no code outside app/game/kinds/ switches
 * on a kind, compares one against a kind's name, or styles by a `kind-<name>` class.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KIND_DEFINITIONS, QUESTION_KINDS } from "#app/game/kinds";
import { KIND_COMPONENTS } from "#app/game/kinds/components";
import { KIND_SCHEMAS } from "#app/game/kinds/schemas";
import { KIND_SPREADSHEETS } from "#app/game/kinds/spreadsheets.server";
import type { GameState } from "#app/game/engine/state";
import { QuestionInputSchema } from "#app/game/question-input";
import { LANGUAGES } from "#app/i18n/languages";
import gameCatalog from "#app/locales/en/game.json";

const PURE_PARTS = [
  "name",
  "label",
  "hasOptions",
  "pickOne",
  "scored",
  "keepsStreak",
  "typed",
  "scoredAtClose",
  "rated",
  "rightAnswer",
  "answer",
  "refusals",
] as const;
const PURE_FUNCTIONS = ["readAnswer", "judge", "correctAnswerText", "rightAnswerSent"] as const;

const ROOT = path.resolve(import.meta.dirname, "../..");
const errorCatalogs = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    JSON.parse(fs.readFileSync(path.join(ROOT, "app/locales", language, "errors.json"), "utf8")) as Record<string, string>,
  ]),
);

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
    expect(sheet.examples).toHaveLength(2);
    // Each example is a valid question of its kind, and its right answer as a player sends it is read and judged right.
    for (const example of sheet.examples) {
      const parsed = QuestionInputSchema.safeParse({ ...example, kind: name });
      expect(parsed.error?.issues, `${name}: ${example.text}`).toBeUndefined();
      const question = { ...parsed.data!, id: 1 };
      const read = kind.readAnswer(question, kind.rightAnswerSent(question));
      expect(read, `${name} reads its right answer`).not.toHaveProperty("refused");
      if (kind.scored && !kind.scoredAtClose && !("refused" in read))
        expect(kind.judge({ typedAnswers: new Map() } as unknown as GameState, question, read)).toBe(1);
    }
    const ui = KIND_COMPONENTS[name];
    for (const component of ["PlayerInput", "HostReveal", "EditorFields"] as const) expect(typeof ui[component], `${name}.${component}`).toBe("function");
    expect(typeof ui.editsOptions).toBe("boolean");
    // The host's screen says how to answer where it shows no options; the words are the catalog's.
    if (!kind.hasOptions) expect(ui.howToAnswer, `${name}.howToAnswer`).not.toBeNull();
    if (ui.howToAnswer !== null)
      expect(ui.howToAnswer.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], gameCatalog)).toEqual(expect.any(String));
  });

  it("words every refusal of a kind's own as the errors catalogs do, in every language", () => {
    for (const kind of KIND_DEFINITIONS)
      for (const [code, english] of Object.entries(kind.refusals)) {
        expect(errorCatalogs.en[code], `${kind.name}: ${code}`).toBe(english);
        for (const language of LANGUAGES) expect(errorCatalogs[language][code], `${language}: ${code}`).toEqual(expect.any(String));
      }
  });

  it("lists the same kinds in every registry", () => {
    expect(Object.keys(KIND_SCHEMAS).sort()).toEqual([...QUESTION_KINDS].sort());
    expect(Object.keys(KIND_SPREADSHEETS).sort()).toEqual([...QUESTION_KINDS].sort());
    expect(Object.keys(KIND_COMPONENTS).sort()).toEqual([...QUESTION_KINDS].sort());
    expect(new Set(QUESTION_KINDS).size).toBe(QUESTION_KINDS.length);
  });
});

// ------------------------------------------------------------------------------ the no-switch guard

/** The source the guard reads: the app, the server, the database, and the bench and scripts that drive them. */
const SCANNED = ["app", "server", "db", "bench", "scripts"];
/** The style sheets, scanned for classes named after a kind. */
const STYLES = path.join("app", "styles");
const REGISTRY = path.join("app", "game", "kinds") + path.sep;

/** `switch (x.kind)` over something that is not a question (a heavy job's kind) is not a kind's switch. */
const NOT_QUESTION_KINDS = /switch \(job\.kind\)/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) || (relative.startsWith(STYLES) && entry.name.endsWith(".css")) ? [relative] : [];
  });
}

/** Where a source text switches on a kind, compares against a kind's name or names a class after one (`kind-poll`): "line: text" each. */
export function kindViolations(source: string, kinds: readonly string[]): string[] {
  const names = kinds.join("|");
  const rules = [
    /switch \([^)]*\bkind\)/,
    new RegExp(`[!=]==?\\s*["'\`](${names})["'\`]`),
    new RegExp(`["'\`](${names})["'\`]\\s*[!=]==?`),
    new RegExp(`\\bcase\\s+["'\`](${names})["'\`]\\s*:`),
    // A class per kind (the editor's fields once were shown by `.kind-<name>` rules): the registry's components choose instead.
    new RegExp(`\\bkind-(${names})\\b`),
  ];
  return source
    .split("\n")
    .flatMap((line, index) => (rules.some((rule) => rule.test(line)) && !NOT_QUESTION_KINDS.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
}

describe("no switch on a question kind, and no class named after one, outside app/game/kinds/", () => {
  it("finds a deliberate violation of each form", () => {
    expect(kindViolations('switch (question.kind) {\n  case "poll":', QUESTION_KINDS)).toHaveLength(2);
    expect(kindViolations('const scored = question.kind !== "poll";', QUESTION_KINDS)).toHaveLength(1);
    expect(kindViolations("if ('typeAnswer' === kind) {}", QUESTION_KINDS)).toHaveLength(1);
    expect(kindViolations("const scored = kindOf(question.kind).scored;", QUESTION_KINDS)).toEqual([]);
    expect(kindViolations('<div className="field kind-fields kind-typeAnswer">', QUESTION_KINDS)).toHaveLength(1);
    expect(
      kindViolations('.question-card:has(.kind-select option[value="poll"]:checked) .kind-fields:not(.kind-poll) { display: none; }', QUESTION_KINDS),
    ).toHaveLength(1);
    expect(kindViolations('<div className="kind-field"><select className="select kind-select">', QUESTION_KINDS)).toEqual([]);
  });

  it("scans the style sheets and the components", () => {
    const files = SCANNED.flatMap(sourceFiles);
    expect(files).toContain(path.join("app", "styles", "app.css"));
    expect(files).toContain(path.join("app", "components", "question-editor.tsx"));
    expect(files).toContain(path.join("bench", "questions.ts"));
  });

  it("finds none in app/, server/, db/, bench/ and scripts/", () => {
    const found = SCANNED.flatMap(sourceFiles)
      .filter((file) => !file.startsWith(REGISTRY))
      .flatMap((file) => kindViolations(fs.readFileSync(path.join(ROOT, file), "utf8"), QUESTION_KINDS).map((hit) => `${file}:${hit}`));
    expect(found).toEqual([]);
  });
});
