import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "#db/connection.server";
import { jsonArrayAgg } from "#db/dialect";
import type { Database, GameRow, GameStatus } from "#db/schema";
import type { StoredEvening } from "#app/game/engine/restore";
import { shownScore } from "#app/game/engine/teams";
import { readEvening } from "./game-play.server";
import { hashHostSecret } from "#app/sessions/host-secret.server";
import type { Requester } from "./quiz.server";

/**
 * Only the host's games: the account's when signed in, else this browser's games hosted without an
 * account, by its client id and the host secret they keep (cleared when someone signs in or out
 * there: docs/decisions/0044-shared-browsers.md); null for a caller with neither.
 */
function ownedBy(requester: Requester): ((eb: ExpressionBuilder<Database, "games">) => Expression<SqlBool>) | null {
  const { userId, clientId, hostSecret } = requester;
  if (userId != null) return (eb) => eb("games.host_id", "=", userId);
  if (clientId && hostSecret) {
    const secretHash = hashHostSecret(hostSecret);
    return (eb) => eb.and([eb("games.host_id", "is", null), eb("games.creator_client_id", "=", clientId), eb("games.host_secret_hash", "=", secretHash)]);
  }
  return null;
}

export interface HostedGame {
  id: number;
  gameCode: string;
  /** The quiz's title; a night's own title. */
  title: string;
  status: GameStatus;
  /** When it started (ms); when it was opened for a lobby that has not started yet. */
  playedAt: number;
  players: number;
  /** The top score's nicknames (several on a tie); empty before anyone scored. */
  winners: string[];
  /** A night's rounds' titles, in order (docs/decisions/0034-a-night-of-rounds.md); empty for a single game. */
  rounds: string[];
  /** A team game's top team (several on a tie); empty without teams or before any team scored. */
  winningTeams: string[];
}

export const HOSTED_GAMES_PAGE_SIZE = 50;

/** The names of the teams with the top shown score, when any scored. */
function winningTeamsOf(evening: StoredEvening | null): string[] {
  if (!evening?.teamMode || evening.teams.length === 0) return [];
  const best = Math.max(...evening.teams.map((team) => shownScore(team.score)));
  if (best <= 0) return [];
  return evening.teams
    .filter((team) => shownScore(team.score) === best)
    .map((team) => team.name)
    .sort((a, b) => a.localeCompare(b));
}

/** The requester's games, newest first, a page at a time; `hasMore` when older ones follow. */
export async function listHostedGames(db: DB, requester: Requester, page = 1): Promise<{ games: HostedGame[]; hasMore: boolean }> {
  const owner = ownedBy(requester);
  if (!owner) return { games: [], hasMore: false };
  const rows = await db
    .selectFrom("games")
    .where(owner)
    // A game worth looking back on started, or is a lobby still open; a lobby closed unplayed is not.
    .where((eb) => eb.or([eb("games.started_at", "is not", null), eb("games.status", "!=", "finished")]))
    .innerJoin("quizzes", "quizzes.id", "games.quiz_id")
    .select([
      "games.id",
      "games.game_code",
      "games.status",
      "games.created_at",
      "games.started_at",
      "games.evening",
      "quizzes.title",
      sql<number>`(select count(*) from players where players.game_id = games.id)`.as("players"),
      // A game's players with its top score, in one correlated look-up on the players' primary key.
      sql<string | null>`(
        select ${jsonArrayAgg(db, sql.ref("nickname"))} from players
        where players.game_id = games.id and players.score > 0
          and players.score = (select max(score) from players as best where best.game_id = games.id)
      )`.as("winners"),
      // A night's rounds, in order, on the rounds' primary key; null for a single game.
      sql<string | null>`(
        select ${jsonArrayAgg(db, sql.ref("title"), sql.ref("position"))} from game_rounds where game_rounds.game_id = games.id
      )`.as("rounds"),
    ])
    .orderBy("games.created_at", "desc")
    .orderBy("games.id", "desc")
    .limit(HOSTED_GAMES_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * HOSTED_GAMES_PAGE_SIZE)
    .execute();
  const games = rows.slice(0, HOSTED_GAMES_PAGE_SIZE).map((row): HostedGame => {
    const evening = readEvening(row.evening);
    // A night chains two rounds or more; a "night" of one plays as a single game (the engine's isNight).
    const rounds = row.rounds ? (JSON.parse(row.rounds) as string[]) : [];
    const night = rounds.length > 1;
    return {
      id: row.id,
      gameCode: row.game_code,
      title: night && evening?.title ? evening.title : row.title,
      status: row.status,
      playedAt: row.started_at ?? row.created_at,
      players: Number(row.players),
      winners: row.winners ? (JSON.parse(row.winners) as string[]).sort((a, b) => a.localeCompare(b)) : [],
      rounds: night ? rounds : [],
      winningTeams: winningTeamsOf(evening),
    };
  });
  return { games, hasMore: rows.length > HOSTED_GAMES_PAGE_SIZE };
}

/** The game with this id if the requester hosted it. */
export async function findOwnGame(db: DB, gameId: number, requester: Requester): Promise<GameRow | undefined> {
  const owner = ownedBy(requester);
  if (!owner) return undefined;
  return db.selectFrom("games").selectAll().where("games.id", "=", gameId).where(owner).executeTakeFirst();
}
