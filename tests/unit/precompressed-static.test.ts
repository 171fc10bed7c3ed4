import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chooseEncoding, findPrecompressed } from "#server/precompressed-static";

describe("chooseEncoding", () => {
  const both = ["br", "gzip"] as const;
  it.each([
    // Chromium, Firefox and Safari list gzip first at the same weight: the server's order decides.
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate", "gzip"],
    ["GZIP", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["br ; q=1.0, gzip; q=0.1", "br"],
    ["*", "br"],
    ["*;q=0.1, br;q=0", "gzip"],
    ["gzip;q=0, br;q=0", null],
    ["identity", null],
    ["deflate", null],
    ["", null],
    [undefined, null],
    ["br;q=nonsense, gzip", "gzip"],
  ])("%j takes %s", (header, expected) => {
    expect(chooseEncoding(header, both)).toBe(expected);
  });

  it("offers only what a file has", () => {
    expect(chooseEncoding("gzip, br", ["gzip"])).toBe("gzip");
    expect(chooseEncoding("br", ["gzip"])).toBe(null);
  });
});

describe("findPrecompressed", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lists each file beside its copies, by URL path, best encoding first", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompressed-"));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, "assets"));
    for (const file of ["sw.js", "sw.js.gz", "sw.js.br", "assets/a.css", "assets/a.css.gz", "assets/b.js", "icon.png", "orphan.js.br"]) {
      fs.writeFileSync(path.join(dir, file), "x");
    }
    expect(Object.fromEntries(findPrecompressed(dir))).toEqual({ "/sw.js": ["br", "gzip"], "/assets/a.css": ["gzip"] });
  });

  it("finds nothing in a folder that is not there (a server started before any build)", () => {
    expect(findPrecompressed(path.join(os.tmpdir(), "no-such-build-folder")).size).toBe(0);
  });
});
