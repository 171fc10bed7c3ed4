import QRCode from "qrcode";
import type { DB } from "#db/connection.server";
import { ensureGameKeys, gameKeyMatches } from "#app/models/game-keys.server";
import { findGameByCode } from "#app/models/game.server";
import { normalizeGameCode } from "#app/schemas/field-rules";
import { gameTitleOf } from "./game-screen.server";

/** The host's links to the game's display and remote, with their QR codes (docs/decisions/0032-display-and-remote.md). */
export interface GameLinks {
  displayUrl: string;
  displayQrSvg: string;
  remoteUrl: string;
  remoteQrSvg: string;
}

/** Drawn on the server, as the lobby's join code is: no external QR service, and no QR library in the browser. */
function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
}

/** For the host's screens only: whoever has these links can watch, or run, the game. */
export async function gameLinks(db: DB, request: Request, gameCode: string): Promise<GameLinks | null> {
  const game = await findGameByCode(db, gameCode);
  const keys = game ? await ensureGameKeys(db, game.id) : null;
  if (!keys) return null;
  const origin = new URL(request.url).origin;
  const displayUrl = `${origin}/display/${gameCode}?key=${encodeURIComponent(keys.displayKey)}`;
  const remoteUrl = `${origin}/remote/${gameCode}?key=${encodeURIComponent(keys.remoteKey)}`;
  const [displayQrSvg, remoteQrSvg] = await Promise.all([qrSvg(displayUrl), qrSvg(remoteUrl)]);
  return { displayUrl, displayQrSvg, remoteUrl, remoteQrSvg };
}

export type KeyedScreen = { ok: true; gameCode: string; key: string; title: string; status: string } | { ok: false; gameCode: string };

/**
 * The game a display or remote link opens, if its key is the game's: an unknown code and a wrong key
 * look the same, so a guess learns nothing about which games exist.
 */
export async function loadKeyedScreen(db: DB, request: Request, rawCode: string | undefined, which: "display" | "remote"): Promise<KeyedScreen> {
  const gameCode = normalizeGameCode(rawCode ?? "");
  const key = new URL(request.url).searchParams.get("key");
  const game = await findGameByCode(db, gameCode);
  const keys = game ? await ensureGameKeys(db, game.id) : null;
  if (!game || !keys || !gameKeyMatches(which === "display" ? keys.displayKey : keys.remoteKey, key)) return { ok: false, gameCode };
  return { ok: true, gameCode, key: key!, title: await gameTitleOf(db, game), status: game.status };
}

/** A page whose address holds a key: never kept by a cache, the browser's or the service worker's. */
export const KEYED_PAGE_HEADERS = { "Cache-Control": "private, no-store" };
