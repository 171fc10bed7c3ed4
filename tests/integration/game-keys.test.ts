/**
 * `renewGameKeys` (the host's "New links", docs/decisions/0032-display-and-remote.md) against a real
 * SQLite file: new keys for the host's browser only, for a live game only, and for that game only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import { createGame } from "#app/models/game.server";
import { ensureGameKeys, gameKeyMatches, renewGameKeys } from "#app/models/game-keys.server";
import { createQuiz } from "#app/models/quiz.server";
import { openTempDatabase, type TempDatabase } from "./temp-database";

let database: TempDatabase;
let db: DB;

beforeAll(async () => {
  database = await openTempDatabase("keys");
  db = database.db;
});

afterAll(() => database.remove());

/** A browser signed out: its client id and the host secret the server set there (docs/decisions/0044-shared-browsers.md). */
const browser = (clientId: string) => ({ clientId, hostSecret: `secret-of-${clientId}` });

async function hostedGame(hostClientId: string) {
  const quiz = await createQuiz(db, { title: "Keys", description: "", timeLimit: 20, isPublic: false }, { clientId: hostClientId });
  const game = await createGame(db, {
    quizId: quiz.id,
    hostId: null,
    creatorClientId: hostClientId,
    hostClientId,
    hostSecret: browser(hostClientId).hostSecret,
  });
  return { ...game, keys: (await ensureGameKeys(db, game.id))! };
}

describe("renewGameKeys", () => {
  it("draws both keys again for the game's host browser, and returns them as stored", async () => {
    const game = await hostedGame("host-a");
    const result = await renewGameKeys(db, game.gameCode, browser("host-a"));
    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    const { gameId, displayKey, remoteKey } = result.value;
    expect(gameId).toBe(game.id);
    expect(displayKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(remoteKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(displayKey).not.toBe(remoteKey);
    expect(displayKey).not.toBe(game.keys.displayKey);
    expect(remoteKey).not.toBe(game.keys.remoteKey);
    expect(await ensureGameKeys(db, game.id)).toEqual({ displayKey, remoteKey });
    expect(gameKeyMatches(displayKey, game.keys.displayKey)).toBe(false);

    // Again: new keys each time.
    const again = await renewGameKeys(db, game.gameCode, browser("host-a"));
    expect(again.status === "ok" && again.value.displayKey).not.toBe(displayKey);
  });

  it("refuses any other browser, or none, and changes nothing", async () => {
    const game = await hostedGame("host-b");
    expect(await renewGameKeys(db, game.gameCode, browser("host-a"))).toEqual({ status: "not-host" });
    expect(await renewGameKeys(db, game.gameCode, {})).toEqual({ status: "not-host" });
    // The host's client id without its browser's secret (a shared computer's next user signed in or out since).
    expect(await renewGameKeys(db, game.gameCode, { clientId: "host-b" })).toEqual({ status: "not-host" });
    expect(await renewGameKeys(db, game.gameCode, { clientId: "host-b", hostSecret: "another" })).toEqual({ status: "not-host" });
    expect(await ensureGameKeys(db, game.id)).toEqual(game.keys);
  });

  it("touches only its own game, and finds no live game for an unknown code or a finished one", async () => {
    const mine = await hostedGame("host-c");
    const other = await hostedGame("host-c");
    expect((await renewGameKeys(db, mine.gameCode, browser("host-c"))).status).toBe("ok");
    expect(await ensureGameKeys(db, other.id)).toEqual(other.keys);

    expect(await renewGameKeys(db, "ZZZZZZ", browser("host-c"))).toEqual({ status: "not-found" });
    await db.updateTable("games").set({ status: "finished" }).where("id", "=", other.id).execute();
    expect(await renewGameKeys(db, other.gameCode, browser("host-c"))).toEqual({ status: "not-found" });
    expect(await ensureGameKeys(db, other.id)).toEqual(other.keys);
  });
});
