/**
 * Every error code raised in the source has a message in every language's `errors` catalog
 * (docs/decisions/0047-errors-as-codes.md). `ErrorCode` already makes a code the English catalog
 * lacks fail to compile; this scan holds the other languages to it too, and catches a code raised
 * past the type (a cast, a plain string in a table). It reads the source as text: app/, server/ and
 * db/, every place a code is raised by its literal.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "#app/i18n/languages";
import { sourceFiles } from "../source-files";

const repo = path.resolve(import.meta.dirname, "../..");
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * Where a code is raised by its literal: `appError("CODE"`, a body refusal `new BodyRefusal(413,
 * "CODE")`, the engine's `reject("CODE"` and the text it names (`reject("NOT_HOST", "NOT_HOST_KICK")`),
 * a zod message `coded("CODE"` and a hand-made issue's `codedIssue("CODE"`, an ERROR's catalog
 * `key: "CODE"`, and the entries of a table of codes (`KEY: "CODE"`) inside a block checked
 * against `ErrorCode` (`satisfies ... ErrorCode>`).
 */
const RAISES = [
  /\bappError\(\s*"([A-Za-z0-9_]+)"/g,
  /\bnew BodyRefusal\(\s*\d+,\s*"([A-Za-z0-9_]+)"/g,
  /\breject\(\s*"([A-Za-z0-9_]+)"/g,
  /\breject\(\s*"[A-Za-z0-9_]+",\s*"([A-Za-z0-9_]+)"/g,
  /\bcoded(?:Issue)?\(\s*"([A-Za-z0-9_]+)"/g,
  /\bkey: "([A-Z][A-Z0-9_]+)"/g,
];
const CODE_TABLE = /=\s*\{([^{}]*)\}\s*as const satisfies [^;]*ErrorCode>/g;
const TABLE_ENTRY = /:\s*"([A-Za-z0-9_]+)"/g;

/** The codes raised in one file's text. */
function codesRaisedIn(text: string): Set<string> {
  const codes = new Set<string>();
  for (const pattern of RAISES) for (const match of text.matchAll(pattern)) codes.add(match[1]);
  for (const table of text.matchAll(CODE_TABLE)) for (const entry of table[1].matchAll(TABLE_ENTRY)) codes.add(entry[1]);
  return codes;
}

/** Every code raised in app/, server/ and db/, with the files that raise it. */
function codesRaised(): Map<string, string[]> {
  const raised = new Map<string, string[]>();
  for (const dir of ["app", "server", "db"])
    for (const file of sourceFiles(path.join(repo, dir)))
      for (const code of codesRaisedIn(fs.readFileSync(file, "utf8"))) raised.set(code, [...(raised.get(code) ?? []), path.relative(repo, file)]);
  return raised;
}

const catalogs = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    new Set(
      Object.keys(JSON.parse(fs.readFileSync(path.join(repo, "app/locales", language, "errors.json"), "utf8")) as Record<string, string>).map((key) =>
        key.replace(PLURAL_SUFFIX, ""),
      ),
    ),
  ]),
);

/** "CODE in LANG (raised in FILE)" for every code raised that a language's catalog lacks. */
function missingMessages(raised: Map<string, string[]>): string[] {
  const missing: string[] = [];
  for (const [code, files] of raised)
    for (const language of LANGUAGES) if (!catalogs[language].has(code)) missing.push(`${code} in ${language} (raised in ${files.join(", ")})`);
  return missing.sort();
}

describe("error codes raised", () => {
  const raised = codesRaised();

  it("are found where they are raised (the scan sees the helper, the body refusals, the engine and the tables)", () => {
    for (const code of [
      "SERVER_FAILURE",
      "BODY_TOO_LARGE",
      "FORM_CONTENT_TYPE",
      "LIMIT_QUIZZES",
      "SERVER_BUSY",
      "QUIZ_NOT_FOUND",
      "PAUSED",
      // The engine's text of a family, a zod message, a hand-made issue, an ERROR's key, a socket limit's table.
      "NOT_HOST_KICK",
      "QUIZ_TITLE_TOO_LONG",
      "CORRECT_ANSWERS_REPEATED",
      "BAD_DISPLAY_KEY",
      "JOIN_RATE_LIMITED_IP_GAME",
    ])
      expect(raised.has(code), code).toBe(true);
  });

  it("each have a message in every language's errors catalog", () => {
    expect(missingMessages(raised)).toEqual([]);
  });

  it("would fail on a made-up code, however it is raised", () => {
    const source = [
      'throw new ApiError(400, appError("MADE_UP_CODE", { n: 1 }));',
      'throw new BodyRefusal(413, "MADE_UP_REFUSAL");',
      'return reject("MADE_UP_REJECTION");',
      'return reject("NOT_HOST", "MADE_UP_TEXT");',
      'title: z.string().max(3, coded("MADE_UP_ZOD", { max: 3 })),',
      'ctx.addIssue({ code: "custom", ...codedIssue("MADE_UP_ISSUE") });',
      'this.sendError(connection, { message, code: "NOT_HOST", key: "MADE_UP_KEY" });',
      'const T = {\n  a: "MADE_UP_TABLE_ENTRY",\n} as const satisfies Record<Name, ErrorCode>;',
    ].join("\n");
    const fake = new Map([...codesRaisedIn(source)].map((code) => [code, ["made-up.ts"]]));
    expect(missingMessages(fake)).toEqual(
      ["MADE_UP_CODE", "MADE_UP_REFUSAL", "MADE_UP_REJECTION", "MADE_UP_TEXT", "MADE_UP_ZOD", "MADE_UP_ISSUE", "MADE_UP_KEY", "MADE_UP_TABLE_ENTRY"]
        .flatMap((code) => LANGUAGES.map((language) => `${code} in ${language} (raised in made-up.ts)`))
        .sort(),
    );
  });
});
