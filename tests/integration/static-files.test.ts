/**
 * The build's files as a browser gets them: the brotli or gzip copy written at build time when
 * the browser accepts it (server/precompressed-static.ts), the file itself when not, with the same
 * cache headers either way; pages still compressed as they go.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./harness";

const CLIENT_DIR = path.resolve("build/client");

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body is left as it crossed the wire (fetch would decode it). */
function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

/** The build's biggest script: it has both copies beside it. */
function biggestScript(): string {
  const scripts = fs.readdirSync(path.join(CLIENT_DIR, "assets")).filter((name) => name.endsWith(".js"));
  return scripts.sort((a, b) => fs.statSync(path.join(CLIENT_DIR, "assets", b)).size - fs.statSync(path.join(CLIENT_DIR, "assets", a)).size)[0];
}

let server: TestServer;
let script: string;
let plain: Buffer;
beforeAll(async () => {
  server = await startTestServer();
  script = biggestScript();
  plain = fs.readFileSync(path.join(CLIENT_DIR, "assets", script));
});
afterAll(() => server.stop());

describe("precompressed static files", () => {
  it("writes a brotli and a gzip copy beside each script, both smaller and both decoding to it", () => {
    const file = path.join(CLIENT_DIR, "assets", script);
    const br = fs.readFileSync(`${file}.br`);
    const gz = fs.readFileSync(`${file}.gz`);
    expect(br.length).toBeLessThan(gz.length);
    expect(gz.length).toBeLessThan(plain.length);
    expect(zlib.brotliDecompressSync(br).equals(plain)).toBe(true);
    expect(zlib.gunzipSync(gz).equals(plain)).toBe(true);
  });

  it("sends the brotli copy to a browser that accepts it, as JavaScript, cached for a year", async () => {
    const response = await get(`${server.url}/assets/${script}`, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(response.headers["content-length"])).toBe(fs.statSync(path.join(CLIENT_DIR, "assets", `${script}.br`)).size);
    expect(zlib.brotliDecompressSync(response.body).equals(plain)).toBe(true);
  });

  it("sends the gzip copy to a browser that takes gzip alone, or weighs brotli at zero", async () => {
    for (const acceptEncoding of ["gzip", "br;q=0, gzip"]) {
      const response = await get(`${server.url}/assets/${script}`, { "accept-encoding": acceptEncoding });
      expect(response.headers["content-encoding"]).toBe("gzip");
      expect(zlib.gunzipSync(response.body).equals(plain)).toBe(true);
    }
  });

  it("sends the file itself to a client that accepts no encoding, with the same headers", async () => {
    for (const headers of [{}, { "accept-encoding": "identity" }] as Array<Record<string, string>>) {
      const response = await get(`${server.url}/assets/${script}`, headers);
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(response.headers["content-type"]).toMatch(/^application\/javascript/);
      expect(response.headers.vary).toMatch(/Accept-Encoding/i);
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(response.body.equals(plain)).toBe(true);
    }
  });

  it("answers a repeated request with 304, and a HEAD without a body", async () => {
    const first = await get(`${server.url}/assets/${script}`, { "accept-encoding": "br" });
    const again = await get(`${server.url}/assets/${script}`, { "accept-encoding": "br", "if-none-match": first.headers.etag! });
    expect(again.status).toBe(304);
    const head = await get(`${server.url}/assets/${script}`, { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
  });

  it("keeps the service worker and the manifest checked on every load, compressed or not", async () => {
    for (const [file, type] of [
      ["sw.js", /^application\/javascript/],
      ["manifest.webmanifest", /^application\/manifest\+json/],
    ] as const) {
      const original = fs.readFileSync(path.join(CLIENT_DIR, file));
      const br = await get(`${server.url}/${file}`, { "accept-encoding": "br" });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["content-type"]).toMatch(type);
      expect(br.headers["cache-control"]).toBe("no-cache");
      expect(zlib.brotliDecompressSync(br.body).equals(original)).toBe(true);
      const identity = await get(`${server.url}/${file}`);
      expect(identity.headers["cache-control"]).toBe("no-cache");
      expect(identity.body.equals(original)).toBe(true);
    }
  });

  it("serves nothing outside the build, and a 404 for what it lacks", async () => {
    const traversal = await get(`${server.url}/assets/..%2f..%2fpackage.json`, { "accept-encoding": "br" });
    expect(traversal.status).not.toBe(200);
    const missing = await get(`${server.url}/assets/no-such-file.js`, { "accept-encoding": "br" });
    expect(missing.status).toBe(404);
  });

  it("still compresses pages as they are made", async () => {
    const page = await get(`${server.url}/join`, { "accept-encoding": "br" });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(page.body).toString()).toContain("Join a Game");
  });
});
