/**
 * Issue 26, holes 1, 2 and the bodies of 5: a form or JSON body past its route's limits
 * (app/http/request-body.server.ts) is refused with a 4xx before anything parses it, while the
 * event loop that carries every live game stays free. The server runs in this process, so the
 * loop watched here is the server's.
 */
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import englishErrors from "#app/locales/en/errors.json";
import { signInAs, startTestServer, type TestServer } from "./harness";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  // The first request to each page loads and compiles its code: that is not what is measured here.
  for (const pathname of ["/join", "/auth", "/create", "/night/new", "/language", "/theme", "/api/quizzes"]) {
    await (await fetch(server.url + pathname, { method: "POST", headers: FORM, body: "a=1", redirect: "manual" })).arrayBuffer();
  }
  // And the multipart parser's, with as many parts as a large quiz has.
  for (const pathname of ["/create", "/api/images", "/api/quizzes/import"]) {
    const body = new FormData();
    const fields = pathname === "/create" ? 1000 : 20;
    for (let i = 0; i < fields; i++) body.append(`questions[${i % 100}].f${i}`, "warm-up");
    await (await fetch(server.url + pathname, { method: "POST", body, redirect: "manual" })).arrayBuffer();
  }
});

afterAll(async () => {
  await server.stop();
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };

interface Attack {
  status: number;
  body: string;
  /** The worst delay of the event loop while the request ran, in milliseconds. */
  worstDelayMs: number;
  /** How many /healthz checks sent during the attack answered 200. */
  healthy: number;
}

/**
 * Sends one hostile request (its body built beforehand, so building it is not measured) while
 * /healthz is asked every 20 ms, and measures the loop's worst delay meanwhile.
 */
async function attack(send: () => Promise<{ status: number; body: string }>): Promise<Attack> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let healthy = 0;
  let running = true;
  const checks = (async () => {
    while (running) {
      const response = await fetch(`${server.url}/healthz`);
      if (response.status === 200) healthy++;
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const { status, body } = await send();
    // One more check after the refusal, so a loop blocked through the whole request still shows.
    await new Promise((resolve) => setTimeout(resolve, 30));
    running = false;
    await checks;
    return { status, body, worstDelayMs: delay.max / 1e6, healthy };
  } finally {
    running = false;
    delay.disable();
  }
}

async function post(pathname: string, body: string, headers: Record<string, string> = FORM) {
  const response = await fetch(server.url + pathname, { method: "POST", headers, body, redirect: "manual" });
  return { status: response.status, body: await response.text() };
}

/**
 * Why a request was refused: the code of a JSON refusal, or the words of a page's error screen
 * (every page carries the whole errors catalog, so only its <main> says which one it shows).
 */
function expectReason(body: string, code: keyof typeof englishErrors) {
  if (body.trimStart().startsWith("{")) expect(JSON.parse(body)).toMatchObject({ code, error: englishErrors[code] });
  else expect(/<main[\s\S]*?<\/main>/.exec(body)?.[0]).toContain(englishErrors[code]);
}

function expectRefusedQuickly(result: Attack, status: number | number[], code?: keyof typeof englishErrors) {
  expect([status].flat()).toContain(result.status);
  if (code) expectReason(result.body, code);
  expect(result.worstDelayMs).toBeLessThan(100);
  expect(result.healthy).toBeGreaterThan(0);
}

describe("bounded form bodies", () => {
  const repeated = "a=&".repeat(20_000);

  for (const pathname of ["/join", "/auth", "/create", "/night/new", "/language", "/theme", "/logout"]) {
    it(`refuses 20,000 repeats of one field on ${pathname} before conform reads them`, async () => {
      const result = await attack(() => post(pathname, repeated));
      expectRefusedQuickly(result, 400, "FORM_TOO_MANY_FIELDS");
    });
  }

  it("refuses a field repeated past its route's allowance, though the form is small", async () => {
    const result = await attack(() => post("/join", "gameCode=ABCDEF&" + "nickname=x&".repeat(40)));
    expectRefusedQuickly(result, 400, "FORM_FIELD_REPEATED");
  });

  it("refuses a huge list index on /create and /night/new before a sparse list of that length is made", async () => {
    const create = await attack(() => post("/create", "intent=save&title=Quiz&questions%5B4294967294%5D=x"));
    expectRefusedQuickly(create, 400, "FORM_INDEX_TOO_LARGE");
    const night = await attack(() => post("/night/new", "intent=host&title=Night&rounds%5B4294967294%5D.quizId=1"));
    expectRefusedQuickly(night, 400, "FORM_INDEX_TOO_LARGE");
    // The dotted spelling names the same array element.
    const dotted = await attack(() => post("/create", "intent=save&questions%5B0%5D.text=a&questions.4294967294=x"));
    expectRefusedQuickly(dotted, 400, "FORM_INDEX_TOO_LARGE");
  });

  it("refuses an index one past what the form can hold, and still reads one within it", async () => {
    const past = await post("/night/new", "intent=host&title=Night&rounds%5B11%5D.quizId=1");
    expect(past.status).toBe(400);
    expectReason(past.body, "FORM_INDEX_TOO_LARGE");
    const within = await post("/night/new", "intent=host&title=Night&rounds%5B10%5D.quizId=1");
    // The plan's own rule answers, beside its field: a night has 2 to 10 rounds.
    expect(within.status).toBe(400);
    expect(/<main[\s\S]*?<\/main>/.exec(within.body)?.[0]).toContain(englishErrors.NIGHT_ROUND_COUNT.replace("{{min}}", "2").replace("{{max}}", "10"));
  });

  it("refuses an urlencoded /create far smaller than the pictures' multipart allowance", async () => {
    const body = "intent=save&title=" + "x".repeat(2 * 1024 * 1024);
    const result = await attack(() => post("/create", body));
    expectRefusedQuickly(result, 413, "BODY_TOO_LARGE");
  });

  it("refuses a 64 KiB+ form on a small form's route", async () => {
    const result = await attack(() => post("/join", "gameCode=ABCDEF&nickname=" + "x".repeat(70 * 1024)));
    expectRefusedQuickly(result, 413, "BODY_TOO_LARGE");
  });

  it("refuses a field value past its route's length, and a field name past its length", async () => {
    const value = await attack(() => post("/theme", "theme=" + "x".repeat(20 * 1024)));
    expectRefusedQuickly(value, 400, "FORM_FIELD_TOO_LONG");
    const name = await attack(() => post("/theme", "x".repeat(1000) + "=dark"));
    expectRefusedQuickly(name, 400, "FORM_FIELD_NAME_TOO_LONG");
  });

  it("refuses a multipart /join with many parts, and a file where the form takes none", async () => {
    const boundary = "----bounded";
    const part = (name: string, value: string, filename?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}\r\n\r\n${value}\r\n`;
    const headers = { "content-type": `multipart/form-data; boundary=${boundary}` };
    const many = Array.from({ length: 500 }, (_, i) => part(`f${i}`, "")).join("") + `--${boundary}--\r\n`;
    expectRefusedQuickly(await attack(() => post("/join", many, headers)), 400, "FORM_TOO_MANY_FIELDS");
    const file = part("gameCode", "ABCDEF") + part("nickname", "x", "x.txt") + `--${boundary}--\r\n`;
    expect((await post("/join", file, headers)).status).toBe(400);
  });

  it("counts the parts of the editor's, a picture's and an import's multipart before reading them", async () => {
    const boundary = "----parts";
    const headers = { "content-type": `multipart/form-data; boundary=${boundary}` };
    const parts = (count: number, name: (i: number) => string) =>
      Array.from({ length: count }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="${name(i)}"\r\n\r\n\r\n`).join("") +
      `--${boundary}--\r\n`;
    const editor = parts(3000, (i) => `questions[${i % 100}].f${i}`);
    expectRefusedQuickly(await attack(() => post("/create", editor, headers)), 400, "FORM_TOO_MANY_FIELDS");
    const many = parts(5000, (i) => `f${i}`);
    // Pictures need a session (docs/decisions/0042), so the parts are counted for a guest's.
    const { cookie } = await signInAs(server, "guest");
    expectRefusedQuickly(await attack(() => post("/api/images", many, { ...headers, cookie })), 400, "FORM_TOO_MANY_FIELDS");
    expectRefusedQuickly(await attack(() => post("/api/quizzes/import", many, headers)), 400, "FORM_TOO_MANY_FIELDS");
  });

  it("drops what is left of a refused body, so the next request on the same connection is answered", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (pathname: string, method: string, headers: Record<string, string> = {}, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(new URL(pathname, server.url), { method, agent, headers }, (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        });
        request.setTimeout(5_000, () => request.destroy(new Error("no answer on the kept-alive connection")));
        request.on("error", reject);
        request.end(body);
      });
    const boundary = "----drain";
    const parts = Array.from({ length: 2000 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${"x".repeat(100)}\r\n`).join(
      "",
    );
    const body = parts + `--${boundary}--\r\n`;
    const multipart = { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(Buffer.byteLength(body)) };
    // Pictures need a session (docs/decisions/0042): refused unread without one, for its parts with one.
    const { cookie } = await signInAs(server, "guest");
    try {
      expect(await send("/api/images", "POST", multipart, body)).toBe(401);
      expect(await send("/healthz", "GET")).toBe(200);
      expect(await send("/api/images", "POST", { ...multipart, cookie }, body)).toBe(400);
      expect(await send("/api/quizzes", "POST", { "content-type": FORM["content-type"], "content-length": "3" }, "a=1")).toBe(415);
      expect(await send("/healthz", "GET")).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it("refuses a chunked body without a Content-Length past the cap", async () => {
    const result = await attack(
      () =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const url = new URL("/create", server.url);
          const request = http.request(url, { method: "POST", headers: { ...FORM, "transfer-encoding": "chunked" } }, (response) => {
            let body = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => (body += chunk));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
          });
          request.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error)));
          const chunk = "a=" + "x".repeat(64 * 1024 - 3) + "&";
          let sent = 0;
          const write = () => {
            while (sent < 40) {
              sent++;
              if (!request.write(chunk)) return void request.once("drain", write);
            }
            request.end();
          };
          write();
        }),
    );
    expectRefusedQuickly(result, [411, 413]);
  });

  it("still takes the forms as browsers post them", async () => {
    const theme = await post("/theme", "theme=dark&redirectTo=%2F");
    expect(theme.status).toBe(302);
    const join = await post("/join", "gameCode=ABCDEF&nickname=Ann");
    expect(join.status).toBe(404);
    // A list with a hole, or a question whose fields are not text: the page comes back, not a 500.
    const holes = await post("/create", "intent=save&title=Quiz&questions%5B0%5D.answers%5B3%5D=x&questions%5B1%5D.kind.x=1");
    expect(holes.status).toBe(400);
  });
});

describe("bounded JSON bodies", () => {
  const JSON_HEADERS = { "content-type": "application/json" };

  it("refuses 100,000 nested arrays to a JSON endpoint", async () => {
    const body = "[".repeat(100_000) + "]".repeat(100_000);
    const result = await attack(() => post("/api/quizzes", body, JSON_HEADERS));
    expectRefusedQuickly(result, [400, 413]);
  });

  it("refuses JSON nested past the depth an endpoint reads, though it is small", async () => {
    const body = '{"title":' + "[".repeat(10_000) + "]".repeat(10_000) + "}";
    const result = await attack(() => post("/api/quizzes", body, JSON_HEADERS));
    expectRefusedQuickly(result, 400, "JSON_TOO_DEEP");
  });

  it("refuses a quiz file nested past what a quiz is, before JSON.parse and zod walk it", async () => {
    const body = '{"title":"Deep","questions":' + "[".repeat(50_000) + "]".repeat(50_000) + "}";
    const result = await attack(() => post("/api/quizzes/import", body, JSON_HEADERS));
    // Scanned before it is parsed, in the import's worker (docs/decisions/0041).
    expectRefusedQuickly(result, 413, "IMPORT_FILE_TOO_COMPLEX");
  });

  it("refuses a JSON body past 64 KiB however it is sent", async () => {
    const result = await attack(() => post("/api/games", JSON.stringify({ quizId: 1, padding: "x".repeat(70 * 1024) }), JSON_HEADERS));
    expectRefusedQuickly(result, 413, "BODY_TOO_LARGE");
  });
});
