import { timingSafeEqual } from "node:crypto";
import { inTransaction, type DB } from "#db/connection.server";
import { lockedForUpdate } from "#db/dialect";
import type { GameRow } from "#db/schema";
import { hashHostSecret } from "#app/sessions/host-secret.server";
import type { Requester } from "./quiz.server";

/** What decides who is a game's host: its host browser, its account, its browser's secret. */
export type GameHostFields = Pick<GameRow, "host_client_id" | "host_id" | "host_secret_hash">;

/**
 * Whether the requester is the game's host (docs/decisions/0044-shared-browsers.md): the browser at
 * its host seat (client id), and besides that, for a game made signed in, that account signed in
 * there now; for a game made signed out, the secret the server set in that browser when the game
 * was made, which signing in or out there clears. The client id alone is never enough.
 */
export function isGameHost(game: GameHostFields, requester: Requester): boolean {
  if (!requester.clientId || game.host_client_id !== requester.clientId) return false;
  if (game.host_id !== null) return requester.userId === game.host_id;
  return game.host_secret_hash !== null && !!requester.hostSecret && hashesEqual(game.host_secret_hash, hashHostSecret(requester.hostSecret));
}

/** Whether the requester made the game: its account, or the browser whose secret it keeps (for register-host). */
function madeGame(game: GameHostFields & Pick<GameRow, "creator_client_id">, requester: Requester & { clientId: string }): boolean {
  if (game.host_id !== null) return requester.userId === game.host_id;
  return (
    game.creator_client_id !== null &&
    requester.clientId === game.creator_client_id &&
    game.host_secret_hash !== null &&
    !!requester.hostSecret &&
    hashesEqual(game.host_secret_hash, hashHostSecret(requester.hostSecret))
  );
}

function hashesEqual(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export type RegisterHostResult = "registered" | "not-found" | "taken" | "not-creator";

/**
 * Binds a browser's client id as the game's host. Only the game's creator may: the account that
 * created it, signed in; for a game created signed out, the browser that created it, by its client
 * id and the host secret the server set there (docs/decisions/0044-shared-browsers.md). The first
 * registration keeps the seat; the host registering again is told it is registered.
 */
export async function registerHost(db: DB, gameCode: string, clientId: string, requester: Requester): Promise<RegisterHostResult> {
  return inTransaction(db, async (trx) => {
    // Locked until the seat is taken or refused: another server's registration waits and then sees it taken.
    const game = await lockedForUpdate(
      trx,
      trx
        .selectFrom("games")
        .select(["id", "host_client_id", "creator_client_id", "host_id", "host_secret_hash"])
        .where("game_code", "=", gameCode)
        .where("status", "!=", "finished"),
    ).executeTakeFirst();
    if (!game) return "not-found";
    if (game.host_client_id !== null) return isGameHost(game, { ...requester, clientId }) ? "registered" : "taken";
    // The browser being registered is the one asking, or one the creator names (a script's).
    const creator = requester.clientId ?? clientId;
    if (!madeGame(game, { ...requester, clientId: creator }) && !madeGame(game, { ...requester, clientId })) return "not-creator";
    await trx.updateTable("games").set({ host_client_id: clientId }).where("id", "=", game.id).execute();
    return "registered";
  });
}

/** The codes of the live games this browser is the host of (the Join page's Start Game goes to their lobbies). */
export async function liveGamesHostedBy(db: DB, requester: Requester & { clientId: string }): Promise<Set<string>> {
  const rows = await db
    .selectFrom("games")
    .select(["game_code", "host_client_id", "host_id", "host_secret_hash"])
    .where("host_client_id", "=", requester.clientId)
    .where("status", "!=", "finished")
    .execute();
  return new Set(rows.filter((row) => isGameHost(row, requester)).map((row) => row.game_code));
}

/** Whether the requester is the game's host now (`isGameHost`), read afresh: for a socket asking for the host seat. */
export async function isGameHostById(db: DB, gameId: number, requester: Requester): Promise<boolean> {
  const row = await db.selectFrom("games").select(["host_client_id", "host_id", "host_secret_hash"]).where("id", "=", gameId).executeTakeFirst();
  return row !== undefined && isGameHost(row, requester);
}
