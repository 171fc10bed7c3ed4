/**
 * The durability promise (issue 13, item 13): by default an acknowledged answer is on disk before
 * the player is told, so it survives a power cut, not only a crash of the process. SQLite in WAL
 * mode promises that with `synchronous=FULL`; `SQLITE_SYNCHRONOUS=normal` trades it for speed.
 */
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "#app/env/env.server";
import { startTestServer, type TestServer } from "./harness";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function pragmas(server: TestServer): Promise<{ synchronous: number; journal: string }> {
  const synchronous = await sql<{ synchronous: number }>`pragma synchronous`.execute(server.db);
  const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(server.db);
  return { synchronous: synchronous.rows[0].synchronous, journal: journal.rows[0].journal_mode };
}

describe("the database's durability", () => {
  it("is FULL by default: every group commit reaches the disk before its acknowledgement goes out", async () => {
    const server = await startTestServer();
    servers.push(server);
    // 2 is FULL, 1 is NORMAL (https://www.sqlite.org/pragma.html#pragma_synchronous).
    expect(await pragmas(server)).toEqual({ synchronous: 2, journal: "wal" });
  });

  it("is NORMAL when the operator chooses it with SQLITE_SYNCHRONOUS=normal", async () => {
    const server = await startTestServer({ sqliteSynchronous: parseEnv({ SQLITE_SYNCHRONOUS: "normal" }).SQLITE_SYNCHRONOUS });
    servers.push(server);
    expect(await pragmas(server)).toEqual({ synchronous: 1, journal: "wal" });
  });

  it("refuses any other value, naming the variable", () => {
    expect(() => parseEnv({ SQLITE_SYNCHRONOUS: "off" })).toThrow(/SQLITE_SYNCHRONOUS: must be full or normal/);
  });
});
