import { sql } from "kysely";
import { setImmediate } from "node:timers/promises";
import type { DB } from "#db/connection.server";
import { jsonArrayAgg, jsonObject } from "#db/dialect";
import type { GameStatus } from "#db/schema";
import type { PointsOption, QuestionKind } from "#app/game/question-kinds";
import { LEADERBOARD_SIZE } from "#app/game/rules";
import { getGameQuestionsByRound, readEvening } from "./game-play.server";
import type { NightRound } from "./game-night.server";
import type { Question, Requester } from "./quiz.server";
import { findOwnGame } from "./hosted-games.server";
import { type Scope, roundsOf, standings, questionFigures, answersOf, lineOf, hardestAndEasiest, type ScopedQuestion } from "./game-report-figures.server";
import { teamLines, roundReports } from "./game-report-evening.server";

/**
 * A host's games and each game's report (issue 17, docs/decisions/0031-game-reports.md): computed
 * from what a game already stores for crash safety (its question list, players and answers), in a
 * fixed number of queries whatever the number of players. A game is its host's alone: the account
 * that hosted it, or, for a game hosted without an account, the browser that created it. Anyone
 * else finds nothing, so a route answers 404 and never tells that the game exists.
 */

export type ReportResult<T> = { status: "ok"; value: T } | { status: "not-found" };

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

export interface ReportOptions {
  round?: number;
  /** Which page of players (1-based) carries every answer; the question figures always cover everyone. */
  playerPage?: number;
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
          select ${jsonArrayAgg(
            db,
            jsonObject(db, { position: sql.ref("position"), quizId: sql.ref("quiz_id"), title: sql.ref("title"), timeLimit: sql.ref("time_limit") }),
            sql.ref("position"),
          )}
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
 * Players handed on at a time, the event loop turning between two: SQLite's driver answers without
 * ever giving the loop a turn, so without this a 10,000-player file is written in one block of
 * seconds while every live game waits (issue 28 found it; docs/decisions/0041-heavy-work-off-the-loop.md).
 */
const EXPORT_SLICE = 25;

/**
 * The report with every player, for the downloads: the players' answers are read in batches of
 * players (one query per batch), so a game of 10,000 players never holds all its answers at once,
 * and handed on a slice at a time (EXPORT_SLICE).
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
      for (let slice = 0; slice < batch.length; slice += EXPORT_SLICE) {
        await setImmediate();
        yield batch.slice(slice, slice + EXPORT_SLICE).map((player) => lineOf(scope, player, answers.get(player.id)));
      }
    }
  }
  return { status: "ok", value: { report, questions, standings: everyone, players: batches() } };
}
