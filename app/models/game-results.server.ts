import type { DB } from "#db/connection.server";
import type { GameRow, GameStatus } from "#db/schema";
import { readEvening } from "./game-play.server";

export interface Standing {
  rank: number;
  id: number;
  nickname: string;
  score: number;
  correctCount: number;
  answeredCount: number;
  /** A team game only: the player's team (null for one without). */
  team?: string | null;
}

export interface GameResults {
  gameCode: string;
  status: GameStatus;
  title: string;
  totalQuestions: number;
  /** Played in teams: each standing names its player's team. */
  teamMode: boolean;
  players: Standing[];
}

export async function getGameResults(db: DB, game: GameRow): Promise<GameResults> {
  const [quiz, questionCount, rounds] = await Promise.all([
    db.selectFrom("quizzes").select("title").where("id", "=", game.quiz_id).executeTakeFirstOrThrow(),
    db
      .selectFrom("game_questions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("game_id", "=", game.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("game_rounds")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("game_id", "=", game.id)
      .executeTakeFirstOrThrow(),
  ]);
  // A night's score is the evening's, so its answers are all its rounds'; a single game's are Play Again's current round's.
  const night = Number(rounds.n) > 1;
  const players = await db
    .selectFrom("players")
    .select(["id", "nickname", "score", "correct_count", "team_id"])
    .select((eb) =>
      eb
        .selectFrom("answers")
        .whereRef("answers.game_id", "=", "players.game_id")
        .whereRef("answers.player_id", "=", "players.id")
        .$if(!night, (query) => query.where("answers.round", "=", game.round))
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .as("answered_count"),
    )
    .where("game_id", "=", game.id)
    .orderBy("score", "desc")
    .orderBy("nickname")
    .orderBy("id")
    .execute();
  const evening = readEvening(game.evening);
  const teamNames = evening?.teamMode && evening.teams.length > 0 ? new Map(evening.teams.map((team) => [team.id, team.name])) : null;
  let previous: Standing | undefined;
  const standings = players.map((player, index) => {
    const rank = previous && previous.score === player.score ? previous.rank : index + 1;
    previous = {
      rank,
      id: player.id,
      nickname: player.nickname,
      score: player.score,
      correctCount: player.correct_count,
      answeredCount: Number(player.answered_count ?? 0),
      ...(teamNames ? { team: (player.team_id !== null ? teamNames.get(player.team_id) : undefined) ?? null } : {}),
    };
    return previous;
  });
  return {
    gameCode: game.game_code,
    status: game.status,
    title: night && evening?.title ? evening.title : quiz.title,
    totalQuestions: Number(questionCount.n),
    teamMode: teamNames !== null,
    players: standings,
  };
}
