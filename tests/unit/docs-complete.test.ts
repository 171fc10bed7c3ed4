/**
 * The documentation keeps its promises (issue 27): the README stays a two-minute read, every
 * environment variable the server parses has its row in docs/configuration.md, every relative link
 * in the README and docs/ leads to a file (and a heading) that exists, and every indexed folder lists
 * what it holds (docs/README.md its pages, docs/decisions/README.md its records).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** Every file under `dir` (relative to the root) whose name ends in `ending`, as root-relative paths. */
function filesUnder(dir: string, ending: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(ending))
    .map((name) => path.join(dir, name).split(path.sep).join("/"))
    .sort();
}

/** The variables the server's configuration schema parses, found by its declaration wherever the module lives. */
function parsedEnvironmentVariables(): { file: string; names: string[] } {
  const declaration = "const EnvSchema = z.object({";
  const files = filesUnder("app", ".ts").filter((file) => read(file).includes(declaration));
  if (files.length !== 1) throw new Error(`expected one file declaring EnvSchema under app/, found ${JSON.stringify(files)}`);
  const source = read(files[0]);
  const body = source.slice(source.indexOf(declaration) + declaration.length, source.indexOf("\n});", source.indexOf(declaration)));
  const names = [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]);
  return { file: files[0], names };
}

/** The names in the first cell of each row of a Markdown table: `NAME`, or several as `A`, `B`. */
function documentedVariables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split("\n")) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1];
    if (firstCell) for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]);
  }
  return names;
}

/** Markdown without its fenced code blocks and inline code, where a `#` or a `](` is not Markdown. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; a repeated one gets -1, -2, ... */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = match[1].replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The relative targets a Markdown file links to: `[text](target)`, and `src`/`href` of its HTML. */
function relativeLinks(markdown: string): string[] {
  const prose = withoutCode(markdown);
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
    ...[...prose.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with each relative link of `file` (root-relative): a missing file, or an anchor its target lacks. */
function brokenLinks(file: string, markdown: string, readFile: (file: string) => string | undefined): string[] {
  const broken: string[] = [];
  for (const link of relativeLinks(markdown)) {
    const [target, anchor] = link.split("#", 2) as [string, string | undefined];
    const resolved = target === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target)));
    const content = readFile(resolved);
    if (content === undefined) {
      broken.push(`${file}: ${link} (no such file)`);
    } else if (anchor && resolved.endsWith(".md") && !headingAnchors(content).has(decodeURIComponent(anchor))) {
      broken.push(`${file}: ${link} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

/** A root-relative path's text; a folder reads as empty (a link to it is fine); undefined when there is nothing. */
function readIfThere(file: string): string | undefined {
  const full = path.join(root, file);
  if (!full.startsWith(root) || !fs.existsSync(full)) return undefined;
  return fs.statSync(full).isDirectory() ? "" : fs.readFileSync(full, "utf8");
}

const markdownFiles = ["README.md", ...filesUnder("docs", ".md")];

describe("the documentation", () => {
  it("has a README a newcomer reads in two minutes: under 12 KB", () => {
    expect(Buffer.byteLength(read("README.md"))).toBeLessThan(12 * 1024);
  });

  it("documents every environment variable the server parses in docs/configuration.md", () => {
    const { names } = parsedEnvironmentVariables();
    // The schema's keys were found at all (a changed declaration must not make this test pass on nothing).
    expect(names.length).toBeGreaterThan(40);
    expect(names).toContain("PORT");
    expect(names).toContain("REPORT_RETENTION_DAYS");
    const documented = documentedVariables(read("docs/configuration.md"));
    expect(names.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("has no relative link in the README or docs/ that leads nowhere", () => {
    expect(markdownFiles.length).toBeGreaterThan(10);
    expect(markdownFiles.flatMap((file) => brokenLinks(file, read(file), readIfThere))).toEqual([]);
  });

  it("lists every page of docs/ in docs/README.md, and every decision record in docs/decisions/README.md", () => {
    const pages = fs.readdirSync(path.join(root, "docs")).filter((name) => name.endsWith(".md") && name !== "README.md");
    const index = relativeLinks(read("docs/README.md")).map((link) => link.split("#")[0]);
    expect(pages.filter((page) => !index.includes(page))).toEqual([]);

    const records = fs.readdirSync(path.join(root, "docs/decisions")).filter((name) => /^\d{4}-.*\.md$/.test(name));
    expect(records.length).toBeGreaterThan(40);
    const listed = relativeLinks(read("docs/decisions/README.md"));
    expect(records.filter((record) => !listed.includes(record))).toEqual([]);
  });
});

describe("the documentation checks themselves", () => {
  it("find a variable missing from the table, and accept one of several in a row", () => {
    const table = "| variable | default |\n| --- | --- |\n| `PORT` | `3000` |\n| `A_KEY`, `B_KEY` | unset |\nText about `HOST` outside a table.";
    expect([...documentedVariables(table)].sort()).toEqual(["A_KEY", "B_KEY", "PORT"]);
  });

  it("make GitHub's anchors, and ignore headings inside code blocks", () => {
    const anchors = headingAnchors(
      "# Quiz Night\n## Question kinds, pictures and formats\n```ini\n# not a heading\n```\n## `TRUST_PROXY`\n## Backups\n## Backups\n",
    );
    expect([...anchors]).toEqual(["quiz-night", "question-kinds-pictures-and-formats", "trust_proxy", "backups", "backups-1"]);
  });

  it("find a missing file and a missing heading, and pass links that lead somewhere", () => {
    const files: Record<string, string> = { "docs/a.md": "# A\n## Limits\n", "docs/images/x.png": "png" };
    const readFile = (file: string) => files[file];
    const markdown = [
      '[ok](a.md) [ok](a.md#limits) [ok](#here) [ok](images/x.png) <img src="images/x.png"> [web](https://example.com)',
      '[gone](b.md) [no heading](a.md#nothing) <img src="images/y.png"> `[code](c.md)`',
      "```sh\n[fenced](d.md)\n```",
    ].join("\n");
    expect(brokenLinks("docs/here.md", `# Here\n${markdown}`, (file) => (file === "docs/here.md" ? `# Here\n${markdown}` : readFile(file)))).toEqual([
      "docs/here.md: b.md (no such file)",
      "docs/here.md: a.md#nothing (no heading #nothing in docs/a.md)",
      "docs/here.md: images/y.png (no such file)",
    ]);
  });
});
