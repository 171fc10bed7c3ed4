import type { DB } from "#db/connection.server";
import type { GameRow } from "#db/schema";
import type { AnswerRecord, AnswerValue } from "#app/game/engine/state";
import type { StoredEvening, StoredPause, StoredPlayer } from "#app/game/engine/restore";
import type { RoundPlan } from "#app/game/engine/state";
import { toQuestion, type Question } from "./quiz.server";
import { findLiveGame } from "./game.server";
import { ensureGameKeys } from "./game-keys.server";
import { getGameRounds } from "./game-night.server";
import { chunks } from "./game-batch.server";

export interface LoadedGame {
  game: GameRow;
  /** The quiz's title; a night's own title. */
  title: string;
  timeLimit: number;
  /** The questions of the first round (of the game, for a single game). */
  questions: Question[];
  /** A night: the first round's title and the rounds after it (docs/decisions/0034-a-night-of-rounds.md). */
  firstRoundTitle?: string;
  laterRounds: RoundPlan[];
  /** Team mode, teams, a night's finished rounds; null for a game that has none of them yet. */
  evening: StoredEvening | null;
  players: StoredPlayer[];
  answers: AnswerRecord[];
  /** Browsers the host removed from this game. */
  kickedClientIds: string[];
  /** The open question's pauses, the last one still on if the host had it paused. */
  questionPauses: StoredPause[];
}

/** The stored pauses of the open question; anything unreadable counts as none. */
export function readQuestionPauses(stored: string): StoredPause[] {
  try {
    const value: unknown = JSON.parse(stored);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (pause): pause is StoredPause =>
        Array.isArray(pause) && pause.length === 2 && Number.isFinite(pause[0]) && (pause[1] === null || Number.isFinite(pause[1])),
    );
  } catch {
    return [];
  }
}

/** The stored evening of a game; anything unreadable counts as none. */
export function readEvening(stored: string | null): StoredEvening | null {
  if (!stored) return null;
  try {
    const value = JSON.parse(stored) as StoredEvening;
    if (typeof value !== "object" || value === null || !Array.isArray(value.teams) || !Array.isArray(value.roundResults)) return null;
    return value;
  } catch {
    return null;
  }
}

/** Everything needed to run (or resume, after a restart) a live game. */
export async function loadGameForPlay(db: DB, gameCode: string): Promise<LoadedGame | undefined> {
  const found = await findLiveGame(db, gameCode);
  if (!found) return undefined;
  // A game created before the display and remote keys gets them as its room opens.
  const keys = await ensureGameKeys(db, found.id);
  const game = keys ? { ...found, display_key: keys.displayKey, remote_key: keys.remoteKey } : found;
  const [quiz, questions, rounds, players, answers, kicks] = await Promise.all([
    db.selectFrom("quizzes").select(["title", "time_limit"]).where("id", "=", game.quiz_id).executeTakeFirstOrThrow(),
    getGameQuestionsByRound(db, game.id),
    getGameRounds(db, game.id),
    db
      .selectFrom("players")
      .select(["id", "nickname", "client_id", "joined_at", "team_id", "team_points"])
      .where("game_id", "=", game.id)
      .orderBy("joined_at")
      .orderBy("id")
      .execute(),
    db.selectFrom("answers").selectAll().where("game_id", "=", game.id).where("round", "=", game.round).execute(),
    db.selectFrom("game_kicks").select("client_id").where("game_id", "=", game.id).execute(),
  ]);
  const evening = readEvening(game.evening);
  const night = rounds.length > 1;
  // A night's total carries the rounds before the current one (a single game's Play Again starts from 0).
  const earlier = night
    ? await db
        .selectFrom("answers")
        .select(["player_id", (eb) => eb.fn.sum<number>("points").as("points"), (eb) => eb.fn.sum<number>("correct").as("correct")])
        .where("game_id", "=", game.id)
        .where("round", "<", game.round)
        .groupBy("player_id")
        .execute()
    : [];
  const earlierByPlayer = new Map(earlier.map((row) => [row.player_id, { points: Number(row.points), correct: Number(row.correct) }]));
  return {
    game,
    title: night ? (evening?.title ?? quiz.title) : quiz.title,
    timeLimit: night ? rounds[0].timeLimit : (game.time_limit ?? quiz.time_limit),
    questions: questions.get(0) ?? [],
    ...(night
      ? {
          firstRoundTitle: rounds[0].title,
          laterRounds: rounds.slice(1).map((round) => ({
            title: round.title,
            timeLimitMs: round.timeLimit * 1000,
            questions: questions.get(round.position) ?? [],
          })),
        }
      : { laterRounds: [] }),
    evening,
    players: players.map((row) => ({
      id: row.id,
      nickname: row.nickname,
      clientId: row.client_id,
      joinedAt: row.joined_at,
      teamId: row.team_id,
      teamPoints: row.team_points,
      earlierRoundsScore: earlierByPlayer.get(row.id)?.points ?? 0,
      earlierRoundsCorrect: earlierByPlayer.get(row.id)?.correct ?? 0,
    })),
    answers: answers.map((row) => ({
      playerId: row.player_id,
      questionId: row.question_id,
      questionIndex: row.question_index,
      answerIndex: row.answer_index,
      value: row.answer_value === null ? null : (JSON.parse(row.answer_value) as AnswerValue),
      responseTimeMs: row.response_ms,
      correct: row.correct === 1,
      points: row.points,
      answeredAt: row.answered_at,
    })),
    kickedClientIds: kicks.map((row) => row.client_id),
    questionPauses: readQuestionPauses(game.question_pauses),
  };
}

/** Closes games that are still waiting (idle lobbies): their codes no longer find them. */
export async function expireWaitingGames(db: DB, gameIds: number[], now = Date.now()): Promise<void> {
  for (const ids of chunks(gameIds)) {
    await db.updateTable("games").set({ status: "finished", ended_at: now }).where("id", "in", ids).where("status", "=", "waiting").execute();
  }
}

/** Closes waiting games created before `createdBefore` that are not open in memory; returns how many. */
export async function expireUnopenedGames(db: DB, createdBefore: number, open: Set<number>, now = Date.now()): Promise<number> {
  const candidates = await db.selectFrom("games").select("id").where("status", "=", "waiting").where("created_at", "<", createdBefore).execute();
  const stale = candidates.map((row) => row.id).filter((id) => !open.has(id));
  await expireWaitingGames(db, stale, now);
  return stale.length;
}

/** A game's questions per round of a night (all in round 0 for a single game), each in its order. */
export async function getGameQuestionsByRound(db: DB, gameId: number): Promise<Map<number, Question[]>> {
  const rows = await db
    .selectFrom("game_questions")
    .innerJoin("questions", "questions.id", "game_questions.question_id")
    .selectAll("questions")
    .select("game_questions.round as game_round")
    .where("game_questions.game_id", "=", gameId)
    .orderBy("game_questions.position")
    .execute();
  const byRound = new Map<number, Question[]>();
  for (const row of rows) {
    let list = byRound.get(row.game_round);
    if (!list) byRound.set(row.game_round, (list = []));
    list.push(toQuestion(row));
  }
  return byRound;
}

/** The questions a game plays, in its order, whatever has become of its quiz since. */
export async function getGameQuestions(db: DB, gameId: number): Promise<Question[]> {
  const rows = await db
    .selectFrom("game_questions")
    .innerJoin("questions", "questions.id", "game_questions.question_id")
    .selectAll("questions")
    .where("game_questions.game_id", "=", gameId)
    .orderBy("game_questions.position")
    .execute();
  return rows.map(toQuestion);
}
