/**
 * Which address a request comes from, behind a reverse proxy (issue 13, item 9): TRUST_PROXY takes a
 * hop count or the proxies' addresses, as Express's `trust proxy` does, so a client can no longer
 * pick a fresh address (and a fresh rate-limit bucket) by writing X-Forwarded-For; the socket
 * upgrade finds the address exactly as HTTP does.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "#app/env/env.server";
import { JOIN_LIMIT_MESSAGES } from "#server/socket/join-limits";
import { TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function serverTrusting(trustProxy: string, limits = {}): Promise<TestServer> {
  const server = await startTestServer({ trustProxy: parseEnv({ TRUST_PROXY: trustProxy }).TRUST_PROXY, limits });
  servers.push(server);
  return server;
}

/** Failed logins for one account, each claiming a different client address at the left of X-Forwarded-For. */
async function loginsClaiming(server: TestServer, chain: (attempt: number) => string, attempts: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const response = await fetch(`${server.url}/auth`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": chain(attempt) },
      body: new URLSearchParams({ intent: "login", email: "victim@example.com", password: `guess-${attempt}` }),
      redirect: "manual",
    });
    statuses.push(response.status);
  }
  return statuses;
}

describe("TRUST_PROXY", () => {
  it.each([
    ["false", false],
    ["true", 1],
    ["2", 2],
    ["127.0.0.1, 10.0.0.0/8", ["127.0.0.1", "10.0.0.0/8"]],
    ["loopback,uniquelocal", ["loopback", "uniquelocal"]],
  ])("reads %j as %j", (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it("refuses a value that is neither a hop count nor addresses, naming the variable", () => {
    expect(() => parseEnv({ TRUST_PROXY: "the proxy" })).toThrow(/TRUST_PROXY: must be false, a number of proxy hops, or proxy addresses/);
  });

  it("=true trusts the one proxy in front, not the addresses a client writes before it", async () => {
    const server = await serverTrusting("true");
    // Each attempt claims a new address; the proxy (this test) appends the same real one.
    const statuses = await loginsClaiming(server, (attempt) => `10.9.${attempt}.1, 203.0.113.5`, 12);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("by addresses: hops from a trusted proxy are skipped, the first untrusted one is the client", async () => {
    const server = await serverTrusting("127.0.0.1,10.0.0.0/8");
    const statuses = await loginsClaiming(server, (attempt) => `172.16.${attempt}.9, 203.0.113.6, 10.1.2.3`, 11);
    expect(statuses.at(-1)).toBe(429);
    // A different real client behind the same proxies has a bucket of its own.
    expect(await loginsClaiming(server, () => "203.0.113.99, 10.1.2.3", 1)).toEqual([401]);
  });

  it("off (the default): X-Forwarded-For is ignored and the socket's peer is the client", async () => {
    const server = await serverTrusting("false");
    const statuses = await loginsClaiming(server, (attempt) => `198.51.100.${attempt}`, 11);
    expect(statuses.at(-1)).toBe(429);
  });

  it("the socket upgrade finds the same address as HTTP: a written X-Forwarded-For buys no fresh join allowance", async () => {
    const server = await serverTrusting("1", { joinsPerIpPerGamePerMinute: 3 });
    const { gameCode } = await createGameFixture(server);
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const client = await TestClient.connect(server, undefined, { "x-forwarded-for": `10.20.${i}.1, 203.0.113.7` });
      client.send("JOIN_GAME", { gameCode, nickname: `P${i}` });
      const reply = await Promise.race([client.next("PLAYER_JOINED").then(() => "joined"), client.next("ERROR").then((error) => error.message)]);
      outcomes.push(reply);
      await client.close();
    }
    expect(outcomes).toEqual(["joined", "joined", "joined", JOIN_LIMIT_MESSAGES.ipGame]);

    // Another client behind the same proxy is another address.
    const neighbour = await TestClient.connect(server, undefined, { "x-forwarded-for": "203.0.113.8" });
    expect(await neighbour.joinAsPlayer(gameCode, "Neighbour")).toBeGreaterThan(0);
    await neighbour.close();
  });
});
