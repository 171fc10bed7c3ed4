/**
 * Errors are raised with codes and said from them (docs/decisions/0047-errors-as-codes.md); the
 * English-to-code matching that came before (`app/i18n/error-templates.ts`, `errorTextOf`,
 * `errorKeyOfValues`, `errorCodesOf`, `errorCodeOf`, `useErrorText`'s lookup) is gone. This guard
 * keeps it gone: no module of app/, server/ or db/ may name it again.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../source-files";

const repo = path.resolve(import.meta.dirname, "../..");
const MATCHING =
  /error-templates|error-codes\.server|\berrorTextOf\b|\berrorKeyOfValues\b|\berrorCodesOf\b|\berrorCodeOf\b|\berrorTemplatesOf\b|\buseErrorText(WithValues)?\b|\buseToastText\b|\berrorTextIn\b/;

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
  it("is used by no module", () => {
    expect(matchingFiles(sources)).toEqual([]);
  });

  it("would fail on a new module that uses it", () => {
    const planted = new Map([...sources, ["app/routes/new-page.tsx", 'import { useErrorTextWithValues } from "#app/i18n/error-templates";']]);
    expect(matchingFiles(planted)).toEqual(["app/routes/new-page.tsx"]);
  });

  it("has lost the modules that did it", () => {
    for (const gone of ["app/i18n/error-templates.ts", "app/i18n/error-codes.server.ts"]) expect(fs.existsSync(path.join(repo, gone)), gone).toBe(false);
  });
});
