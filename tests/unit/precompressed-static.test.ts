import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { chooseEncoding, findPrecompressed, staticFiles } from "#server/precompressed-static";

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

describe("staticFiles", () => {
  const script = "console.log('quiz night');\n".repeat(50);
  let dir: string;
  let server: http.Server;
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A folder with app.js and its brotli copy, served as the app serves the build. */
  async function serve(): Promise<string> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompressed-"));
    fs.writeFileSync(path.join(dir, "app.js"), script);
    fs.writeFileSync(path.join(dir, "app.js.br"), zlib.brotliCompressSync(script));
    const app = express();
    app.use(staticFiles(dir, { maxAge: "1y", immutable: true }));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/app.js`;
  }

  function get(url: string): Promise<{ encoding: string | undefined; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { headers: { "accept-encoding": "br" } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }));
        })
        .on("error", reject);
    });
  }

  it("sends the copy while it is current", async () => {
    const response = await get(await serve());
    expect(response.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(response.body).toString()).toBe(script);
  });

  it("sends the file itself once it was changed after its copy was written", async () => {
    const url = await serve();
    const changed = `${script}// patched\n`;
    fs.writeFileSync(path.join(dir, "app.js"), changed);
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, "app.js.br"), past, past);
    const response = await get(url);
    expect(response.encoding).toBeUndefined();
    expect(response.body.toString()).toBe(changed);
  });

  it("sends the file itself when its copy went away after the server started", async () => {
    const url = await serve();
    fs.rmSync(path.join(dir, "app.js.br"));
    const response = await get(url);
    expect(response.encoding).toBeUndefined();
    expect(response.body.toString()).toBe(script);
  });
});
