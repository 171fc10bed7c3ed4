import type { DB } from "#db/connection.server";
import { findGameByCode, getGameRounds, readEvening } from "#app/models/game.server";
import { clientIdOf } from "./client-id.server";
import { normalizeGameCode } from "./field-rules";

export interface GameScreenData {
  gameCode: string;
  title: string;
  status: string;
  /** Whether this browser (by its client id cookie) is the game's registered host. */
  isHost: boolean;
}

/** The game a screen is about; null for an unknown code (app/utils/api.server.ts answers it with a 404). */
export async function findGameScreen(db: DB, request: Request, rawCode: string | undefined): Promise<GameScreenData | null> {
  const gameCode = normalizeGameCode(rawCode ?? "");
  const game = await findGameByCode(db, gameCode);
  if (!game) return null;
  const clientId = clientIdOf(request);
  return { gameCode, title: await gameTitleOf(db, game), status: game.status, isHost: clientId !== null && clientId === game.host_client_id };
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
