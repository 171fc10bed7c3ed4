import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import proxyaddr from "proxy-addr";
import { describe, expect, it } from "vitest";
import { loadDotEnvFile, parseEnv, resolveSessionSecret } from "#app/env/env.server";

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    expect(parseEnv({})).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      DATABASE_PATH: "./data/quiz.sqlite",
      SEED_DEMO: true,
      ALLOWED_ORIGINS: [],
      RESULTS_DELAY_MS: 3000,
      NEXT_QUESTION_SECONDS: 5,
      LOBBY_GRACE_SECONDS: 60,
      REPORT_RETENTION_DAYS: 365,
    });
  });

  it.each([
    ["SEED_DEMO", "off", false],
    ["SEED_DEMO", "1", true],
    ["PORT", "8080", 8080],
    ["REPORT_RETENTION_DAYS", "30", 30],
    ["ALLOWED_ORIGINS", "https://a.example, https://b.example", ["https://a.example", "https://b.example"]],
  ])("reads %s=%s", (name, value, expected) => {
    expect(parseEnv({ [name]: value })[name as keyof ReturnType<typeof parseEnv>]).toEqual(expected);
  });

  it.each([
    ["PORT", "abc", "PORT: must be a port number"],
    ["SEED_DEMO", "maybe", "SEED_DEMO: must be one of true/false, 1/0, yes/no, on/off"],
    ["SESSION_SECRET", "short", "SESSION_SECRET: must be at least 32 characters"],
    ["ALLOWED_ORIGINS", "not a url", "ALLOWED_ORIGINS"],
    ["REPORT_RETENTION_DAYS", "0", "REPORT_RETENTION_DAYS"],
    ["REPORT_RETENTION_DAYS", "a year", "REPORT_RETENTION_DAYS: must be a number of days"],
  ])("refuses %s=%s with a message naming it", (name, value, message) => {
    expect(() => parseEnv({ [name]: value })).toThrow(message);
  });
});

describe("TRUST_PROXY", () => {
  it.each([
    ["false", false],
    ["0", false],
    ["off", false],
    ["true", 1],
    ["1", 1],
    ["2", 2],
    ["loopback", ["loopback"]],
    ["Loopback", ["loopback"]],
    ["127.0.0.1", ["127.0.0.1"]],
    ["10.0.0.0/8,127.0.0.1", ["10.0.0.0/8", "127.0.0.1"]],
    [" 10.0.0.0/8 , ::1 ", ["10.0.0.0/8", "::1"]],
    ["loopback, uniquelocal, 192.168.0.0/16", ["loopback", "uniquelocal", "192.168.0.0/16"]],
  ])("reads %j as %j", (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  // What Express makes of the value (app.set("trust proxy", ...) compiles it with proxy-addr):
  // which address a request from the proxy at `peer`, carrying `forwarded`, comes from.
  const clientOf = (value: string, peer: string, forwarded: string) => {
    const setting = parseEnv({ TRUST_PROXY: value }).TRUST_PROXY;
    const trust = typeof setting === "number" ? (_: string, hop: number) => hop < setting : setting === false ? () => false : proxyaddr.compile(setting);
    const request = { headers: { "x-forwarded-for": forwarded }, connection: { remoteAddress: peer }, socket: { remoteAddress: peer } };
    return proxyaddr(request as never, trust);
  };

  it.each([
    // [TRUST_PROXY, proxy's address, X-Forwarded-For, the client]
    ["1", "127.0.0.1", "6.6.6.6, 203.0.113.5", "203.0.113.5"],
    ["loopback", "127.0.0.1", "6.6.6.6, 203.0.113.5", "203.0.113.5"],
    ["loopback", "10.1.2.3", "203.0.113.5", "10.1.2.3"],
    ["10.0.0.0/8,127.0.0.1", "127.0.0.1", "6.6.6.6, 203.0.113.5, 10.1.2.3", "203.0.113.5"],
    ["false", "127.0.0.1", "203.0.113.5", "127.0.0.1"],
  ])("TRUST_PROXY=%s: from %s with X-Forwarded-For %j, the client is %s", (value, peer, forwarded, client) => {
    expect(clientOf(value, peer, forwarded)).toBe(client);
  });

  it("refuses a value that is neither a hop count nor addresses, naming the variable", () => {
    expect(() => parseEnv({ TRUST_PROXY: "the proxy" })).toThrow(/TRUST_PROXY: must be false, a number of proxy hops, or proxy addresses/);
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.0/33" })).toThrow(/TRUST_PROXY/);
  });
});

describe("resolveSessionSecret", () => {
  it("generates a secret once, keeps it beside the database, and says so", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-secret-"));
    const logs: string[] = [];
    const databasePath = path.join(dir, "db", "quiz.sqlite");
    const first = resolveSessionSecret(undefined, databasePath, (message) => logs.push(message));
    const second = resolveSessionSecret(undefined, databasePath, (message) => logs.push(message));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toBe(first);
    expect(logs).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, "db", "session-secret"), "utf8")).toBe(first);
    expect(resolveSessionSecret("x".repeat(40), databasePath, () => {})).toBe("x".repeat(40));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("loadDotEnvFile", () => {
  it("fills in what the environment leaves unset from a .env file, the environment winning; no file, nothing", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-env-"));
    const file = path.join(dir, ".env");
    fs.writeFileSync(file, "QUIZ_NIGHT_TEST_FROM_FILE=file\nQUIZ_NIGHT_TEST_BOTH=file\n");
    process.env.QUIZ_NIGHT_TEST_BOTH = "environment";
    try {
      expect(loadDotEnvFile(path.join(dir, "missing.env"))).toBe(false);
      expect(loadDotEnvFile(file)).toBe(true);
      expect(process.env.QUIZ_NIGHT_TEST_FROM_FILE).toBe("file");
      expect(process.env.QUIZ_NIGHT_TEST_BOTH).toBe("environment");
    } finally {
      delete process.env.QUIZ_NIGHT_TEST_FROM_FILE;
      delete process.env.QUIZ_NIGHT_TEST_BOTH;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("METRICS_TOKEN", () => {
  it("is off when unset or empty, and refused when short enough to guess", () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: "" }).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: "a-long-enough-scrape-token" }).METRICS_TOKEN).toBe("a-long-enough-scrape-token");
    expect(() => parseEnv({ METRICS_TOKEN: "short" })).toThrow("METRICS_TOKEN: must be at least 16 characters");
  });
});

describe("DATABASE_URL", () => {
  const secret = "s".repeat(32);

  it("takes a PostgreSQL URL, with the pool's size defaulting to 10", () => {
    expect(parseEnv({ DATABASE_URL: "postgres://quiz:pw@db.example:5432/quiz", SESSION_SECRET: secret })).toMatchObject({
      DATABASE_URL: "postgres://quiz:pw@db.example:5432/quiz",
      DATABASE_POOL_SIZE: 10,
    });
    expect(parseEnv({ DATABASE_URL: "postgresql://db.example/quiz", SESSION_SECRET: secret, DATABASE_POOL_SIZE: "25" }).DATABASE_POOL_SIZE).toBe(25);
  });

  it("refuses anything but a PostgreSQL URL, and a pool of fewer than two connections", () => {
    expect(() => parseEnv({ DATABASE_URL: "./data/quiz.sqlite", SESSION_SECRET: secret })).toThrow("DATABASE_URL: must be a PostgreSQL URL");
    expect(() => parseEnv({ DATABASE_URL: "mysql://db.example/quiz", SESSION_SECRET: secret })).toThrow("DATABASE_URL: must be a PostgreSQL URL");
    expect(() => parseEnv({ DATABASE_POOL_SIZE: "1" })).toThrow("DATABASE_POOL_SIZE: must be 2 or more");
  });

  it("needs SESSION_SECRET for the server, and says so; the command-line tools go without", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://db.example/quiz" })).toThrow("SESSION_SECRET: must be set when DATABASE_URL is");
    expect(parseEnv({ DATABASE_URL: "postgres://db.example/quiz" }, "tool").DATABASE_URL).toBe("postgres://db.example/quiz");
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
  });
});
