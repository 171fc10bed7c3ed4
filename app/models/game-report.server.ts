import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { inTransaction, type DB } from "#db/connection.server";
import type { Database, GameRow, GameStatus } from "#db/schema";
import { normalizeTypedAnswer, type PointsOption, type QuestionKind } from "#app/game/question-kinds";
import { getGameQuestions } from "./game.server";
import type { Question, Requester } from "./quiz.server";

/**
 * A host's games and each game's report (issue 17, docs/decisions/0031-game-reports.md): computed
 * from what a game already stores for crash safety (its question list, players and answers), in a
 * fixed number of queries whatever the number of players. A game is its host's alone: the account
 * that hosted it, or, for a game hosted without an account, the browser that created it. Anyone
 * else finds nothing, so a route answers 404 and never tells that the game exists.
 */

export type ReportResult<T> = { status: "ok"; value: T } | { status: "not-found" };

/** Only the host's games: the account's when signed in, else this browser's games hosted without an account; null for a caller with neither. */
function ownedBy(requester: Requester): ((eb: ExpressionBuilder<Database, "games">) => Expression<SqlBool>) | null {
  const { userId, clientId } = requester;
  if (userId != null) return (eb) => eb("games.host_id", "=", userId);
  if (clientId) return (eb) => eb.and([eb("games.host_id", "is", null), eb("games.creator_client_id", "=", clientId)]);
  return null;
}

export interface HostedGame {
  id: number;
  gameCode: string;
  title: string;
  status: GameStatus;
  /** When it started (ms); when it was opened for a lobby that has not started yet. */
  playedAt: number;
  players: number;
  /** The top score's nicknames (several on a tie); empty before anyone scored. */
  winners: string[];
}

export const HOSTED_GAMES_PAGE_SIZE = 50;

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
      "quizzes.title",
      sql<number>`(select count(*) from players where players.game_id = games.id)`.as("players"),
      // A game's players with its top score, in one correlated look-up on the players' primary key.
      sql<string | null>`(
        select json_group_array(nickname) from players
        where players.game_id = games.id and players.score > 0
          and players.score = (select max(score) from players as best where best.game_id = games.id)
      )`.as("winners"),
    ])
    .orderBy("games.created_at", "desc")
    .orderBy("games.id", "desc")
    .limit(HOSTED_GAMES_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * HOSTED_GAMES_PAGE_SIZE)
    .execute();
  const games = rows.slice(0, HOSTED_GAMES_PAGE_SIZE).map((row): HostedGame => ({
    id: row.id,
    gameCode: row.game_code,
    title: row.title,
    status: row.status,
    playedAt: row.started_at ?? row.created_at,
    players: Number(row.players),
    winners: row.winners ? (JSON.parse(row.winners) as string[]).sort((a, b) => a.localeCompare(b)) : [],
  }));
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
  index: number;
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

/**
 * A player's line. Designed to take a team later (issue 17's team mode): a team is one more
 * column beside the nickname, and its figures are the same sums over its members.
 */
export interface PlayerFigures {
  id: number;
  rank: number;
  nickname: string;
  score: number;
  correct: number;
  answered: number;
  averageResponseMs: number | null;
}

export interface PlayerLine extends PlayerFigures {
  /** One per question, in order; null where the player gave no answer. */
  answers: (ReportAnswer | null)[];
}

export interface GameReport {
  gameId: number;
  gameCode: string;
  title: string;
  status: GameStatus;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  /** Play Again makes rounds; the report shows one, the last played by default. */
  round: number;
  rounds: number[];
  playerCount: number;
  questions: QuestionFigures[];
  /** Indexes of the questions with the lowest and the highest correct rate (polls and closest-number guesses left out). */
  hardest: number | null;
  easiest: number | null;
  /** This page's players in rank order, each with every answer. */
  players: PlayerLine[];
  playerPage: number;
  playerPages: number;
}

export const REPORT_PLAYERS_PAGE_SIZE = 100;

interface AnswerRow {
  player_id: number;
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
    questionIndex: row.question_index,
    value: answerValueOf(row),
    correct: row.correct === 1,
    responseMs: row.response_ms,
    points: row.points,
  };
}

/** The right answer in words, for the page and the files. */
export function correctAnswerText(question: Question): string {
  switch (question.kind) {
    case "choice":
    case "trueFalse":
    case "multiSelect":
      return question.correctAnswerIndexes.map((index) => question.answers[index] ?? "").join("; ");
    case "typeAnswer":
      return question.acceptedAnswers.join("; ");
    case "closestNumber":
      return question.correctNumber === null ? "" : String(question.correctNumber);
    case "poll":
      return "";
  }
}

/** An answer in words (options' texts, the text typed, the number guessed), for the files. */
export function answerText(question: Pick<Question, "answers">, value: ReportAnswerValue): string {
  if (value.type === "options") return value.picks.map((pick) => question.answers[pick] ?? "").join("; ");
  if (value.type === "text") return value.text;
  return String(value.value);
}

/** The rounds of a game that have answers, and the one to show. */
async function roundsOf(db: DB, game: GameRow, wanted: number | undefined): Promise<{ round: number; rounds: number[] }> {
  const rows = await db.selectFrom("answers").select("round").distinct().where("game_id", "=", game.id).orderBy("round").execute();
  const rounds = rows.map((row) => row.round);
  if (rounds.length === 0) return { round: game.round, rounds: [game.round] };
  const round = wanted !== undefined && rounds.includes(wanted) ? wanted : rounds[rounds.length - 1];
  return { round, rounds };
}

/** Every player's totals for a round, ranked as the game ranks them (competition ranking, ties by nickname). */
async function standings(db: DB, gameId: number, round: number): Promise<PlayerFigures[]> {
  const rows = await db
    .selectFrom("players")
    .leftJoin("answers", (join) =>
      join.onRef("answers.game_id", "=", "players.game_id").onRef("answers.player_id", "=", "players.id").on("answers.round", "=", round),
    )
    .select([
      "players.id",
      "players.nickname",
      sql<number>`coalesce(sum(answers.points), 0)`.as("score"),
      sql<number>`coalesce(sum(answers.correct), 0)`.as("correct"),
      sql<number>`count(answers.player_id)`.as("answered"),
      sql<number | null>`avg(answers.response_ms)`.as("average_ms"),
    ])
    .where("players.game_id", "=", gameId)
    .groupBy("players.id")
    .execute();
  const sorted = rows.sort((a, b) => b.score - a.score || a.nickname.localeCompare(b.nickname) || a.id - b.id);
  let previous: PlayerFigures | undefined;
  return sorted.map((row, index) => {
    const score = Number(row.score);
    previous = {
      id: row.id,
      rank: previous && previous.score === score ? previous.rank : index + 1,
      nickname: row.nickname,
      score,
      correct: Number(row.correct),
      answered: Number(row.answered),
      averageResponseMs: row.average_ms === null ? null : Math.round(Number(row.average_ms)),
    };
    return previous;
  });
}

/** Each question's counts, in three grouped scans of the round's answers. */
async function questionFigures(db: DB, gameId: number, round: number, questions: Question[], playerCount: number): Promise<QuestionFigures[]> {
  const [totals, picks, multiPicks, values] = await Promise.all([
    db
      .selectFrom("answers")
      .select(["question_index", sql<number>`count(*)`.as("answered"), sql<number>`sum(correct)`.as("correct"), sql<number>`avg(response_ms)`.as("average_ms")])
      .where("game_id", "=", gameId)
      .where("round", "=", round)
      .groupBy("question_index")
      .execute(),
    db
      .selectFrom("answers")
      .select(["question_index", "answer_index", sql<number>`count(*)`.as("n")])
      .where("game_id", "=", gameId)
      .where("round", "=", round)
      .where("answer_index", ">=", 0)
      .groupBy(["question_index", "answer_index"])
      .execute(),
    // A multi-select answer's picks are a JSON array: each pick counts for its option.
    sql<{ question_index: number; pick: number; n: number }>`
      select answers.question_index, picked.value as pick, count(*) as n
      from answers, json_each(answers.answer_value) as picked
      where answers.game_id = ${gameId} and answers.round = ${round} and answers.answer_index = -1
        and json_type(answers.answer_value) = 'array'
      group by answers.question_index, picked.value`.execute(db),
    // Typed answers and guesses: each different value once, with how often and how it scored.
    db
      .selectFrom("answers")
      .select(["question_index", "answer_value", sql<number>`count(*)`.as("n"), sql<number>`max(correct)`.as("correct"), sql<number>`max(points)`.as("points")])
      .where("game_id", "=", gameId)
      .where("round", "=", round)
      .where("answer_index", "=", -1)
      .where(sql<boolean>`json_type(answer_value) in ('text', 'integer', 'real')`)
      .groupBy(["question_index", "answer_value"])
      .execute(),
  ]);
  const totalsAt = new Map(totals.map((row) => [row.question_index, row]));
  return questions.map((question, index): QuestionFigures => {
    const total = totalsAt.get(index);
    const answered = Number(total?.answered ?? 0);
    const scored = question.kind !== "poll";
    const correct = scored ? Number(total?.correct ?? 0) : null;
    const figures: QuestionFigures = {
      index,
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
    if (question.answers.length > 0) {
      const counts = question.answers.map((text, option) => ({ text, count: 0, correct: scored && question.correctAnswerIndexes.includes(option) }));
      const rows = question.kind === "multiSelect" ? multiPicks.rows : picks.map((row) => ({ ...row, pick: row.answer_index }));
      for (const row of rows) if (row.question_index === index && counts[row.pick]) counts[row.pick].count += Number(row.n);
      figures.optionCounts = counts;
    } else if (question.kind === "typeAnswer") {
      const groups = new Map<string, TypedTally>();
      for (const row of values) {
        if (row.question_index !== index || row.answer_value === null) continue;
        const text = String(JSON.parse(row.answer_value));
        const key = normalizeTypedAnswer(text);
        const group = groups.get(key);
        if (group) {
          group.count += Number(row.n);
          group.correct ||= row.correct === 1;
        } else groups.set(key, { text, count: Number(row.n), correct: row.correct === 1 });
      }
      figures.typedAnswers = [...groups.values()].sort((a, b) => b.count - a.count || Number(b.correct) - Number(a.correct) || a.text.localeCompare(b.text));
    } else if (question.kind === "closestNumber") {
      const truth = question.correctNumber ?? 0;
      figures.guesses = values
        .filter((row) => row.question_index === index && row.answer_value !== null)
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
  const rated = questions.filter((question) => question.correctRate !== null && question.kind !== "closestNumber" && question.answered > 0);
  if (rated.length < 2) return { hardest: null, easiest: null };
  const slow = (question: QuestionFigures) => question.averageResponseMs ?? 0;
  const byEase = [...rated].sort((a, b) => a.correctRate! - b.correctRate! || slow(b) - slow(a) || a.index - b.index);
  const hardest = byEase[0];
  const easiest = byEase[byEase.length - 1];
  if (hardest.correctRate === easiest.correctRate) return { hardest: null, easiest: null };
  return { hardest: hardest.index, easiest: easiest.index };
}

/** The answers of these players in a round, one query, grouped by player. */
async function answersOf(db: DB, gameId: number, round: number, playerIds: number[]): Promise<Map<number, AnswerRow[]>> {
  const byPlayer = new Map<number, AnswerRow[]>();
  if (playerIds.length === 0) return byPlayer;
  const rows = await db
    .selectFrom("answers")
    .select(["player_id", "question_index", "answer_index", "answer_value", "response_ms", "correct", "points"])
    .where("game_id", "=", gameId)
    .where("round", "=", round)
    .where("player_id", "in", playerIds)
    .execute();
  for (const row of rows) {
    const list = byPlayer.get(row.player_id);
    if (list) list.push(row);
    else byPlayer.set(row.player_id, [row]);
  }
  return byPlayer;
}

function lineOf(player: PlayerFigures, answers: AnswerRow[] | undefined, questionCount: number): PlayerLine {
  const line: (ReportAnswer | null)[] = new Array<ReportAnswer | null>(questionCount).fill(null);
  for (const row of answers ?? []) if (row.question_index < questionCount) line[row.question_index] = toReportAnswer(row);
  return { ...player, answers: line };
}

export interface ReportOptions {
  round?: number;
  /** Which page of players (1-based) carries every answer; the question figures always cover everyone. */
  playerPage?: number;
}

/** The report of one of the requester's games; not found for anyone else's. */
export async function getGameReport(db: DB, gameId: number, requester: Requester, options: ReportOptions = {}): Promise<ReportResult<GameReport>> {
  const game = await findOwnGame(db, gameId, requester);
  if (!game) return { status: "not-found" };
  const [{ round, rounds }, quiz, questions] = await Promise.all([
    roundsOf(db, game, options.round),
    db.selectFrom("quizzes").select("title").where("id", "=", game.quiz_id).executeTakeFirstOrThrow(),
    getGameQuestions(db, game.id),
  ]);
  const players = await standings(db, game.id, round);
  const figures = await questionFigures(db, game.id, round, questions, players.length);
  const playerPages = Math.max(1, Math.ceil(players.length / REPORT_PLAYERS_PAGE_SIZE));
  const playerPage = Math.min(Math.max(1, options.playerPage ?? 1), playerPages);
  const shown = players.slice((playerPage - 1) * REPORT_PLAYERS_PAGE_SIZE, playerPage * REPORT_PLAYERS_PAGE_SIZE);
  const answers = await answersOf(
    db,
    game.id,
    round,
    shown.map((player) => player.id),
  );
  return {
    status: "ok",
    value: {
      gameId: game.id,
      gameCode: game.game_code,
      title: quiz.title,
      status: game.status,
      createdAt: game.created_at,
      startedAt: game.started_at,
      endedAt: game.ended_at,
      round,
      rounds,
      playerCount: players.length,
      questions: figures,
      ...hardestAndEasiest(figures),
      players: shown.map((player) => lineOf(player, answers.get(player.id), questions.length)),
      playerPage,
      playerPages,
    },
  };
}

export interface FullReport {
  report: GameReport;
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
  const found = await getGameReport(db, gameId, requester, { round: options.round, playerPage: 1 });
  if (found.status !== "ok") return found;
  const report = found.value;
  const [questions, everyone] = await Promise.all([getGameQuestions(db, gameId), standings(db, gameId, report.round)]);
  async function* batches(): AsyncIterable<PlayerLine[]> {
    for (let start = 0; start < everyone.length; start += EXPORT_BATCH) {
      const batch = everyone.slice(start, start + EXPORT_BATCH);
      const answers = await answersOf(
        db,
        gameId,
        report.round,
        batch.map((player) => player.id),
      );
      yield batch.map((player) => lineOf(player, answers.get(player.id), questions.length));
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
