import type { AppLoadContext } from "@remix-run/node";
import type { DB } from "#db/connection.server";
import { findGameByCode } from "#app/models/game.server";
import { getGameRounds } from "#app/models/game-night.server";
import { isGameHost } from "#app/models/game-host.server";
import { readEvening } from "#app/models/game-play.server";
import { clientIdOf } from "#app/sessions/client-id.server";
import { normalizeGameCode } from "#app/schemas/field-rules";
import { hostSecretOf } from "#app/sessions/host-secret.server";
import { getUser } from "#app/sessions/session.server";

export interface GameScreenData {
  gameCode: string;
  title: string;
  status: string;
  /** Whether this browser is the game's host (`isGameHost`: its client id, and its account or host secret). */
  isHost: boolean;
}

export type ScreenContext = Pick<AppLoadContext, "db" | "sessionSecret">;

/** Whether the request comes from the game's host (docs/decisions/0044-shared-browsers.md); the session is read only when it decides. */
export async function isHostRequest(context: ScreenContext, request: Request, game: Parameters<typeof isGameHost>[0]): Promise<boolean> {
  const clientId = clientIdOf(request);
  if (clientId === null || clientId !== game.host_client_id) return false;
  const userId = game.host_id === null ? null : ((await getUser(context, request))?.id ?? null);
  return isGameHost(game, { clientId, userId, hostSecret: hostSecretOf(request.headers.get("cookie")) });
}

/** The game a screen is about; null for an unknown code (app/http/api.server.ts answers it with a 404). */
export async function findGameScreen(context: ScreenContext, request: Request, rawCode: string | undefined): Promise<GameScreenData | null> {
  const gameCode = normalizeGameCode(rawCode ?? "");
  const game = await findGameByCode(context.db, gameCode);
  if (!game) return null;
  return { gameCode, title: await gameTitleOf(context.db, game), status: game.status, isHost: await isHostRequest(context, request, game) };
}

/** What a game's screens call it: a night's own title (docs/decisions/0034-a-night-of-rounds.md), else its quiz's. */
export async function gameTitleOf(db: DB, game: { id: number; quiz_id: number; evening: string | null }): Promise<string> {
  const [quiz, rounds] = await Promise.all([
    db.selectFrom("quizzes").select("title").where("id", "=", game.quiz_id).executeTakeFirstOrThrow(),
    game.evening ? getGameRounds(db, game.id) : [],
  ]);
  const night = rounds.length > 1 ? readEvening(game.evening)?.title : undefined;
  return night || quiz.title;
}
