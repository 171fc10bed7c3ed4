/**
 * Limits that mean what they say (issue 26, holes 6 to 8), played as a stranger with curl-shaped
 * HTTP and raw WebSocket clients against the real server: an IPv6 client counts by its /64 and an
 * IPv4-mapped address as its IPv4 address; pictures need a session and fit in budgets per address,
 * per server and above a free-disk floor (game commits never check it); open sockets per address
 * are capped; sweeping for game codes is refused past a limit; the teams endpoint is throttled and
 * never loads a room (docs/decisions/0042-limits-that-mean-what-they-say.md).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "#app/env/env.server";
import { QUIZ_FILE_FORMAT } from "#app/quiz-files/quiz-file";
import { JOIN_LIMIT_MESSAGES } from "#server/socket/join-limits";
import type { ServerLimits } from "../../server/server-limits";
import { TestClient, createGameFixture, signInAs, startTestServer, type TestServer } from "./harness";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

/** Behind one trusted proxy (this test), so X-Forwarded-For names the client. */
async function serverBehindProxy(limits: Partial<ServerLimits> = {}): Promise<TestServer> {
  const server = await startTestServer({ trustProxy: parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY, limits });
  servers.push(server);
  return server;
}

async function guestFrom(server: TestServer, address: string): Promise<number> {
  const response = await fetch(`${server.url}/auth`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
    body: new URLSearchParams({ intent: "guest" }),
    redirect: "manual",
  });
  await response.text();
  return response.status;
}

async function pictureBlob(shade = 0): Promise<Blob> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: 90, b: 200 } } })
    .png()
    .toBuffer();
  return new Blob([new Uint8Array(png)], { type: "image/png" });
}

async function upload(server: TestServer, address: string, headers: Record<string, string> = {}, shade = 0) {
  const form = new FormData();
  form.set("image", await pictureBlob(shade), "picture.png");
  const response = await fetch(`${server.url}/api/images`, { method: "POST", body: form, headers: { "x-forwarded-for": address, ...headers } });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, any> };
}

/** A socket joining `gameCode` from `address`: "joined", or the ERROR's message. */
async function joinFrom(server: TestServer, address: string, gameCode: string, nickname: string): Promise<string> {
  const client = await TestClient.connect(server, undefined, { "x-forwarded-for": address });
  client.send("JOIN_GAME", { gameCode, nickname });
  const reply = await Promise.race([client.next("PLAYER_JOINED").then(() => "joined"), client.next("ERROR").then((error) => error.message)]);
  await client.close();
  return reply;
}

/**
 * The attacker in a process of its own, as it would be on its own machine: `urls` fetched 20 at a
 * time in parallel (the attack shape); their statuses, and the worst delay of this process's event loop (the server's) while they
 * ran, in milliseconds. Measured from the attacker's start: starting a process is the test's cost.
 */
async function sweepFromAnotherProcess(urls: string[], headers: Record<string, string>): Promise<{ statuses: number[]; worstDelayMs: number }> {
  const script = `
    const { urls, headers } = JSON.parse(process.argv[1]);
    await new Promise((resolve) => process.stdin.once("data", resolve));
    const statuses = [];
    for (let start = 0; start < urls.length; start += 20) {
      const wave = urls.slice(start, start + 20).map((url) => fetch(url, { headers }).then(async (response) => (await response.arrayBuffer(), response.status)));
      statuses.push(...(await Promise.all(wave)));
    }
    process.stdout.write(JSON.stringify(statuses));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, JSON.stringify({ urls, headers })], { stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  child.stdin.end("go\n");
  await once(child, "exit");
  delay.disable();
  return { statuses: JSON.parse(output) as number[], worstDelayMs: delay.max / 1e6 };
}

/** A code in the game-code alphabet that no game has (the fixture's codes are random; `Z` and `9` make these unlikely to clash). */
const unknownCode = (i: number) => `ZZ9${"ABCDEFGHJKLMNPQRSTUVWXYZ23456789"[i % 32]}${"ABCDEFGH"[Math.floor(i / 32) % 8]}9`;

describe("IPv6 counted per /64 (IPV6_PREFIX_LENGTH)", () => {
  it("many addresses within one /64 share one bucket of the HTTP limits; another /64 has its own", async () => {
    const server = await serverBehindProxy({ guestsPerIpPerHour: 3 });
    const statuses = [];
    for (let i = 1; i <= 4; i++) statuses.push(await guestFrom(server, `2001:db8:1:2::${i.toString(16)}${i}`));
    expect(statuses).toEqual([302, 302, 302, 429]);
    expect(await guestFrom(server, "2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe(429);
    expect(await guestFrom(server, "2001:db8:1:3::1")).toBe(302);
  });

  it("an IPv4-mapped IPv6 address counts as its IPv4 address", async () => {
    const server = await serverBehindProxy({ guestsPerIpPerHour: 2 });
    expect(await guestFrom(server, "::ffff:198.51.100.9")).toBe(302);
    expect(await guestFrom(server, "198.51.100.9")).toBe(302);
    expect(await guestFrom(server, "::ffff:c633:6409")).toBe(429);
  });

  it("the prefix is configurable: at /48 two /64s of one site share a bucket", async () => {
    const server = await startTestServer({ trustProxy: 1, ipv6PrefixLength: 48, limits: { guestsPerIpPerHour: 1 } });
    servers.push(server);
    expect(await guestFrom(server, "2001:db8:7:1::1")).toBe(302);
    expect(await guestFrom(server, "2001:db8:7:2::1")).toBe(429);
  });

  it("the socket's join limits count a /64 as one address", async () => {
    const server = await serverBehindProxy({ joinsPerIpPerMinute: 2 });
    const { gameCode } = await createGameFixture(server);
    const outcomes = [];
    for (let i = 1; i <= 3; i++) outcomes.push(await joinFrom(server, `2001:db8:5:6::${i}`, gameCode, `P${i}`));
    expect(outcomes).toEqual(["joined", "joined", JOIN_LIMIT_MESSAGES.ip]);
    expect(await joinFrom(server, "::ffff:203.0.113.50", gameCode, "Four")).toBe("joined");
  });
});

describe("open sockets per address (SOCKETS_PER_IP)", () => {
  it("refuses the socket past the cap with 429, counting a /64 as one address; a closed socket frees its place", async () => {
    const server = await serverBehindProxy({ socketsPerIp: 3 });
    const open = [];
    for (let i = 1; i <= 3; i++) open.push(await TestClient.connect(server, undefined, { "x-forwarded-for": `2001:db8:9:9::${i}` }));
    await expect(TestClient.connect(server, undefined, { "x-forwarded-for": "2001:db8:9:9::99" })).rejects.toThrow(/429/);
    // Another address is not held to this one's sockets.
    const neighbour = await TestClient.connect(server, undefined, { "x-forwarded-for": "203.0.113.9" });
    await neighbour.close();
    await open.pop()!.close();
    await expect
      .poll(async () => (await TestClient.connect(server, undefined, { "x-forwarded-for": "2001:db8:9:9::7" })).close().then(() => "open"), { timeout: 2000 })
      .toBe("open");
    await Promise.all(open.map((client) => client.close()));
  });
});

describe("failed game-code lookups per address (CODE_LOOKUP_FAILURES_PER_IP)", () => {
  it("sweeping unknown codes over the socket, the join form, the pages and the API is refused past the limit, for real codes too; the loop stays responsive", async () => {
    const server = await serverBehindProxy({ codeLookupFailuresPerIp: 8 });
    const { gameCode } = await createGameFixture(server);
    const sweeper = "203.0.113.66";
    const socket = await TestClient.connect(server, undefined, { "x-forwarded-for": sweeper });
    for (let i = 0; i < 3; i++) {
      socket.send("JOIN_GAME", { gameCode: unknownCode(i), nickname: "Sweep" });
      expect((await socket.next("ERROR")).code).toBe("GAME_NOT_FOUND");
    }
    const headers = { "x-forwarded-for": sweeper };
    const joinForm = await fetch(`${server.url}/join`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ gameCode: unknownCode(3), nickname: "Sweep" }),
    });
    expect(joinForm.status).toBe(404);
    expect((await fetch(`${server.url}/play/${unknownCode(4)}`, { headers })).status).toBe(404);
    expect((await fetch(`${server.url}/api/games/${unknownCode(5)}/results`, { headers })).status).toBe(404);
    expect(await (await fetch(`${server.url}/api/games/${unknownCode(6)}/teams`, { headers })).json()).toBeNull();
    socket.send("WATCH_GAME", { gameCode: unknownCode(7), key: "x".repeat(32) });
    expect((await socket.next("ERROR")).code).toBe("GAME_NOT_FOUND");

    // Eight failures: every lookup from this address is refused now, a real code's included (a sweep learns nothing).
    socket.send("JOIN_GAME", { gameCode, nickname: "Sweep" });
    const refused = await socket.next("ERROR");
    expect(refused.code).toBe("CODE_LOOKUPS_LIMITED");
    expect(refused.message).toMatch(/^Too many game codes that do not exist were tried from your network\. Please try again in \d+ minutes?\.$/);
    for (const path of [
      `/play/${gameCode}`,
      `/waiting/${gameCode}`,
      `/results/${gameCode}`,
      `/api/games/${gameCode}/teams`,
      `/api/games/${gameCode}/results`,
    ]) {
      const response = await fetch(server.url + path, { headers });
      expect(response.status, path).toBe(429);
      expect(Number(response.headers.get("retry-after")), path).toBeGreaterThan(0);
      await response.text();
    }
    const apiRefusal = await (await fetch(`${server.url}/api/games/${gameCode}/results`, { headers })).json();
    expect(apiRefusal).toMatchObject({ code: "CODE_LOOKUPS_LIMITED", values: { wait: expect.stringMatching(/minute/) } });
    const joinRefused = await fetch(`${server.url}/join`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ gameCode, nickname: "Sweep" }),
    });
    expect(joinRefused.status).toBe(429);
    await joinRefused.text();

    // A sweep in parallel is refused too, and costs the loop nothing a game would notice.
    const sweep = await sweepFromAnotherProcess(
      Array.from({ length: 200 }, (_, i) => `${server.url}/play/${unknownCode(i + 8)}`),
      headers,
    );
    expect(new Set(sweep.statuses)).toEqual(new Set([429]));
    expect(sweep.worstDelayMs).toBeLessThan(100);
    await socket.close();

    // Another address still finds the game.
    expect(await joinFrom(server, "203.0.113.67", gameCode, "Ann")).toBe("joined");
  });
});

describe("GET /api/games/:code/teams", () => {
  it("answers from the database without loading the game's room, and nothing for an unknown code", async () => {
    const server = await serverBehindProxy();
    const { gameCode } = await createGameFixture(server);
    expect(server.hub.roomCount).toBe(0);
    const teams = await fetch(`${server.url}/api/games/${gameCode}/teams`, { headers: { "x-forwarded-for": "203.0.113.20" } });
    expect(teams.status).toBe(200);
    expect(await teams.json()).toBeNull();
    expect(server.hub.roomCount).toBe(0);
  });

  it("is throttled per address (TEAMS_LIMIT_PER_IP)", async () => {
    const server = await serverBehindProxy({ teamsLookupsPerIpPerMinute: 3 });
    const { gameCode } = await createGameFixture(server);
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await fetch(`${server.url}/api/games/${gameCode}/teams`, { headers: { "x-forwarded-for": "2001:db8:3::1" } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await fetch(`${server.url}/api/games/${gameCode}/teams`, { headers: { "x-forwarded-for": "203.0.113.21" } })).status).toBe(200);
    expect(server.hub.roomCount).toBe(0);
  });
});

describe("pictures", () => {
  it("need a session: without one, or with only a client id any caller invents, an upload is refused with 401", async () => {
    const server = await serverBehindProxy();
    const bare = await upload(server, "203.0.113.30");
    expect(bare.status).toBe(401);
    expect(bare.body).toMatchObject({ error: "Sign in or continue as a guest to upload pictures.", code: "PICTURES_NEED_SESSION" });
    const invented = await upload(server, "203.0.113.30", { "x-client-id": "made-up-client-id-123" });
    expect(invented.status).toBe(401);
    const guest = await signInAs(server, "guest");
    expect((await upload(server, "203.0.113.30", { cookie: guest.cookie })).status).toBe(201);
  });

  it("a signed-out editor continues as a guest (POST /api/auth/guest, within the guest limit), then uploads", async () => {
    const server = await serverBehindProxy({ guestsPerIpPerHour: 1 });
    const started = await fetch(`${server.url}/api/auth/guest`, { method: "POST", headers: { "x-forwarded-for": "203.0.113.31" } });
    expect(started.status).toBe(201);
    const cookie = started.headers.get("set-cookie")!.split(";")[0];
    expect(await started.json()).toMatchObject({ isGuest: true });
    expect((await upload(server, "203.0.113.31", { cookie })).status).toBe(201);
    // Signed in already: nothing changes.
    expect((await fetch(`${server.url}/api/auth/guest`, { method: "POST", headers: { "x-forwarded-for": "203.0.113.31", cookie } })).status).toBe(200);
    // A fresh guest per upload is held to the guest limit of the address.
    const another = await fetch(`${server.url}/api/auth/guest`, { method: "POST", headers: { "x-forwarded-for": "203.0.113.31" } });
    expect(another.status).toBe(429);
    expect((await another.json()).code).toBe("LIMIT_GUESTS");
  });

  it("in an imported quiz file need a session too, and count against the address's budget", async () => {
    const server = await serverBehindProxy({ imageBytesPerIpPerDay: 1 });
    const picture = Buffer.from(await (await pictureBlob(9)).arrayBuffer()).toString("base64");
    const file = JSON.stringify({
      format: QUIZ_FILE_FORMAT,
      version: 1,
      title: "Picture round",
      questions: [{ kind: "poll", text: "Which?", answers: ["A", "B"], image: { mediaType: "image/png", data: picture } }],
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/quizzes/import`, {
        method: "POST",
        body: file,
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.70", ...headers },
      });
    const anonymous = await post({ "x-client-id": "made-up-client-id-456" });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).code).toBe("PICTURES_NEED_SESSION");
    const guest = await signInAs(server, "guest");
    expect((await post({ cookie: guest.cookie })).status).toBe(201);
    const over = await post({ cookie: guest.cookie });
    expect(over.status).toBe(429);
    expect((await over.json()).code).toBe("LIMIT_PICTURE_BYTES_ADDRESS");
  });

  it("fit in a daily budget per address, shared by a /64 and by every session there", async () => {
    const server = await serverBehindProxy({ imageBytesPerIpPerDay: 1 });
    const first = await signInAs(server, "guest");
    const second = await signInAs(server, "user");
    expect((await upload(server, "2001:db8:40::1", { cookie: first.cookie }, 1)).status).toBe(201);
    const refused = await upload(server, "2001:db8:40::2", { cookie: second.cookie }, 2);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("LIMIT_PICTURE_BYTES_ADDRESS");
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await upload(server, "203.0.113.41", { cookie: second.cookie }, 3)).status).toBe(201);
  });

  it("fit in a daily budget for the whole server", async () => {
    const server = await serverBehindProxy({ imageBytesPerDay: 1 });
    const guest = await signInAs(server, "guest");
    expect((await upload(server, "203.0.113.50", { cookie: guest.cookie }, 4)).status).toBe(201);
    const refused = await upload(server, "203.0.113.51", { cookie: guest.cookie }, 5);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("LIMIT_PICTURE_BYTES_SERVER");
  });

  it("are refused below the free-disk floor (MIN_FREE_DISK_MB) while a game still commits its answers", async () => {
    const server = await serverBehindProxy({ minFreeDiskBytes: Number.MAX_SAFE_INTEGER });
    const guest = await signInAs(server, "guest");
    const refused = await upload(server, "203.0.113.60", { cookie: guest.cookie });
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ code: "DISK_LOW" });

    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await TestClient.connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const player = await TestClient.connect(server);
    const playerId = await player.joinAsPlayer(gameCode, "Ann");
    host.send("START_GAME", { gameCode });
    await player.next("QUESTION_STARTED");
    player.send("SUBMIT_ANSWER", { gameCode, playerId, answerIndex: 1, time: 1 });
    await player.next("ANSWER_ACCEPTED");
    await expect.poll(async () => (await server.db.selectFrom("answers").select("player_id").execute()).length, { timeout: 3000 }).toBeGreaterThan(0);
    await Promise.all([host.close(), player.close()]);
  });
});
