/**
 * Errors are raised with codes and said from them (docs/decisions/0047-errors-as-codes.md); the
 * English-to-code matching that came before (`app/i18n/error-templates.ts`, `errorTextOf`,
 * `errorKeyOfValues`, `errorCodesOf`) is on its way out. This guard keeps it from spreading: only
 * the modules 0047 lists as still left may use it, and the list only shrinks. `errorCodeOf` is gone.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const MATCHING = /error-templates|error-codes\.server|\berrorTextOf\b|\berrorKeyOfValues\b|\berrorCodesOf\b|\berrorCodeOf\b/;

/** The modules that still match English back to codes, each for a part 0047 lists as left. */
const STILL_MATCHING = [
  // The matching itself.
  "app/i18n/error-codes.server.ts",
  "app/i18n/error-templates.ts",
  "app/i18n/error-text.ts",
  // The import's refusals, the one server path left.
  "app/http/api.server.ts",
  // Pages that read an API error or a form's English.
  "app/components/ai-quiz-form.tsx",
  "app/components/google-sign-in.tsx",
  "app/components/quiz-form.tsx",
  "app/routes/auth.tsx",
  "app/routes/create_.import.tsx",
  "app/routes/my-quizzes.tsx",
  "app/routes/night.new.tsx",
  "app/routes/subscription.tsx",
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** The files of app/, server/ and db/ whose text uses the matching. */
function matchingFiles(texts: Map<string, string>): string[] {
  return [...texts]
    .filter(([, text]) => MATCHING.test(text))
    .map(([file]) => file)
    .sort();
}

const sources = new Map(
  ["app", "server", "db"].flatMap((dir) =>
    sourceFiles(path.join(repo, dir)).map((file) => [path.relative(repo, file), fs.readFileSync(file, "utf8")] as const),
  ),
);

describe("matching English back to codes", () => {
  it("is used by no module beyond those still left", () => {
    expect(matchingFiles(sources)).toEqual([...STILL_MATCHING].sort());
  });

  it("would fail on a new module that uses it", () => {
    const planted = new Map([...sources, ["app/routes/new-page.tsx", 'import { useErrorTextWithValues } from "#app/i18n/error-templates";']]);
    expect(matchingFiles(planted)).toContain("app/routes/new-page.tsx");
    expect(matchingFiles(planted)).not.toEqual([...STILL_MATCHING].sort());
  });

  it("has lost errorCodeOf", () => {
    for (const [file, text] of sources) expect(/\berrorCodeOf\b/.test(text), file).toBe(false);
  });
});
