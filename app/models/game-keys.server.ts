import { randomBytes, timingSafeEqual } from "node:crypto";
import { inTransaction, type DB } from "#db/connection.server";
import type { Requester } from "./quiz.server";
import { findLiveGame } from "./game.server";
import { isGameHost } from "./game-host.server";

/**
 * A capability key of a game (docs/decisions/0032-display-and-remote.md): 18 random bytes (144 bits),
 * base64url so it travels in a URL and a QR code as it is.
 */
export function newGameKey(): string {
  return randomBytes(18).toString("base64url");
}

export interface GameKeys {
  displayKey: string;
  remoteKey: string;
}

/**
 * The game's display and remote keys, drawn now for a game created before they existed. Two callers
 * at once draw twice, but only the first write lands (`where ... is null`) and both read it back.
 */
export async function ensureGameKeys(db: DB, gameId: number): Promise<GameKeys | null> {
  const read = () => db.selectFrom("games").select(["display_key", "remote_key"]).where("id", "=", gameId).executeTakeFirst();
  let row = await read();
  if (!row) return null;
  if (row.display_key === null || row.remote_key === null) {
    await db.updateTable("games").set({ display_key: newGameKey() }).where("id", "=", gameId).where("display_key", "is", null).execute();
    await db.updateTable("games").set({ remote_key: newGameKey() }).where("id", "=", gameId).where("remote_key", "is", null).execute();
    row = await read();
    if (!row) return null;
  }
  return { displayKey: row.display_key!, remoteKey: row.remote_key! };
}

export type RenewGameKeysResult = { status: "ok"; value: GameKeys & { gameId: number } } | { status: "not-found" } | { status: "not-host" };

/**
 * "New links": the live game's display and remote keys drawn again, for its host's browser only,
 * so a link that leaked (a photographed QR code) stops working. The caller tells the game's room,
 * which closes the displays and remotes that came in with the old keys (docs/decisions/0032).
 */
export async function renewGameKeys(db: DB, gameCode: string, requester: Requester): Promise<RenewGameKeysResult> {
  return inTransaction(db, async (trx) => {
    const game = await findLiveGame(trx, gameCode);
    if (!game) return { status: "not-found" };
    if (!isGameHost(game, requester)) return { status: "not-host" };
    const keys = { displayKey: newGameKey(), remoteKey: newGameKey() };
    await trx.updateTable("games").set({ display_key: keys.displayKey, remote_key: keys.remoteKey }).where("id", "=", game.id).execute();
    return { status: "ok", value: { gameId: game.id, ...keys } };
  });
}

/**
 * Whether `given` is the game's key, compared in constant time so the time a refusal takes says
 * nothing about how much of a guess was right. A missing key on either side never matches.
 */
export function gameKeyMatches(expected: string | null | undefined, given: string | null | undefined): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  // Lengths differ only for a wrong key; comparing the expected key with itself keeps the time the same.
  return timingSafeEqual(a, a.length === b.length ? b : a) && a.length === b.length;
}
