import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { inTransaction, type DB } from "#db/connection.server";
import type { Database, GameRow, GameStatus } from "#db/schema";
import { kindOf } from "#app/game/kinds";
import { normalizeTypedAnswer, type PointsOption, type QuestionKind } from "#app/game/question-kinds";
import { LEADERBOARD_SIZE } from "#app/game/rules";
import type { StoredEvening } from "#app/game/engine/restore";
import { rankedBy, shownScore } from "#app/game/engine/teams";
import { getGameQuestionsByRound, readEvening, type NightRound } from "./game.server";
import { hashHostSecret } from "#app/utils/host-secret.server";
import type { Question, Requester } from "./quiz.server";

/**
 * A host's games and each game's report (issue 17, docs/decisions/0031-game-reports.md): computed
 * from what a game already stores for crash safety (its question list, players and answers), in a
 * fixed number of queries whatever the number of players. A game is its host's alone: the account
 * that hosted it, or, for a game hosted without an account, the browser that created it. Anyone
 * else finds nothing, so a route answers 404 and never tells that the game exists.
 */

export type ReportResult<T> = { status: "ok"; value: T } | { status: "not-found" };

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
        select json_group_array(nickname) from players
        where players.game_id = games.id and players.score > 0
          and players.score = (select max(score) from players as best where best.game_id = games.id)
      )`.as("winners"),
      // A night's rounds, in order, on the rounds' primary key; null for a single game.
      sql<string | null>`(
        select json_group_array(title order by position) from game_rounds where game_rounds.game_id = games.id
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

// ---------------------------------------------------------------------------------- the report

/** What a player answered, as the question's kind reads it. */
export type ReportAnswerValue = { type: "options"; picks: number[] } | { type: "text"; text: string } | { type: "number"; value: number };

export interface ReportAnswer {
  /** The round of a night it was given in; a single game's round (Play Again) otherwise. */
  round: number;
  /** The question's index within its round. */
  questionIndex: number;
  value: ReportAnswerValue;
  correct: boolean;
  responseMs: number;
  points: number;
}

export interface OptionTally {
  text: string;
  count: number;
  correct: boolean;
}

export interface TypedTally {
  /** The first spelling given of answers that read the same. */
  text: string;
  count: number;
  correct: boolean;
}

export interface GuessTally {
  value: number;
  count: number;
  /** Points it earned (closer guesses earn more). */
  points: number;
}

export interface QuestionFigures {
  /** Its place in the report's list of questions: a night lists every round's, one round after another. */
  index: number;
  /** The round of a night it belongs to; 0 for a single game. */
  round: number;
  /** Its number within its round (1-based); `index + 1` for a single game. */
  number: number;
  kind: QuestionKind;
  text: string;
  points: PointsOption;
  /** Options of choice, true/false, multi-select and poll questions. */
  options: string[];
  /** The right answer as a reader sees it: options' texts, accepted answers or the true value; empty for a poll. */
  correctAnswer: string;
  answered: number;
  /** Players whose answer was right; null for a poll, which has no right answer. */
  correct: number | null;
  /** `correct` over every player of the game (no answer counts as not right); null for a poll. */
  correctRate: number | null;
  averageResponseMs: number | null;
  /** Picks per option (a multi-select answer counts for each option picked). */
  optionCounts: OptionTally[] | null;
  /** Typed answers grouped as the game matched them (case, accents, punctuation ignored), most given first. */
  typedAnswers: TypedTally[] | null;
  /** Closest-number guesses, nearest the true value first. */
  guesses: GuessTally[] | null;
}

/** A player's line: the unit a team aggregates (its figures are the same sums over its members). */
export interface PlayerFigures {
  id: number;
  rank: number;
  nickname: string;
  score: number;
  correct: number;
  answered: number;
  averageResponseMs: number | null;
  /** Its team in a team game; null without teams, or for a player who had none. */
  teamId: number | null;
  team: string | null;
  /** What it added to its team's score (docs/decisions/0033-team-scoring.md); null outside a team. */
  teamPoints: number | null;
  /** A night: its points in each round, in order; null for a single game. */
  roundScores: number[] | null;
}

export interface PlayerLine extends PlayerFigures {
  /** One per question of the report, in order (a night's every round); null where the player gave no answer. */
  answers: (ReportAnswer | null)[];
}

/** A team's figures on one question. */
export interface TeamQuestionFigures {
  /** Members who answered. */
  answered: number;
  /** Members whose answer was right; null for a poll. */
  correct: number | null;
  /** `correct` over the team's members (no answer counts as not right); null for a poll or a team without members. */
  correctRate: number | null;
  /** The members' average points (no answer counts 0); null for a team without members. */
  averagePoints: number | null;
  /** The average time of the members who answered, in ms; null when none did. */
  averageResponseMs: number | null;
}

export interface TeamMember {
  id: number;
  rank: number;
  nickname: string;
  score: number;
  /** What the member added to the team's score. */
  teamPoints: number;
}

/** A team's line: its players' figures summed, its score as the game counted it. */
export interface TeamLine {
  id: number;
  rank: number;
  name: string;
  /** Whole points, as the game shows them. */
  score: number;
  members: number;
  correct: number;
  answered: number;
  averageResponseMs: number | null;
  /** A night: its points in each round, in order; null for a single game. */
  roundScores: number[] | null;
  /** Its members by rank; at most TEAM_MEMBERS_SHOWN of them (the downloads carry every one). */
  memberList: TeamMember[];
  /** One per question of the report, in order. */
  questions: TeamQuestionFigures[];
}

export interface RoundStanding {
  rank: number;
  id: number;
  name: string;
  score: number;
}

/** A round of a night: where its questions are in the report's list, and its own standings. */
export interface RoundReport {
  index: number;
  title: string;
  /** Its questions are `questions.slice(firstQuestion, firstQuestion + questionCount)`. */
  firstQuestion: number;
  questionCount: number;
  /** Anyone answered in it, or the game closed it; a night ended early leaves later rounds unplayed. */
  played: boolean;
  /** Its top players by the round's own points (ranked among every player of the game). */
  players: RoundStanding[];
  /** Every team by the round's own points; null without teams. */
  teams: RoundStanding[] | null;
}

export interface GameReport {
  gameId: number;
  gameCode: string;
  /** The quiz's title; a night's own title. */
  title: string;
  status: GameStatus;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  /** Play Again makes rounds of a single game; the report shows one, the last played by default. A night has one (0). */
  round: number;
  rounds: number[];
  playerCount: number;
  questions: QuestionFigures[];
  /** Indexes of the questions with the lowest and the highest correct rate (polls and closest-number guesses left out); a night's across its rounds. */
  hardest: number | null;
  easiest: number | null;
  /** This page's players in rank order, each with every answer. */
  players: PlayerLine[];
  playerPage: number;
  playerPages: number;
  /** A night's rounds in order (docs/decisions/0034-a-night-of-rounds.md); null for a single game. */
  night: RoundReport[] | null;
  /** A night: the evening's top players, every round's points beside the total; null for a single game. */
  eveningStandings: PlayerFigures[] | null;
  /** A team game's teams by rank; null without teams. */
  teams: TeamLine[] | null;
}

export const REPORT_PLAYERS_PAGE_SIZE = 100;
/** Players listed in a night's standings and each round's, and members listed per team, on the page. */
export const STANDINGS_SHOWN = LEADERBOARD_SIZE;
export const TEAM_MEMBERS_SHOWN = 25;

interface AnswerRow {
  player_id: number;
  round: number;
  question_index: number;
  answer_index: number;
  answer_value: string | null;
  response_ms: number;
  correct: number;
  points: number;
}

function answerValueOf(row: Pick<AnswerRow, "answer_index" | "answer_value">): ReportAnswerValue {
  if (row.answer_index >= 0) return { type: "options", picks: [row.answer_index] };
  const value: unknown = row.answer_value === null ? null : JSON.parse(row.answer_value);
  if (Array.isArray(value)) return { type: "options", picks: value as number[] };
  if (typeof value === "number") return { type: "number", value };
  return { type: "text", text: typeof value === "string" ? value : "" };
}

function toReportAnswer(row: AnswerRow): ReportAnswer {
  return {
    round: row.round,
    questionIndex: row.question_index,
    value: answerValueOf(row),
    correct: row.correct === 1,
    responseMs: row.response_ms,
    points: row.points,
  };
}

/** The right answer in words, for the page and the files. */
export function correctAnswerText(question: Question): string {
  return kindOf(question.kind).correctAnswerText(question);
}

/** An answer in words (options' texts, the text typed, the number guessed), for the files. */
export function answerText(question: Pick<Question, "answers">, value: ReportAnswerValue): string {
  if (value.type === "options") return value.picks.map((pick) => question.answers[pick] ?? "").join("; ");
  if (value.type === "text") return value.text;
  return String(value.value);
}

/**
 * Which answers a report reads. A single game reads one round (Play Again makes more, each from
 * zero); a night reads every round, its questions listed one round after another.
 */
interface Scope {
  gameId: number;
  /** A single game's round shown; null for a night. */
  round: number | null;
  /** Where each round's questions begin in the report's list; [0] for a single game. */
  offsets: number[];
  questionCount: number;
}

/** A stored answer's place in the report's list of questions; null for one outside it. */
function slotOf(scope: Scope, round: number, questionIndex: number): number | null {
  const night = scope.round === null;
  const start = night ? scope.offsets[round] : 0;
  if (start === undefined || questionIndex < 0) return null;
  const end = night ? (scope.offsets[round + 1] ?? scope.questionCount) : scope.questionCount;
  return start + questionIndex < end ? start + questionIndex : null;
}

/** The rounds of a game that have answers, and the one to show. */
async function roundsOf(db: DB, game: GameRow, wanted: number | undefined): Promise<{ round: number; rounds: number[] }> {
  const rows = await db.selectFrom("answers").select("round").distinct().where("game_id", "=", game.id).orderBy("round").execute();
  const rounds = rows.map((row) => row.round);
  if (rounds.length === 0) return { round: game.round, rounds: [game.round] };
  const round = wanted !== undefined && rounds.includes(wanted) ? wanted : rounds[rounds.length - 1];
  return { round, rounds };
}

/** Competition ranking ("1, 2, 2, 4") by score, ties listed by name, as the game ranks. */
function ranked<T extends { score: number; rank: number }>(entries: T[], nameOf: (entry: T) => string, idOf: (entry: T) => number): T[] {
  entries.sort((a, b) => b.score - a.score || nameOf(a).localeCompare(nameOf(b)) || idOf(a) - idOf(b));
  entries.forEach((entry, index) => {
    const previous = entries[index - 1];
    entry.rank = previous && previous.score === entry.score ? previous.rank : index + 1;
  });
  return entries;
}

/**
 * Every player's totals for the scope, ranked as the game ranks them (competition ranking, ties by
 * nickname), each with its team; a night's with its points per round (one more grouped scan).
 */
async function standings(db: DB, scope: Scope, teamNames: Map<number, string> | null, roundCount: number): Promise<PlayerFigures[]> {
  const [rows, perRound] = await Promise.all([
    db
      .selectFrom("players")
      .leftJoin("answers", (join) => {
        const joined = join.onRef("answers.game_id", "=", "players.game_id").onRef("answers.player_id", "=", "players.id");
        return scope.round === null ? joined : joined.on("answers.round", "=", scope.round);
      })
      .select([
        "players.id",
        "players.nickname",
        "players.team_id",
        "players.team_points",
        sql<number>`coalesce(sum(answers.points), 0)`.as("score"),
        sql<number>`coalesce(sum(answers.correct), 0)`.as("correct"),
        sql<number>`count(answers.player_id)`.as("answered"),
        sql<number | null>`avg(answers.response_ms)`.as("average_ms"),
      ])
      .where("players.game_id", "=", scope.gameId)
      .groupBy("players.id")
      .execute(),
    scope.round === null
      ? db
          .selectFrom("answers")
          .select(["player_id", "round", sql<number>`sum(points)`.as("score")])
          .where("game_id", "=", scope.gameId)
          .groupBy(["player_id", "round"])
          .execute()
      : Promise.resolve([]),
  ]);
  const roundScores = new Map<number, number[]>();
  for (const row of perRound) {
    if (row.round < 0 || row.round >= roundCount) continue;
    let scores = roundScores.get(row.player_id);
    if (!scores) roundScores.set(row.player_id, (scores = new Array<number>(roundCount).fill(0)));
    scores[row.round] = Number(row.score);
  }
  const players = rows.map((row): PlayerFigures => {
    const team = teamNames && row.team_id !== null ? teamNames.get(row.team_id) : undefined;
    return {
      id: row.id,
      rank: 0,
      nickname: row.nickname,
      score: Number(row.score),
      correct: Number(row.correct),
      answered: Number(row.answered),
      averageResponseMs: row.average_ms === null ? null : Math.round(Number(row.average_ms)),
      teamId: team === undefined ? null : row.team_id,
      team: team ?? null,
      teamPoints: team === undefined ? null : Number(row.team_points),
      roundScores: scope.round === null ? (roundScores.get(row.id) ?? new Array<number>(roundCount).fill(0)) : null,
    };
  });
  return ranked(
    players,
    (player) => player.nickname,
    (player) => player.id,
  );
}

/** Each question's counts, in four grouped scans of the scope's answers. */
async function questionFigures(db: DB, scope: Scope, questions: ScopedQuestion[], playerCount: number): Promise<QuestionFigures[]> {
  const { gameId, round } = scope;
  const [totals, picks, multiPicks, values] = await Promise.all([
    db
      .selectFrom("answers")
      .select([
        "round",
        "question_index",
        sql<number>`count(*)`.as("answered"),
        sql<number>`sum(correct)`.as("correct"),
        sql<number>`avg(response_ms)`.as("average_ms"),
      ])
      .where("game_id", "=", gameId)
      .$if(round !== null, (query) => query.where("round", "=", round!))
      .groupBy(["round", "question_index"])
      .execute(),
    db
      .selectFrom("answers")
      .select(["round", "question_index", "answer_index", sql<number>`count(*)`.as("n")])
      .where("game_id", "=", gameId)
      .$if(round !== null, (query) => query.where("round", "=", round!))
      .where("answer_index", ">=", 0)
      .groupBy(["round", "question_index", "answer_index"])
      .execute(),
    // A multi-select answer's picks are a JSON array: each pick counts for its option.
    sql<{ round: number; question_index: number; pick: number; n: number }>`
      select answers.round, answers.question_index, picked.value as pick, count(*) as n
      from answers, json_each(answers.answer_value) as picked
      where answers.game_id = ${gameId} ${round === null ? sql`` : sql`and answers.round = ${round}`} and answers.answer_index = -1
        and json_type(answers.answer_value) = 'array'
      group by answers.round, answers.question_index, picked.value`.execute(db),
    // Typed answers and guesses: each different value once, with how often and how it scored.
    db
      .selectFrom("answers")
      .select([
        "round",
        "question_index",
        "answer_value",
        sql<number>`count(*)`.as("n"),
        sql<number>`max(correct)`.as("correct"),
        sql<number>`max(points)`.as("points"),
      ])
      .where("game_id", "=", gameId)
      .$if(round !== null, (query) => query.where("round", "=", round!))
      .where("answer_index", "=", -1)
      .where(sql<boolean>`json_type(answer_value) in ('text', 'integer', 'real')`)
      .groupBy(["round", "question_index", "answer_value"])
      .execute(),
  ]);
  /** Rows by the slot of the question they belong to. */
  function bySlot<T extends { round: number; question_index: number }>(rows: T[]): Map<number, T[]> {
    const grouped = new Map<number, T[]>();
    for (const row of rows) {
      const slot = slotOf(scope, row.round, row.question_index);
      if (slot === null) continue;
      const list = grouped.get(slot);
      if (list) list.push(row);
      else grouped.set(slot, [row]);
    }
    return grouped;
  }
  const totalsAt = bySlot(totals);
  const picksAt = bySlot(picks);
  const multiPicksAt = bySlot(multiPicks.rows);
  const valuesAt = bySlot(values);
  return questions.map(({ question, round: questionRound, number }, index): QuestionFigures => {
    const total = totalsAt.get(index)?.[0];
    const answered = Number(total?.answered ?? 0);
    const scored = kindOf(question.kind).scored;
    const correct = scored ? Number(total?.correct ?? 0) : null;
    const figures: QuestionFigures = {
      index,
      round: questionRound,
      number,
      kind: question.kind,
      text: question.text,
      points: question.points,
      options: question.answers,
      correctAnswer: correctAnswerText(question),
      answered,
      correct,
      correctRate: correct === null || playerCount === 0 ? null : correct / playerCount,
      averageResponseMs: total ? Math.round(Number(total.average_ms)) : null,
      optionCounts: null,
      typedAnswers: null,
      guesses: null,
    };
    const given = valuesAt.get(index) ?? [];
    if (question.answers.length > 0) {
      const counts = question.answers.map((text, option) => ({ text, count: 0, correct: scored && question.correctAnswerIndexes.includes(option) }));
      const rows =
        kindOf(question.kind).answer === "options"
          ? (multiPicksAt.get(index) ?? [])
          : (picksAt.get(index) ?? []).map((row) => ({ ...row, pick: row.answer_index }));
      for (const row of rows) if (counts[row.pick]) counts[row.pick].count += Number(row.n);
      figures.optionCounts = counts;
    } else if (kindOf(question.kind).answer === "text") {
      const groups = new Map<string, TypedTally>();
      for (const row of given) {
        if (row.answer_value === null) continue;
        const text = String(JSON.parse(row.answer_value));
        const key = normalizeTypedAnswer(text);
        const group = groups.get(key);
        if (group) {
          group.count += Number(row.n);
          group.correct ||= row.correct === 1;
        } else groups.set(key, { text, count: Number(row.n), correct: row.correct === 1 });
      }
      figures.typedAnswers = [...groups.values()].sort((a, b) => b.count - a.count || Number(b.correct) - Number(a.correct) || a.text.localeCompare(b.text));
    } else if (kindOf(question.kind).answer === "number") {
      const truth = question.correctNumber ?? 0;
      figures.guesses = given
        .filter((row) => row.answer_value !== null)
        .map((row) => ({ value: Number(JSON.parse(row.answer_value!)), count: Number(row.n), points: Number(row.points) }))
        .sort((a, b) => Math.abs(a.value - truth) - Math.abs(b.value - truth) || a.value - b.value);
    }
    return figures;
  });
}

/**
 * The hardest and easiest questions: lowest and highest correct rate, ties to the slower and the
 * faster average answer. Polls have no right answer and an exact closest-number guess is luck, so
 * both are left out; with fewer than two questions to compare there is neither.
 */
export function hardestAndEasiest(questions: QuestionFigures[]): { hardest: number | null; easiest: number | null } {
  const rated = questions.filter((question) => question.correctRate !== null && kindOf(question.kind).rated && question.answered > 0);
  if (rated.length < 2) return { hardest: null, easiest: null };
  const slow = (question: QuestionFigures) => question.averageResponseMs ?? 0;
  const byEase = [...rated].sort((a, b) => a.correctRate! - b.correctRate! || slow(b) - slow(a) || a.index - b.index);
  const hardest = byEase[0];
  const easiest = byEase[byEase.length - 1];
  if (hardest.correctRate === easiest.correctRate) return { hardest: null, easiest: null };
  return { hardest: hardest.index, easiest: easiest.index };
}

/** The answers of these players in the scope, one query, grouped by player. */
async function answersOf(db: DB, scope: Scope, playerIds: number[]): Promise<Map<number, AnswerRow[]>> {
  const byPlayer = new Map<number, AnswerRow[]>();
  if (playerIds.length === 0) return byPlayer;
  const rows = await db
    .selectFrom("answers")
    .select(["player_id", "round", "question_index", "answer_index", "answer_value", "response_ms", "correct", "points"])
    .where("game_id", "=", scope.gameId)
    .$if(scope.round !== null, (query) => query.where("round", "=", scope.round!))
    .where("player_id", "in", playerIds)
    .execute();
  for (const row of rows) {
    const list = byPlayer.get(row.player_id);
    if (list) list.push(row);
    else byPlayer.set(row.player_id, [row]);
  }
  return byPlayer;
}

function lineOf(scope: Scope, player: PlayerFigures, answers: AnswerRow[] | undefined): PlayerLine {
  const line: (ReportAnswer | null)[] = new Array<ReportAnswer | null>(scope.questionCount).fill(null);
  for (const row of answers ?? []) {
    const slot = slotOf(scope, row.round, row.question_index);
    if (slot !== null) line[slot] = toReportAnswer(row);
  }
  return { ...player, answers: line };
}

/**
 * The teams' lines (docs/decisions/0033-team-scoring.md): standings, members and per question the
 * members' average points, right share and average time, in one grouped scan of the members' answers. The score
 * is the one the game kept (the average of the points of the members who played each question:
 * those who answered or were connected at its close). The per-question average counts every
 * member, a member without an answer for 0, since who was connected is not stored; the scores
 * therefore differ from the sum of those averages only when a member was away for a question.
 * For an earlier round of Play Again, whose scores the game has not kept, score and contributions
 * are those averages' sums.
 */
async function teamLines(
  db: DB,
  scope: Scope,
  evening: StoredEvening,
  players: PlayerFigures[],
  questions: ScopedQuestion[],
  storedScores: boolean,
  roundCount: number | null,
): Promise<TeamLine[]> {
  const rows = await db
    .selectFrom("answers")
    .innerJoin("players", (join) => join.onRef("players.game_id", "=", "answers.game_id").onRef("players.id", "=", "answers.player_id"))
    .select([
      "players.team_id",
      "answers.round",
      "answers.question_index",
      sql<number>`count(*)`.as("answered"),
      sql<number>`sum(answers.correct)`.as("correct"),
      sql<number>`sum(answers.points)`.as("points"),
      sql<number>`sum(answers.response_ms)`.as("response_ms"),
    ])
    .where("answers.game_id", "=", scope.gameId)
    .$if(scope.round !== null, (query) => query.where("answers.round", "=", scope.round!))
    .where("players.team_id", "is not", null)
    .groupBy(["players.team_id", "answers.round", "answers.question_index"])
    .execute();
  const membersOf = new Map<number, PlayerFigures[]>();
  for (const player of players) {
    if (player.teamId === null) continue;
    const list = membersOf.get(player.teamId);
    if (list) list.push(player);
    else membersOf.set(player.teamId, [player]);
  }
  const lines = evening.teams.map((team): TeamLine & { exactScore: number } => {
    const members = membersOf.get(team.id) ?? [];
    const count = members.length;
    const perQuestion = questions.map(() => ({ answered: 0, correct: 0, points: 0, responseMs: 0 }));
    for (const row of rows) {
      if (row.team_id !== team.id) continue;
      const slot = slotOf(scope, row.round, row.question_index);
      if (slot === null) continue;
      const figures = perQuestion[slot];
      figures.answered += Number(row.answered);
      figures.correct += Number(row.correct);
      figures.points += Number(row.points);
      figures.responseMs += Number(row.response_ms);
    }
    const teamQuestions = perQuestion.map((figures, slot): TeamQuestionFigures => {
      const scored = kindOf(questions[slot].question.kind).scored;
      return {
        answered: figures.answered,
        correct: scored ? figures.correct : null,
        correctRate: scored && count > 0 ? figures.correct / count : null,
        averagePoints: count > 0 ? figures.points / count : null,
        averageResponseMs: figures.answered > 0 ? Math.round(figures.responseMs / figures.answered) : null,
      };
    });
    const averagedScore = teamQuestions.reduce((sum, figures) => sum + (figures.averagePoints ?? 0), 0);
    const answered = perQuestion.reduce((sum, figures) => sum + figures.answered, 0);
    const responseMs = perQuestion.reduce((sum, figures) => sum + figures.responseMs, 0);
    let roundScores: number[] | null = null;
    if (roundCount !== null) {
      roundScores = new Array<number>(roundCount).fill(0).map((_, round) => {
        const kept = evening.roundResults[round]?.teams.find((entry) => entry.id === team.id);
        if (kept) return kept.score;
        return shownScore(questions.reduce((sum, { round: at }, slot) => sum + (at === round ? (teamQuestions[slot].averagePoints ?? 0) : 0), 0));
      });
    }
    const exactScore = storedScores ? team.score : averagedScore;
    return {
      id: team.id,
      rank: 0,
      name: team.name,
      score: shownScore(exactScore),
      exactScore,
      members: count,
      correct: perQuestion.reduce((sum, figures, slot) => sum + (kindOf(questions[slot].question.kind).scored ? figures.correct : 0), 0),
      answered,
      averageResponseMs: answered > 0 ? Math.round(responseMs / answered) : null,
      roundScores,
      memberList: members.slice(0, TEAM_MEMBERS_SHOWN).map((member) => ({
        id: member.id,
        rank: member.rank,
        nickname: member.nickname,
        score: member.score,
        teamPoints: storedScores ? (member.teamPoints ?? 0) : count > 0 ? member.score / count : 0,
      })),
      questions: teamQuestions,
    };
  });
  if (!storedScores) {
    // The contributions of an earlier round of Play Again: each answer's points over the team's members.
    for (const player of players) {
      const line = lines.find((team) => team.id === player.teamId);
      if (line && line.members > 0) player.teamPoints = player.score / line.members;
    }
  }
  return rankedBy(lines, (team) => team.score).map(({ exactScore: _exact, ...line }) => line);
}

/** A night's rounds: each one's questions' place in the list, whether it was played, its own standings. */
function roundReports(
  rounds: NightRound[],
  offsets: number[],
  questions: QuestionFigures[],
  players: PlayerFigures[],
  teams: TeamLine[] | null,
  evening: StoredEvening | null,
): RoundReport[] {
  return rounds.map((round, index): RoundReport => {
    const firstQuestion = offsets[index];
    const questionCount = (offsets[index + 1] ?? questions.length) - firstQuestion;
    const answered = questions.slice(firstQuestion, firstQuestion + questionCount).some((question) => question.answered > 0);
    const byRound = ranked(
      players.map((player) => ({ rank: 0, id: player.id, name: player.nickname, score: player.roundScores?.[index] ?? 0 })),
      (entry) => entry.name,
      (entry) => entry.id,
    );
    const teamStandings = teams
      ? rankedBy(
          teams.map((team) => ({ rank: 0, id: team.id, name: team.name, score: team.roundScores?.[index] ?? 0 })),
          (entry) => entry.score,
        )
      : null;
    return {
      index,
      title: round.title,
      firstQuestion,
      questionCount,
      played: answered || evening?.roundResults[index] !== undefined,
      players: byRound.slice(0, STANDINGS_SHOWN),
      teams: teamStandings,
    };
  });
}

export interface ReportOptions {
  round?: number;
  /** Which page of players (1-based) carries every answer; the question figures always cover everyone. */
  playerPage?: number;
}

/** A question of the report with the round of a night it belongs to and its number there. */
interface ScopedQuestion {
  question: Question;
  round: number;
  number: number;
}

interface LoadedReport {
  report: GameReport;
  scope: Scope;
  questions: Question[];
  everyone: PlayerFigures[];
}

async function loadReport(db: DB, gameId: number, requester: Requester, options: ReportOptions): Promise<LoadedReport | null> {
  const game = await findOwnGame(db, gameId, requester);
  if (!game) return null;
  const [played, quiz, byRound] = await Promise.all([
    roundsOf(db, game, options.round),
    // The quiz's title and a night's rounds in one look-up.
    db
      .selectFrom("quizzes")
      .select([
        "title",
        sql<string>`(
          select json_group_array(json_object('position', position, 'quizId', quiz_id, 'title', title, 'timeLimit', time_limit) order by position)
          from game_rounds where game_rounds.game_id = ${game.id}
        )`.as("rounds"),
      ])
      .where("id", "=", game.quiz_id)
      .executeTakeFirstOrThrow(),
    getGameQuestionsByRound(db, game.id),
  ]);
  const nightRounds = JSON.parse(quiz.rounds) as NightRound[];
  // A night chains two rounds or more; a "night" of one plays as a single game (the engine's isNight).
  const night = nightRounds.length > 1 ? nightRounds : null;
  const evening = readEvening(game.evening);
  // Team mode with no team yet (a lobby) has nothing to show: the report is a game's without teams.
  const teamMode = evening?.teamMode === true && evening.teams.length > 0;
  const scoped: ScopedQuestion[] = [];
  const offsets: number[] = [];
  for (const round of night ? night.map((entry) => entry.position) : [...byRound.keys()].sort((a, b) => a - b)) {
    offsets.push(scoped.length);
    for (const [index, question] of (byRound.get(round) ?? []).entries()) scoped.push({ question, round: night ? round : 0, number: index + 1 });
  }
  // A single game numbers its questions straight through (its list is one round).
  if (!night) scoped.forEach((entry, index) => (entry.number = index + 1));
  const scope: Scope = { gameId: game.id, round: night ? null : played.round, offsets: night ? offsets : [0], questionCount: scoped.length };
  const teamNames = teamMode ? new Map(evening.teams.map((team) => [team.id, team.name])) : null;
  const everyone = await standings(db, scope, teamNames, night?.length ?? 0);
  const [figures, teams] = await Promise.all([
    questionFigures(db, scope, scoped, everyone.length),
    teamMode ? teamLines(db, scope, evening, everyone, scoped, night !== null || played.round === game.round, night?.length ?? null) : Promise.resolve(null),
  ]);
  const playerPages = Math.max(1, Math.ceil(everyone.length / REPORT_PLAYERS_PAGE_SIZE));
  const playerPage = Math.min(Math.max(1, options.playerPage ?? 1), playerPages);
  const shown = everyone.slice((playerPage - 1) * REPORT_PLAYERS_PAGE_SIZE, playerPage * REPORT_PLAYERS_PAGE_SIZE);
  const answers = await answersOf(
    db,
    scope,
    shown.map((player) => player.id),
  );
  const report: GameReport = {
    gameId: game.id,
    gameCode: game.game_code,
    title: night && evening?.title ? evening.title : quiz.title,
    status: game.status,
    createdAt: game.created_at,
    startedAt: game.started_at,
    endedAt: game.ended_at,
    round: night ? 0 : played.round,
    rounds: night ? [0] : played.rounds,
    playerCount: everyone.length,
    questions: figures,
    ...hardestAndEasiest(figures),
    players: shown.map((player) => lineOf(scope, player, answers.get(player.id))),
    playerPage,
    playerPages,
    night: night ? roundReports(night, offsets, figures, everyone, teams, evening) : null,
    eveningStandings: night ? everyone.slice(0, STANDINGS_SHOWN) : null,
    teams,
  };
  return {
    report,
    scope,
    questions: scoped.map((entry) => entry.question),
    everyone,
  };
}

/** The report of one of the requester's games; not found for anyone else's. */
export async function getGameReport(db: DB, gameId: number, requester: Requester, options: ReportOptions = {}): Promise<ReportResult<GameReport>> {
  const loaded = await loadReport(db, gameId, requester, options);
  return loaded ? { status: "ok", value: loaded.report } : { status: "not-found" };
}

export interface FullReport {
  report: GameReport;
  /** The report's questions in its order (a night's every round, one after another). */
  questions: Question[];
  /** Every player's totals, in rank order. */
  standings: PlayerFigures[];
  /** Every player with every answer, in rank order, read a page of players at a time. */
  players: AsyncIterable<PlayerLine[]>;
}

const EXPORT_BATCH = 500;

/**
 * The report with every player, for the downloads: the players' answers are read in batches of
 * players (one query per batch), so a game of 10,000 players never holds all its answers at once.
 */
export async function getFullGameReport(db: DB, gameId: number, requester: Requester, options: { round?: number } = {}): Promise<ReportResult<FullReport>> {
  const loaded = await loadReport(db, gameId, requester, { round: options.round, playerPage: 1 });
  if (!loaded) return { status: "not-found" };
  const { report, scope, questions, everyone } = loaded;
  async function* batches(): AsyncIterable<PlayerLine[]> {
    for (let start = 0; start < everyone.length; start += EXPORT_BATCH) {
      const batch = everyone.slice(start, start + EXPORT_BATCH);
      const answers = await answersOf(
        db,
        scope,
        batch.map((player) => player.id),
      );
      yield batch.map((player) => lineOf(scope, player, answers.get(player.id)));
    }
  }
  return { status: "ok", value: { report, questions, standings: everyone, players: batches() } };
}

// ------------------------------------------------------------------------- deleting and purging

/** Questions an edit retired that no game lists any more: nothing can show them again. */
async function removeUnlistedRetiredQuestions(db: DB): Promise<void> {
  await sql`
    delete from questions
    where retired_at is not null
      and not exists (select 1 from game_questions where game_questions.question_id = questions.id)
      and not exists (select 1 from answers where answers.question_id = questions.id)`.execute(db);
}

export type DeleteGameResult = { status: "ok" } | { status: "not-found" } | { status: "unfinished" };

/**
 * Deletes one of the requester's games with its players and answers (they cascade). A game still
 * waiting or running is refused: its room would lose what it writes.
 */
export async function deleteOwnGame(db: DB, gameId: number, requester: Requester): Promise<DeleteGameResult> {
  return inTransaction(db, async (trx) => {
    const game = await findOwnGame(trx, gameId, requester);
    if (!game) return { status: "not-found" };
    if (game.status !== "finished") return { status: "unfinished" };
    await trx.deleteFrom("games").where("id", "=", game.id).execute();
    await removeUnlistedRetiredQuestions(trx);
    return { status: "ok" };
  });
}

const PURGE_CHUNK = 200;

/**
 * Removes finished games that ended before `endedBefore`, with their players and answers, a chunk
 * at a time so the game writers are never held up long; returns how many went.
 */
export async function purgeExpiredGames(db: DB, endedBefore: number): Promise<number> {
  let purged = 0;
  for (;;) {
    const chunk = await db.selectFrom("games").select("id").where("status", "=", "finished").where("ended_at", "<", endedBefore).limit(PURGE_CHUNK).execute();
    if (chunk.length === 0) break;
    await inTransaction(db, async (trx) => {
      await trx
        .deleteFrom("games")
        .where(
          "id",
          "in",
          chunk.map((row) => row.id),
        )
        .execute();
    });
    purged += chunk.length;
    if (chunk.length < PURGE_CHUNK) break;
  }
  if (purged > 0) await removeUnlistedRetiredQuestions(db);
  return purged;
}
