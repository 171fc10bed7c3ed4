/**
 * The limits a server runs with (server/server-limits.ts): with an OpenAI key and no AI_DAILY_LIMIT, the whole
 * server is capped per UTC day (issue 26, hole 12); AI_DAILY_LIMIT=0 turns the cap off on purpose.
 */
import { describe, expect, it } from "vitest";
import { parseEnv } from "#app/env/env.server";
import { DEFAULT_AI_DAILY_LIMIT, DEFAULT_LIMITS, serverLimitsOf } from "../../server/server-limits";

describe("serverLimitsOf", () => {
  it("caps AI generations per day by default whenever an OpenAI key is set", () => {
    expect(DEFAULT_AI_DAILY_LIMIT).toBeGreaterThan(0);
    expect(serverLimitsOf({ ai: { apiKey: "sk-test", model: "m", timeoutMs: 1000 } }).aiQuizzesPerDay).toBe(DEFAULT_AI_DAILY_LIMIT);
    const fromEnv = parseEnv({ OPENAI_API_KEY: "sk-test" });
    expect(
      serverLimitsOf({ ai: { apiKey: fromEnv.OPENAI_API_KEY, model: "m", timeoutMs: 1000 }, limits: { aiQuizzesPerDay: fromEnv.AI_DAILY_LIMIT } })
        .aiQuizzesPerDay,
    ).toBe(DEFAULT_AI_DAILY_LIMIT);
  });

  it("takes AI_DAILY_LIMIT as set, 0 turning the cap off explicitly", () => {
    const ai = { apiKey: "sk-test", model: "m", timeoutMs: 1000 };
    expect(serverLimitsOf({ ai, limits: { aiQuizzesPerDay: parseEnv({ AI_DAILY_LIMIT: "0" }).AI_DAILY_LIMIT } }).aiQuizzesPerDay).toBe(0);
    expect(serverLimitsOf({ ai, limits: { aiQuizzesPerDay: 25 } }).aiQuizzesPerDay).toBe(25);
  });

  it("leaves a server without a key (or with only a local model's base URL, which costs nothing) uncapped", () => {
    expect(serverLimitsOf({}).aiQuizzesPerDay).toBe(0);
    expect(serverLimitsOf({ ai: { baseURL: "http://127.0.0.1:11434/v1", model: "m", timeoutMs: 1000 } }).aiQuizzesPerDay).toBe(0);
  });

  it("has a default for every new limit of issue 26", () => {
    const limits = serverLimitsOf({});
    expect(limits).toMatchObject({
      socketsPerIp: DEFAULT_LIMITS.socketsPerIp,
      codeLookupFailuresPerIp: 100,
      teamsLookupsPerIpPerMinute: 300,
      imageBytesPerIpPerDay: 200 * 1024 * 1024,
      imageBytesPerDay: 2000 * 1024 * 1024,
      minFreeDiskBytes: 500 * 1024 * 1024,
    });
    expect(parseEnv({}).IPV6_PREFIX_LENGTH).toBe(64);
    expect(() => parseEnv({ IPV6_PREFIX_LENGTH: "8" })).toThrow(/IPV6_PREFIX_LENGTH/);
  });
});
