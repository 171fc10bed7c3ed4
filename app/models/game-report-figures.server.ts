import { kindOf } from "#app/game/kinds";
import { sql } from "kysely";
import type { DB } from "#db/connection.server";
import { isJsonArray, isJsonStringOrNumber, jsonArrayIntegers } from "#db/dialect";
import type { GameRow } from "#db/schema";
import { normalizeTypedAnswer } from "#app/game/question-kinds";
import type { Question } from "./quiz.server";
import type { ReportAnswerValue, ReportAnswer, TypedTally, QuestionFigures, PlayerFigures, PlayerLine } from "./game-report.server";
import { correctAnswerText } from "./game-report-answer-text.server";

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

/**
 * Which answers a report reads. A single game reads one round (Play Again makes more, each from
 * zero); a night reads every round, its questions listed one round after another.
 */
export interface Scope {
  gameId: number;
  /** A single game's round shown; null for a night. */
  round: number | null;
  /** Where each round's questions begin in the report's list; [0] for a single game. */
  offsets: number[];
  questionCount: number;
}

/** A stored answer's place in the report's list of questions; null for one outside it. */
export function slotOf(scope: Scope, round: number, questionIndex: number): number | null {
  const night = scope.round === null;
  const start = night ? scope.offsets[round] : 0;
  if (start === undefined || questionIndex < 0) return null;
  const end = night ? (scope.offsets[round + 1] ?? scope.questionCount) : scope.questionCount;
  return start + questionIndex < end ? start + questionIndex : null;
}

/** The rounds of a game that have answers, and the one to show. */
export async function roundsOf(db: DB, game: GameRow, wanted: number | undefined): Promise<{ round: number; rounds: number[] }> {
  const rows = await db.selectFrom("answers").select("round").distinct().where("game_id", "=", game.id).orderBy("round").execute();
  const rounds = rows.map((row) => row.round);
  if (rounds.length === 0) return { round: game.round, rounds: [game.round] };
  const round = wanted !== undefined && rounds.includes(wanted) ? wanted : rounds[rounds.length - 1];
  return { round, rounds };
}

/** Competition ranking ("1, 2, 2, 4") by score, ties listed by name, as the game ranks. */
export function ranked<T extends { score: number; rank: number }>(entries: T[], nameOf: (entry: T) => string, idOf: (entry: T) => number): T[] {
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
export async function standings(db: DB, scope: Scope, teamNames: Map<number, string> | null, roundCount: number): Promise<PlayerFigures[]> {
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
      // The whole primary key, so the players' other columns may be selected (PostgreSQL insists).
      .groupBy(["players.game_id", "players.id"])
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
export async function questionFigures(db: DB, scope: Scope, questions: ScopedQuestion[], playerCount: number): Promise<QuestionFigures[]> {
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
      from answers, ${jsonArrayIntegers(db, sql.ref("answers.answer_value"), "picked")}
      where answers.game_id = ${gameId} ${round === null ? sql`` : sql`and answers.round = ${round}`} and answers.answer_index = -1
        and ${isJsonArray(db, sql.ref("answers.answer_value"))}
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
      .where(isJsonStringOrNumber(db, sql.ref("answer_value")))
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
export async function answersOf(db: DB, scope: Scope, playerIds: number[]): Promise<Map<number, AnswerRow[]>> {
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

export function lineOf(scope: Scope, player: PlayerFigures, answers: AnswerRow[] | undefined): PlayerLine {
  const line: (ReportAnswer | null)[] = new Array<ReportAnswer | null>(scope.questionCount).fill(null);
  for (const row of answers ?? []) {
    const slot = slotOf(scope, row.round, row.question_index);
    if (slot !== null) line[slot] = toReportAnswer(row);
  }
  return { ...player, answers: line };
}

/** A question of the report with the round of a night it belongs to and its number there. */
export interface ScopedQuestion {
  question: Question;
  round: number;
  number: number;
}
