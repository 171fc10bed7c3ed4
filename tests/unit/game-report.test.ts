/**
 * Game reports (docs/decisions/0031-game-reports.md): the hardest and easiest questions as a table;
 * then, in a real SQLite database, the report, My Games entry, files and live results of a team
 * game, of a night of two rounds, and of a single game without teams, which stays as it was.
 */
import ExcelJS from "exceljs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { parse } from "csv-parse/sync";
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import type { StoredEvening } from "#app/game/engine/restore";
import type { Language } from "#app/i18n/languages";
import { createGame } from "#app/models/game.server";
import { getGameResults } from "#app/models/game-results.server";
import { hostNewNight } from "#app/models/game-night.server";
import { getFullGameReport, getGameReport, type FullReport, type GameReport, type QuestionFigures } from "#app/models/game-report.server";
import { hardestAndEasiest } from "#app/models/game-report-figures.server";
import { listHostedGames } from "#app/models/hosted-games.server";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import { TeamDetails } from "#app/components/report-standings";
import { pageMessages } from "#app/i18n/page-messages.server";
import { createCatalogTranslator } from "#app/i18n/translator";
import { TranslatorProvider } from "#app/i18n/use-translation";
import { attachmentResponse } from "#app/http/api.server";
import { reportCsvFile, reportFileName, reportXlsxFile } from "#app/reports/game-report-files.server";
import { openTempDatabase, type TempDatabase } from "../integration/temp-database";

function question(index: number, kind: QuestionFigures["kind"], correctRate: number | null, averageResponseMs = 5000, answered = 4): QuestionFigures {
  return {
    index,
    round: 0,
    number: index + 1,
    kind,
    text: `Q${index + 1}`,
    points: "standard",
    options: [],
    correctAnswer: "",
    answered,
    correct: correctRate === null ? null : correctRate * 4,
    correctRate,
    averageResponseMs,
    optionCounts: null,
    typedAnswers: null,
    guesses: null,
  };
}

describe("hardestAndEasiest", () => {
  it.each([
    ["the lowest and highest right share", [question(0, "choice", 0.5), question(1, "typeAnswer", 0.25), question(2, "multiSelect", 1)], 1, 2],
    [
      "ties go to the slower (hardest) and the faster (easiest) answer",
      [question(0, "choice", 0.5, 4000), question(1, "choice", 0.5, 9000), question(2, "choice", 1, 6000), question(3, "trueFalse", 1, 2000)],
      1,
      3,
    ],
    [
      "polls and closest-number questions are left out",
      [question(0, "poll", null), question(1, "closestNumber", 0), question(2, "choice", 0.75), question(3, "choice", 0.25)],
      3,
      2,
    ],
    ["a question nobody answered is left out", [question(0, "choice", 0, 0, 0), question(1, "choice", 0.5), question(2, "choice", 0.75)], 1, 2],
    ["neither with one question to compare", [question(0, "choice", 0.5), question(1, "poll", null)], null, null],
    ["neither when every question is as hard", [question(0, "choice", 0.5), question(1, "choice", 0.5)], null, null],
  ])("%s", (_name, questions, hardest, easiest) => {
    expect(hardestAndEasiest(questions)).toEqual({ hardest, easiest });
  });
});

// ------------------------------------------------------------------ team games and nights, in SQLite

interface AnswerSeed {
  player: number;
  round: number;
  question: number;
  answerIndex?: number;
  value?: unknown;
  correct: boolean;
  points: number;
  ms: number;
}

/** A finished game's players (with their teams) and answers, written as the game writes them. */
async function seedPlay(
  db: DB,
  gameId: number,
  players: { id: number; nickname: string; team?: number; teamPoints?: number }[],
  answers: AnswerSeed[],
  evening: StoredEvening | null,
): Promise<void> {
  const questionIds = await db
    .selectFrom("game_questions")
    .select(["round", "position", "question_id"])
    .where("game_id", "=", gameId)
    .orderBy("position")
    .execute();
  const firstOf = new Map<number, number>();
  for (const row of questionIds) if (!firstOf.has(row.round)) firstOf.set(row.round, row.position);
  const scores = new Map<number, number>();
  await db
    .insertInto("players")
    .values(
      players.map((player) => ({
        game_id: gameId,
        id: player.id,
        nickname: player.nickname,
        client_id: `client-${gameId}-${player.id}`,
        joined_at: 1_000,
        team_id: player.team ?? null,
        team_points: player.teamPoints ?? 0,
      })),
    )
    .execute();
  const night = firstOf.size > 1;
  await db
    .insertInto("answers")
    .values(
      answers.map((answer) => {
        scores.set(answer.player, (scores.get(answer.player) ?? 0) + answer.points);
        const position = (night ? firstOf.get(answer.round)! : 0) + answer.question;
        return {
          game_id: gameId,
          player_id: answer.player,
          round: answer.round,
          question_id: questionIds[position].question_id,
          question_index: answer.question,
          answer_index: answer.answerIndex ?? -1,
          answer_value: answer.value === undefined ? null : JSON.stringify(answer.value),
          response_ms: answer.ms,
          correct: answer.correct ? 1 : 0,
          points: answer.points,
          answered_at: 2_000,
        };
      }),
    )
    .execute();
  for (const [id, score] of scores) await db.updateTable("players").set({ score }).where("game_id", "=", gameId).where("id", "=", id).execute();
  await db
    .updateTable("games")
    .set({
      status: "finished",
      started_at: Date.UTC(2026, 10, 27, 20),
      ended_at: Date.UTC(2026, 10, 27, 22),
      evening: evening ? JSON.stringify(evening) : null,
    })
    .where("id", "=", gameId)
    .execute();
}

function team(id: number, name: string, score: number): StoredEvening["teams"][number] {
  return { id, name, score, roundScore: score, questionPoints: 0, questionMembers: 0 };
}

async function reportOf(db: DB, gameId: number, host: { clientId: string; hostSecret?: string }): Promise<GameReport> {
  const result = await getGameReport(db, gameId, host);
  if (result.status !== "ok") throw new Error("no report");
  return result.value;
}

async function fullReportOf(db: DB, gameId: number, host: { clientId: string; hostSecret?: string }): Promise<FullReport> {
  const result = await getFullGameReport(db, gameId, host);
  if (result.status !== "ok") throw new Error("no report");
  return result.value;
}

async function csvRows(full: FullReport, language: Language = "en"): Promise<string[][]> {
  const bytes = new Uint8Array(await attachmentResponse(reportCsvFile(full, language)).arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(new TextDecoder().decode(bytes.subarray(3))) as string[][];
}

async function workbookOf(full: FullReport): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await attachmentResponse(reportXlsxFile(full, "en")).arrayBuffer()) as ExcelJS.Buffer);
  return workbook;
}

function rowValues(sheet: ExcelJS.Worksheet, row: number): unknown[] {
  return (sheet.getRow(row).values as unknown[]).slice(1);
}

let database: TempDatabase;
beforeAll(async () => {
  database = await openTempDatabase("report-teams");
});
afterAll(() => database.remove());

describe("the report of a team game", () => {
  const HOST = { clientId: "team-host", hostSecret: "team-host-secret" };
  let gameId: number;

  beforeAll(async () => {
    const { db } = database;
    const quiz = await createQuiz(db, { title: "Team quiz", description: "", timeLimit: 20, isPublic: false }, HOST);
    await addQuestion(db, { quizId: quiz.id, order: 0, kind: "choice", text: "Capital of France?", answers: ["Paris", "Rome"], correctAnswerIndex: 0 });
    await addQuestion(db, {
      quizId: quiz.id,
      order: 1,
      kind: "typeAnswer",
      text: "Closest planet to the Sun?",
      answers: [],
      correctAnswerIndex: -1,
      acceptedAnswers: ["Mercury"],
    });
    await addQuestion(db, { quizId: quiz.id, order: 2, kind: "poll", text: "Next round?", answers: ["Music", "Films"], correctAnswerIndex: -1 });
    const game = await createGame(db, {
      quizId: quiz.id,
      hostId: null,
      creatorClientId: HOST.clientId,
      hostClientId: HOST.clientId,
      hostSecret: HOST.hostSecret,
    });
    gameId = game.id;
    // Owls: Ann and Bob; =Foxes (a name a spreadsheet would run): Cat; Empty: nobody.
    // Owls per question: (900 + 0) / 2, (800 + 700) / 2, 0 = 1200; =Foxes: 1000, 0 (Cat was there, no answer), 0 = 1000.
    await seedPlay(
      db,
      gameId,
      [
        { id: 1, nickname: "Ann", team: 1, teamPoints: 850 },
        { id: 2, nickname: "Bob", team: 1, teamPoints: 350.4 },
        { id: 3, nickname: "Cat", team: 2, teamPoints: 1000 },
      ],
      [
        { player: 1, round: 0, question: 0, answerIndex: 0, correct: true, points: 900, ms: 2000 },
        { player: 2, round: 0, question: 0, answerIndex: 1, correct: false, points: 0, ms: 4000 },
        { player: 3, round: 0, question: 0, answerIndex: 0, correct: true, points: 1000, ms: 1000 },
        { player: 1, round: 0, question: 1, value: "Mercury", correct: true, points: 800, ms: 5000 },
        { player: 2, round: 0, question: 1, value: "mercury", correct: true, points: 700, ms: 7000 },
        { player: 1, round: 0, question: 2, answerIndex: 0, correct: false, points: 0, ms: 3000 },
        { player: 2, round: 0, question: 2, answerIndex: 1, correct: false, points: 0, ms: 3000 },
        { player: 3, round: 0, question: 2, answerIndex: 1, correct: false, points: 0, ms: 3000 },
      ],
      { teamMode: true, teams: [team(1, "Owls", 1200.4), team(2, "=Foxes", 1000), team(3, "Empty", 0)], roundResults: [], breakEndsAt: null },
    );
  });

  it("ranks the teams by the score the game kept, with their members and per question their average points and right share", async () => {
    const report = await reportOf(database.db, gameId, HOST);
    expect(report.night).toBeNull();
    expect(report.teams!.map((line) => [line.rank, line.name, line.score, line.members, line.correct, line.answered])).toEqual([
      [1, "Owls", 1200, 2, 3, 6],
      [2, "=Foxes", 1000, 1, 1, 2],
      [3, "Empty", 0, 0, 0, 0],
    ]);
    const [owls, foxes, empty] = report.teams!;
    expect(owls.averageResponseMs).toBe(Math.round((2000 + 4000 + 5000 + 7000 + 3000 + 3000) / 6));
    expect(owls.memberList).toEqual([
      { id: 1, rank: 1, nickname: "Ann", score: 1700, teamPoints: 850 },
      { id: 2, rank: 3, nickname: "Bob", score: 700, teamPoints: 350.4 },
    ]);
    // Per question, as per player: the right share, the points and the time (of the members who answered).
    expect(owls.questions).toEqual([
      { answered: 2, correct: 1, correctRate: 0.5, averagePoints: 450, averageResponseMs: 3000 },
      { answered: 2, correct: 2, correctRate: 1, averagePoints: 750, averageResponseMs: 6000 },
      { answered: 2, correct: null, correctRate: null, averagePoints: 0, averageResponseMs: 3000 },
    ]);
    expect(foxes.questions[0]).toEqual({ answered: 1, correct: 1, correctRate: 1, averagePoints: 1000, averageResponseMs: 1000 });
    // Cat did not answer the typed question: no right answer, 0 points in the average, no time.
    expect(foxes.questions[1]).toEqual({ answered: 0, correct: 0, correctRate: 0, averagePoints: 0, averageResponseMs: null });
    expect(empty.questions[0]).toEqual({ answered: 0, correct: 0, correctRate: null, averagePoints: null, averageResponseMs: null });
    expect(owls.roundScores).toBeNull();
  });

  it("shows each team's average points, right share and average time per question on the report page", async () => {
    const report = await reportOf(database.db, gameId, HOST);
    const format = {
      number: new Intl.NumberFormat("en"),
      percent: new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 0 }),
      seconds: new Intl.NumberFormat("en", { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    };
    // As the report page writes a time.
    const seconds = (ms: number | null) => (ms === null ? "–" : `${format.seconds.format(ms / 1000)} s`);
    const html = (team: number) =>
      renderToStaticMarkup(
        createElement(
          TranslatorProvider,
          { translator: createCatalogTranslator("en", pageMessages("en").resources) },
          createElement(TeamDetails, { team: report.teams![team], questions: report.questions, night: false, seconds, format }),
        ),
      );
    /** The question table's rows: each question's label and its cells' texts. */
    const questionRows = (markup: string) =>
      [...markup.matchAll(/<tr><th scope="row">([^<]*)<\/th>((?:<td[^>]*>[^<]*<\/td>)+)<\/tr>/g)]
        .filter((row) => row[1].startsWith("Question"))
        .map((row) => [row[1], ...[...row[2].matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1])]);
    const owls = html(0);
    expect(owls).toContain('<th scope="col" class="numeric">Average time</th>');
    expect(questionRows(owls)).toEqual([
      ["Question 1: Capital of France?", "450", "50%", "3.0 s"],
      ["Question 2: Closest planet to the Sun?", "750", "100%", "6.0 s"],
      ["Question 3: Next round?", "0", "–", "3.0 s"],
    ]);
    // The Foxes' Cat gave no answer to the typed question: no time.
    expect(questionRows(html(1))[1]).toEqual(["Question 2: Closest planet to the Sun?", "0", "0%", "–"]);
  });

  it("names each player's team and what the player added to it", async () => {
    const report = await reportOf(database.db, gameId, HOST);
    expect(report.players.map((player) => [player.rank, player.nickname, player.score, player.team, player.teamPoints])).toEqual([
      [1, "Ann", 1700, "Owls", 850],
      [2, "Cat", 1000, "=Foxes", 1000],
      [3, "Bob", 700, "Owls", 350.4],
    ]);
    expect(report.questions[0]).toMatchObject({ round: 0, number: 1, answered: 3, correct: 2 });
  });

  it("lists the game on My Games with its winning team, and stays the host's alone", async () => {
    const { games } = await listHostedGames(database.db, HOST);
    expect(games.find((game) => game.id === gameId)).toMatchObject({ title: "Team quiz", winners: ["Ann"], winningTeams: ["Owls"], rounds: [] });
    expect((await getGameReport(database.db, gameId, { clientId: "someone-else" })).status).toBe("not-found");
    expect((await getFullGameReport(database.db, gameId, { clientId: "someone-else" })).status).toBe("not-found");
  });

  it("writes a Team column after the player in the CSV, and the team's figures on each question, formulas made harmless", async () => {
    const rows = await csvRows(await fullReportOf(database.db, gameId, HOST));
    expect(rows[0]).toEqual([
      "Round",
      "Rank",
      "Player",
      "Team",
      "Score",
      "No.",
      "Question",
      "Kind",
      "Right answer",
      "Answer",
      "Right",
      "Time (s)",
      "Points",
      "Team's average points",
      "Team's right (%)",
      "Team's average time (s)",
    ]);
    expect(rows).toHaveLength(1 + 3 * 3);
    expect(rows[1].slice(0, 6)).toEqual(["1", "1", "Ann", "Owls", "1700", "1"]);
    // Ann's answer to the first question, then the Owls' figures there: (900 + 0) / 2 points, 1 of 2 right, (2 + 4) / 2 seconds.
    expect(rows[1].slice(10)).toEqual(["yes", "2", "900", "450", "50", "3"]);
    // Cat gave no answer to the typed question: the Foxes' figures are 0 points, 0% right, no time.
    expect(rows.find((row) => row[2] === "Cat" && row[5] === "2")!.slice(10)).toEqual(["", "", "", "0", "0", ""]);
    // A poll has no right share.
    expect(rows.find((row) => row[2] === "Bob" && row[5] === "3")!.slice(13)).toEqual(["0", "", "3"]);
    expect(rows.find((row) => row[2] === "Cat")![3]).toBe("'=Foxes");
    const german = await csvRows(await fullReportOf(database.db, gameId, HOST), "de");
    expect(german[0].slice(0, 4)).toEqual(["Runde", "Platz", "Spieler", "Team"]);
  });

  it("adds a Teams sheet, the teams' figures per question and the team to the players' sheet to the workbook", async () => {
    const workbook = await workbookOf(await fullReportOf(database.db, gameId, HOST));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Questions", "Teams", "Team questions", "Players", "Answers"]);
    const teamQuestions = workbook.getWorksheet("Team questions")!;
    expect(rowValues(teamQuestions, 1)).toEqual(["Rank", "Team", "No.", "Question", "Answered", "Right", "Right (%)", "Average points", "Average time (s)"]);
    // One row per team and question, the teams by rank: the Owls' three, the Foxes', the empty team's.
    expect(teamQuestions.rowCount).toBe(1 + 3 * 3);
    expect(rowValues(teamQuestions, 2)).toEqual([1, "Owls", 1, "Capital of France?", 2, 1, 50, 450, 3]);
    expect(rowValues(teamQuestions, 3)).toEqual([1, "Owls", 2, "Closest planet to the Sun?", 2, 2, 100, 750, 6]);
    expect(rowValues(teamQuestions, 4).slice(0, 8)).toEqual([1, "Owls", 3, "Next round?", 2, undefined, undefined, 0]);
    expect(rowValues(teamQuestions, 6)).toEqual([2, "=Foxes", 2, "Closest planet to the Sun?", 0, 0, 0, 0]);
    expect(rowValues(teamQuestions, 8).slice(0, 5)).toEqual([3, "Empty", 1, "Capital of France?", 0]);
    const teams = workbook.getWorksheet("Teams")!;
    expect(rowValues(teams, 1)).toEqual(["Rank", "Team", "Members", "Score", "Right answers", "Answered", "Average time (s)"]);
    expect(rowValues(teams, 2)).toEqual([1, "Owls", 2, 1200, 3, 6, 4]);
    expect(rowValues(teams, 3).slice(0, 4)).toEqual([2, "=Foxes", 1, 1000]);
    expect(teams.rowCount).toBe(4);
    const players = workbook.getWorksheet("Players")!;
    expect(rowValues(players, 1)).toEqual(["Rank", "Player", "Team", "Team points", "Score", "Right answers", "Answered", "Average time (s)"]);
    expect(rowValues(players, 4).slice(0, 5)).toEqual([3, "Bob", "Owls", 350, 700]);
    const answers = workbook.getWorksheet("Answers")!;
    expect(rowValues(answers, 1)[3]).toBe("Team");
    // A team name that looks like a formula is stored as text, never as a formula.
    for (const sheet of workbook.worksheets) sheet.eachRow((row) => row.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula)));
  });

  it("gives the live results a team per player", async () => {
    const game = await database.db.selectFrom("games").selectAll().where("id", "=", gameId).executeTakeFirstOrThrow();
    const results = await getGameResults(database.db, game);
    expect(results.teamMode).toBe(true);
    expect(results.players.map((player) => [player.nickname, player.team, player.answeredCount])).toEqual([
      ["Ann", "Owls", 3],
      ["Cat", "=Foxes", 2],
      ["Bob", "Owls", 3],
    ]);
  });
});

describe("the report of a night of two rounds", () => {
  const HOST = { clientId: "night-host", hostSecret: "night-host-secret" };
  let gameId: number;

  beforeAll(async () => {
    const { db } = database;
    const first = await createQuiz(db, { title: "General knowledge", description: "", timeLimit: 20, isPublic: false }, HOST);
    await addQuestion(db, { quizId: first.id, order: 0, kind: "choice", text: "2 + 2?", answers: ["3", "4"], correctAnswerIndex: 1 });
    await addQuestion(db, { quizId: first.id, order: 1, kind: "choice", text: "Capital of Italy?", answers: ["Rome", "Milan"], correctAnswerIndex: 0 });
    const second = await createQuiz(db, { title: "Music quiz", description: "", timeLimit: 30, isPublic: false }, HOST);
    await addQuestion(db, { quizId: second.id, order: 0, kind: "trueFalse", text: "ABBA is Swedish.", answers: ["True", "False"], correctAnswerIndex: 0 });
    await addQuestion(db, {
      quizId: second.id,
      order: 1,
      kind: "closestNumber",
      text: "Year of Woodstock?",
      answers: [],
      correctAnswerIndex: -1,
      correctNumber: 1969,
    });
    const night = await hostNewNight(db, { title: "Friday night", rounds: [{ quizId: first.id }, { quizId: second.id, title: "Music" }] }, HOST);
    if (night.status !== "ok") throw new Error(night.status);
    gameId = night.value.id;
    // Ann: 1000 + 900, then 0 + 1000 = 2900; Bob: 0 + 950, then 800 + 200 = 1950.
    await seedPlay(
      db,
      gameId,
      [
        { id: 1, nickname: "Ann", team: 1, teamPoints: 2900 },
        { id: 2, nickname: "Bob", team: 2, teamPoints: 1950 },
      ],
      [
        { player: 1, round: 0, question: 0, answerIndex: 1, correct: true, points: 1000, ms: 3000 },
        { player: 2, round: 0, question: 0, answerIndex: 0, correct: false, points: 0, ms: 5000 },
        { player: 1, round: 0, question: 1, answerIndex: 0, correct: true, points: 900, ms: 2000 },
        { player: 2, round: 0, question: 1, answerIndex: 0, correct: true, points: 950, ms: 1000 },
        { player: 1, round: 1, question: 0, answerIndex: 1, correct: false, points: 0, ms: 6000 },
        { player: 2, round: 1, question: 0, answerIndex: 0, correct: true, points: 800, ms: 8000 },
        { player: 1, round: 1, question: 1, value: 1969, correct: true, points: 1000, ms: 9000 },
        { player: 2, round: 1, question: 1, value: 1900, correct: false, points: 200, ms: 9000 },
      ],
      {
        title: "Friday night",
        teamMode: true,
        teams: [team(1, "Reds", 2900), team(2, "Blues", 1950)],
        roundResults: [
          {
            title: "General knowledge",
            players: [],
            teams: [
              { rank: 1, id: 1, name: "Reds", score: 1900 },
              { rank: 2, id: 2, name: "Blues", score: 950 },
            ],
          },
          {
            title: "Music",
            players: [],
            teams: [
              { rank: 1, id: 2, name: "Blues", score: 1000 },
              { rank: 1, id: 1, name: "Reds", score: 1000 },
            ],
          },
        ],
        breakEndsAt: null,
      },
    );
  });

  it("lists the night as one entry on My Games: its title, its rounds, its winners", async () => {
    const { games } = await listHostedGames(database.db, HOST);
    expect(games).toHaveLength(1);
    expect(games[0]).toMatchObject({
      id: gameId,
      title: "Friday night",
      rounds: ["General knowledge", "Music"],
      players: 2,
      winners: ["Ann"],
      winningTeams: ["Reds"],
    });
  });

  it("lists every round's questions with their figures, hardest and easiest within the night", async () => {
    const report = await reportOf(database.db, gameId, HOST);
    expect(report.title).toBe("Friday night");
    expect(report.rounds).toEqual([0]);
    expect(report.questions.map((question) => [question.index, question.round, question.number, question.text])).toEqual([
      [0, 0, 1, "2 + 2?"],
      [1, 0, 2, "Capital of Italy?"],
      [2, 1, 1, "ABBA is Swedish."],
      [3, 1, 2, "Year of Woodstock?"],
    ]);
    expect(report.questions.map((question) => [question.answered, question.correct, question.correctRate, question.averageResponseMs])).toEqual([
      [2, 1, 0.5, 4000],
      [2, 2, 1, 1500],
      [2, 1, 0.5, 7000],
      [2, 1, 0.5, 9000],
    ]);
    expect(report.questions[0].optionCounts!.map((option) => option.count)).toEqual([1, 1]);
    expect(report.questions[2].optionCounts!.map((option) => option.count)).toEqual([1, 1]);
    expect(report.questions[3].guesses!.map((guess) => guess.value)).toEqual([1969, 1900]);
    // Round 2's first question and round 1's first are as hard; round 2's was answered more slowly.
    expect([report.hardest, report.easiest]).toEqual([2, 1]);
  });

  it("gives each round its own standings and the evening's, and every player's answer with its round", async () => {
    const report = await reportOf(database.db, gameId, HOST);
    expect(report.night!.map((round) => [round.index, round.title, round.firstQuestion, round.questionCount, round.played])).toEqual([
      [0, "General knowledge", 0, 2, true],
      [1, "Music", 2, 2, true],
    ]);
    expect(report.night![0].players).toEqual([
      { rank: 1, id: 1, name: "Ann", score: 1900 },
      { rank: 2, id: 2, name: "Bob", score: 950 },
    ]);
    expect(report.night![1].players.map((entry) => [entry.rank, entry.name, entry.score])).toEqual([
      [1, "Ann", 1000],
      [1, "Bob", 1000],
    ]);
    expect(report.night![1].teams!.map((entry) => [entry.rank, entry.name, entry.score])).toEqual([
      [1, "Blues", 1000],
      [1, "Reds", 1000],
    ]);
    expect(report.eveningStandings!.map((player) => [player.rank, player.nickname, player.score, player.roundScores])).toEqual([
      [1, "Ann", 2900, [1900, 1000]],
      [2, "Bob", 1950, [950, 1000]],
    ]);
    const ann = report.players[0];
    expect(ann.answers.map((answer) => answer && [answer.round, answer.questionIndex, answer.points])).toEqual([
      [0, 0, 1000],
      [0, 1, 900],
      [1, 0, 0],
      [1, 1, 1000],
    ]);
    expect(report.teams!.map((line) => [line.rank, line.name, line.score, line.roundScores])).toEqual([
      [1, "Reds", 2900, [1900, 1000]],
      [2, "Blues", 1950, [950, 1000]],
    ]);
    expect(report.teams![0].questions.map((figures) => figures.averagePoints)).toEqual([1000, 900, 0, 1000]);
  });

  it("takes a fixed number of queries: a single game's ten, one more for the rounds' points and one for the teams", async () => {
    let queries = 0;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    await reportOf(database.db.withPlugin(plugin), gameId, HOST);
    expect(queries).toBe(12);
  });

  it("marks a round a night ended before as not played", async () => {
    const { db } = database;
    const quiz = await createQuiz(
      db,
      { title: "Short", description: "", timeLimit: 20, isPublic: false },
      { clientId: "early-host", hostSecret: "early-host-secret" },
    );
    await addQuestion(db, { quizId: quiz.id, order: 0, kind: "choice", text: "Yes?", answers: ["Yes", "No"], correctAnswerIndex: 0 });
    const night = await hostNewNight(
      db,
      { title: "Cut short", rounds: [{ quizId: quiz.id }, { quizId: quiz.id, title: "Never played" }] },
      { clientId: "early-host", hostSecret: "early-host-secret" },
    );
    if (night.status !== "ok") throw new Error(night.status);
    await seedPlay(
      db,
      night.value.id,
      [{ id: 1, nickname: "Solo" }],
      [{ player: 1, round: 0, question: 0, answerIndex: 0, correct: true, points: 1000, ms: 1000 }],
      {
        title: "Cut short",
        teamMode: false,
        teams: [],
        roundResults: [{ title: "Short", players: [{ rank: 1, id: 1, name: "Solo", score: 1000 }], teams: [] }],
        breakEndsAt: null,
      },
    );
    const report = await reportOf(db, night.value.id, { clientId: "early-host", hostSecret: "early-host-secret" });
    expect(report.night!.map((round) => round.played)).toEqual([true, false]);
    expect(report.teams).toBeNull();
    expect(report.players[0]).toMatchObject({ score: 1000, roundScores: [1000, 0], team: null, teamPoints: null });
  });

  it("writes the round's number and title on every row of the CSV", async () => {
    const full = await fullReportOf(database.db, gameId, HOST);
    const rows = await csvRows(full);
    expect(rows[0]).toEqual([
      "Round",
      "Round title",
      "Rank",
      "Player",
      "Team",
      "Score",
      "No.",
      "Question",
      "Kind",
      "Right answer",
      "Answer",
      "Right",
      "Time (s)",
      "Points",
      "Team's average points",
      "Team's right (%)",
      "Team's average time (s)",
    ]);
    expect(rows).toHaveLength(1 + 2 * 4);
    expect(rows.slice(1, 5).map((row) => row.slice(0, 8))).toEqual([
      ["1", "General knowledge", "1", "Ann", "Reds", "2900", "1", "2 + 2?"],
      ["1", "General knowledge", "1", "Ann", "Reds", "2900", "2", "Capital of Italy?"],
      ["2", "Music", "1", "Ann", "Reds", "2900", "1", "ABBA is Swedish."],
      ["2", "Music", "1", "Ann", "Reds", "2900", "2", "Year of Woodstock?"],
    ]);
    expect(rows[4].slice(10)).toEqual(["1969", "yes", "9", "1000", "1000", "100", "9"]);
    expect(reportFileName(full, "csv")).toMatch(/^friday-night-2026-11-27-[a-z0-9]{6}-report\.csv$/);
  });

  it("puts the rounds in the workbook: each question's round, each player's and team's points per round", async () => {
    const workbook = await workbookOf(await fullReportOf(database.db, gameId, HOST));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Questions", "Teams", "Team questions", "Players", "Answers"]);
    const teamQuestions = workbook.getWorksheet("Team questions")!;
    expect(rowValues(teamQuestions, 1).slice(0, 6)).toEqual(["Rank", "Team", "Round", "Round title", "No.", "Question"]);
    // The Blues (Bob alone) on the second round's first question.
    expect(rowValues(teamQuestions, 8)).toEqual([2, "Blues", 2, "Music", 1, "ABBA is Swedish.", 1, 1, 100, 800, 8]);
    const questions = workbook.getWorksheet("Questions")!;
    expect(rowValues(questions, 1).slice(0, 4)).toEqual(["Round", "Round title", "No.", "Question"]);
    expect(rowValues(questions, 4)).toEqual([2, "Music", 1, "ABBA is Swedish.", "True or false", "True", 2, 1, 50, 7, "True: 1; False: 1"]);
    const players = workbook.getWorksheet("Players")!;
    expect(rowValues(players, 1)).toEqual([
      "Rank",
      "Player",
      "Team",
      "Team points",
      "Score",
      "Round 1: General knowledge",
      "Round 2: Music",
      "Right answers",
      "Answered",
      "Average time (s)",
    ]);
    expect(rowValues(players, 2)).toEqual([1, "Ann", "Reds", 2900, 2900, 1900, 1000, 3, 4, 5]);
    const teams = workbook.getWorksheet("Teams")!;
    expect(rowValues(teams, 3)).toEqual([2, "Blues", 1, 1950, 950, 1000, 2, 4, 5.8]);
    expect(workbook.getWorksheet("Answers")!.rowCount).toBe(1 + 2 * 4);
  });

  it("counts a night's answers of every round in the live results", async () => {
    const game = await database.db.selectFrom("games").selectAll().where("id", "=", gameId).executeTakeFirstOrThrow();
    const results = await getGameResults(database.db, game);
    expect(results.title).toBe("Friday night");
    expect(results.totalQuestions).toBe(4);
    expect(results.players.map((player) => [player.nickname, player.score, player.answeredCount, player.team])).toEqual([
      ["Ann", 2900, 4, "Reds"],
      ["Bob", 1950, 4, "Blues"],
    ]);
  });
});

describe("the report of a single game without teams", () => {
  const HOST = { clientId: "single-host", hostSecret: "single-host-secret" };
  let gameId: number;

  beforeAll(async () => {
    const { db } = database;
    const quiz = await createQuiz(db, { title: "Plain quiz", description: "", timeLimit: 20, isPublic: false }, HOST);
    await addQuestion(db, { quizId: quiz.id, order: 0, kind: "choice", text: "2 + 2?", answers: ["3", "4"], correctAnswerIndex: 1 });
    await addQuestion(db, { quizId: quiz.id, order: 1, kind: "choice", text: "3 + 3?", answers: ["6", "7"], correctAnswerIndex: 0 });
    const game = await createGame(db, {
      quizId: quiz.id,
      hostId: null,
      creatorClientId: HOST.clientId,
      hostClientId: HOST.clientId,
      hostSecret: HOST.hostSecret,
    });
    gameId = game.id;
    // Two rounds of Play Again: the report shows the last by default, each from zero.
    await seedPlay(
      db,
      gameId,
      [
        { id: 1, nickname: "Ann" },
        { id: 2, nickname: "Bob" },
      ],
      [
        { player: 1, round: 0, question: 0, answerIndex: 1, correct: true, points: 1000, ms: 1000 },
        { player: 2, round: 0, question: 0, answerIndex: 1, correct: true, points: 900, ms: 2000 },
        { player: 1, round: 1, question: 0, answerIndex: 1, correct: true, points: 600, ms: 3000 },
        { player: 2, round: 1, question: 0, answerIndex: 1, correct: true, points: 800, ms: 4000 },
        { player: 2, round: 1, question: 1, answerIndex: 0, correct: true, points: 700, ms: 5000 },
      ],
      null,
    );
    // Play Again cleared the scores: a player's is its last round's.
    await db.updateTable("games").set({ round: 1 }).where("id", "=", gameId).execute();
    await db.updateTable("players").set({ score: 600 }).where("game_id", "=", gameId).where("id", "=", 1).execute();
    await db.updateTable("players").set({ score: 1500 }).where("game_id", "=", gameId).where("id", "=", 2).execute();
  });

  it("is as before: the last round of Play Again, no teams, no night", async () => {
    const report = await reportOf(database.db, gameId, HOST);
    expect(report).toMatchObject({
      title: "Plain quiz",
      round: 1,
      rounds: [0, 1],
      playerCount: 2,
      night: null,
      eveningStandings: null,
      teams: null,
      hardest: 1,
      easiest: 0,
    });
    expect(report.questions.map((question) => [question.index, question.round, question.number, question.answered, question.correct])).toEqual([
      [0, 0, 1, 2, 2],
      [1, 0, 2, 1, 1],
    ]);
    expect(
      report.players.map((player) => [
        player.rank,
        player.nickname,
        player.score,
        player.correct,
        player.answered,
        player.team,
        player.teamPoints,
        player.roundScores,
      ]),
    ).toEqual([
      [1, "Bob", 1500, 2, 2, null, null, null],
      [2, "Ann", 600, 1, 1, null, null, null],
    ]);
    expect(report.players[1].answers).toEqual([
      { round: 1, questionIndex: 0, value: { type: "options", picks: [1] }, correct: true, responseMs: 3000, points: 600 },
      null,
    ]);
    const first = await getGameReport(database.db, gameId, HOST, { round: 0 });
    if (first.status !== "ok") throw new Error("no report");
    expect(first.value.players.map((player) => [player.nickname, player.score])).toEqual([
      ["Ann", 1000],
      ["Bob", 900],
    ]);
    const { games } = await listHostedGames(database.db, HOST);
    expect(games[0]).toMatchObject({ title: "Plain quiz", rounds: [], winningTeams: [] });
  });

  it("keeps its files' columns and sheets", async () => {
    const full = await fullReportOf(database.db, gameId, HOST);
    const rows = await csvRows(full);
    expect(rows[0]).toEqual(["Round", "Rank", "Player", "Score", "No.", "Question", "Kind", "Right answer", "Answer", "Right", "Time (s)", "Points"]);
    expect(rows[1]).toEqual(["2", "1", "Bob", "1500", "1", "2 + 2?", "Multiple choice", "4", "4", "yes", "4", "800"]);
    expect(reportFileName(full, "xlsx")).toMatch(/^plain-quiz-2026-11-27-[a-z0-9]{6}-round-2-report\.xlsx$/);
    const workbook = await workbookOf(await fullReportOf(database.db, gameId, HOST));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Questions", "Players", "Answers"]);
    expect(rowValues(workbook.getWorksheet("Questions")!, 2)).toEqual([1, "2 + 2?", "Multiple choice", "4", 2, 2, 100, 3.5, "3: 0; 4: 2"]);
    expect(rowValues(workbook.getWorksheet("Players")!, 1)).toEqual(["Rank", "Player", "Score", "Right answers", "Answered", "Average time (s)"]);
    expect(rowValues(workbook.getWorksheet("Players")!, 2)).toEqual([1, "Bob", 1500, 2, 2, 4.5]);
    const game = await database.db.selectFrom("games").selectAll().where("id", "=", gameId).executeTakeFirstOrThrow();
    const results = await getGameResults(database.db, game);
    expect(results.teamMode).toBe(false);
    expect(results.players[0]).toEqual({ rank: 1, id: 2, nickname: "Bob", score: 1500, correctCount: 0, answeredCount: 2 });
  });
});
