import { PassThrough, Readable } from "node:stream";
import { setImmediate } from "node:timers/promises";
import { kindOf } from "#app/game/kinds";
import { stringify } from "csv-stringify/sync";
import ExcelJS from "exceljs";
import type { Language } from "#app/i18n/languages";
import { translator } from "#app/i18n/server-i18n.server";
import { shownScore } from "#app/game/engine/teams";
import { answerText } from "#app/models/game-report-answer-text.server";
import type { FullReport, PlayerLine, QuestionFigures, TeamQuestionFigures } from "#app/models/game-report.server";
import type { DownloadFile } from "#app/http/api.server";
import { quizFileSlug } from "#app/quiz-files/quiz-file";
import { CSV_CONTENT_TYPE, XLSX_CONTENT_TYPE } from "#app/quiz-files/quiz-spreadsheet.server";

/**
 * A game's report as files (issue 17): the CSV is the answers table, one row per player and
 * question; the workbook adds a sheet of each question's figures, one of the players' totals and,
 * for a team game, one of the teams'. A team game's rows name the player's team; a night's name the
 * round (its number and title), and its players' and teams' totals carry each round's points.
 * Both are written as they are read, a batch of players at a time, so a game of 10,000 players is
 * never held in memory as one file. Headers are in the reader's language; the cells are as the
 * players typed them, so a cell a spreadsheet would run as a formula is made harmless: the CSV
 * puts an apostrophe before it (as the results CSV does), the workbook stores every text as text,
 * never as a formula.
 */

export const REPORT_FORMATS = ["csv", "xlsx"] as const;

/** Players' totals written between two turns of the event loop (docs/decisions/0041-heavy-work-off-the-loop.md). */
const STANDINGS_SLICE = 250;

/** A report as it is sent: a stream, written as it is read. */
export type ReportDownload = DownloadFile & { body: ReadableStream<Uint8Array> };

/**
 * `body` as it is read, calling `release` once when it has been read to its end, has failed, or
 * the reader went away: a report holds its slot for heavy work exactly as long as it is written.
 */
export function releasedWhenRead(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}
export type ReportFormat = (typeof REPORT_FORMATS)[number];

type Translate = ReturnType<typeof translator>;

function seconds(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms / 100) / 10;
}

/** A share as a percentage with one decimal (66.7). */
function percent(rate: number | null): number | null {
  return rate === null ? null : Math.round(rate * 1000) / 10;
}

/** A night's round titles by round index; null for a single game. */
function roundTitles(full: FullReport): string[] | null {
  return full.report.night?.map((round) => round.title) ?? null;
}

/** A team's average points on a question, whole as the game shows points; null for a team without members. */
function wholePoints(points: number | null): number | null {
  return points === null ? null : Math.round(points);
}

/**
 * The answers table's columns: a night adds its round's title beside the round's number, a team
 * game the player's team beside the nickname and, after the answer, the team's figures on that
 * question (its members' average points, right share and average time).
 */
function answerColumns(t: Translate, full: FullReport): string[] {
  const night = full.report.night !== null;
  const teams = full.report.teams !== null;
  return [
    t("export.round"),
    ...(night ? [t("export.roundTitle")] : []),
    t("export.rank"),
    t("export.nickname"),
    ...(teams ? [t("export.team")] : []),
    t("export.score"),
    t("export.number"),
    t("export.question"),
    t("export.kind"),
    t("export.rightAnswer"),
    t("export.answer"),
    t("export.correct"),
    t("export.time"),
    t("export.points"),
    ...(teams ? [t("export.teamAveragePoints"), t("export.teamCorrectRate"), t("export.teamAverageTime")] : []),
  ];
}

function answerRows(t: Translate, full: FullReport, players: PlayerLine[]): (string | number | null)[][] {
  const { report, questions } = full;
  const titles = roundTitles(full);
  const teams = report.teams !== null;
  // At most MAX_TEAMS teams: each player's is found without a pass over them.
  const teamQuestions = new Map<number, TeamQuestionFigures[]>((report.teams ?? []).map((team) => [team.id, team.questions]));
  const rows: (string | number | null)[][] = [];
  for (const player of players) {
    const ofTeam = player.teamId === null ? undefined : teamQuestions.get(player.teamId);
    for (const [index, question] of questions.entries()) {
      const figures = report.questions[index];
      const answer = player.answers[index];
      const right = !kindOf(question.kind).scored || !answer ? "" : answer.correct ? t("export.yes") : t("export.no");
      const round = titles ? (figures?.round ?? 0) : report.round;
      rows.push([
        round + 1,
        ...(titles ? [titles[round] ?? ""] : []),
        player.rank,
        player.nickname,
        ...(teams ? [player.team ?? ""] : []),
        player.score,
        figures?.number ?? index + 1,
        question.text,
        t(`kinds.${question.kind}`, { ns: "quiz" }),
        figures?.correctAnswer ?? "",
        answer ? answerText(question, answer.value) : "",
        right,
        answer ? seconds(answer.responseMs) : null,
        answer ? answer.points : null,
        ...(teams ? teamFigures(ofTeam?.[index]) : []),
      ]);
    }
  }
  return rows;
}

/** A team's average points, right share (%) and average time (s) on one question; blanks outside a team. */
function teamFigures(figures: TeamQuestionFigures | undefined): (number | null)[] {
  if (!figures) return [null, null, null];
  return [wholePoints(figures.averagePoints), percent(figures.correctRate), seconds(figures.averageResponseMs)];
}

export function reportFileName(full: FullReport, format: ReportFormat): string {
  const { report } = full;
  const day = new Date(report.startedAt ?? report.createdAt).toISOString().slice(0, 10);
  const round = report.rounds.length > 1 ? `-round-${report.round + 1}` : "";
  return `${quizFileSlug(report.title)}-${day}-${report.gameCode.toLowerCase()}${round}-report.${format}`;
}

/** The answers table as CSV: UTF-8 with a byte-order mark (so Excel reads "Zoë" as Zoë), formula-like cells escaped. */
export function reportCsvFile(full: FullReport, language: Language): ReportDownload {
  const t = translator(language, "reports");
  // Bytes, not strings: a web stream's readers (Response.text(), the Fetch API) take Uint8Array chunks only.
  const utf8 = new TextEncoder();
  async function* chunks(): AsyncIterable<Uint8Array> {
    yield utf8.encode(stringify([], { header: true, columns: answerColumns(t, full), bom: true, escape_formulas: true }));
    for await (const players of full.players) {
      yield utf8.encode(stringify(answerRows(t, full, players), { escape_formulas: true }));
    }
  }
  const body = Readable.toWeb(Readable.from(chunks())) as ReadableStream<Uint8Array>;
  return { body, contentType: CSV_CONTENT_TYPE, fileName: reportFileName(full, "csv") };
}

/** A night's sheets name each row's round: its number and its title. */
function roundTitleColumns(t: Translate, titles: string[] | null): Array<{ header: string; width: number }> {
  return titles
    ? [
        { header: t("export.round"), width: 8 },
        { header: t("export.roundTitle"), width: 24 },
      ]
    : [];
}

function distributionText(figures: QuestionFigures): string {
  const tallies = figures.optionCounts ?? figures.typedAnswers ?? figures.guesses?.map((guess) => ({ text: String(guess.value), count: guess.count })) ?? [];
  return tallies.map((tally) => `${tally.text}: ${tally.count}`).join("; ");
}

/** The workbook: Questions, Teams and Team questions (a team game's), Players and Answers sheets, streamed as it is written. */
export function reportXlsxFile(full: FullReport, language: Language): ReportDownload {
  const t = translator(language, "reports");
  const { report } = full;
  const output = new PassThrough();
  // Inline strings: a text cell is a string in the file, never a formula, whatever it begins with.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = "Quiz Night";

  async function write(): Promise<void> {
    const frozen = { views: [{ state: "frozen" as const, ySplit: 1 }] };
    const titles = roundTitles(full);
    const roundColumns = (titles ?? []).map((title, round) => ({ header: t("export.roundScore", { round: round + 1, title }), width: 14 }));
    const questionSheet = workbook.addWorksheet(t("export.sheetQuestions"), frozen);
    questionSheet.columns = [
      ...roundTitleColumns(t, titles),
      { header: t("export.number"), width: 6 },
      { header: t("export.question"), width: 50 },
      { header: t("export.kind"), width: 18 },
      { header: t("export.rightAnswer"), width: 24 },
      { header: t("export.answered"), width: 12 },
      { header: t("export.correct"), width: 10 },
      { header: t("export.correctRate"), width: 10 },
      { header: t("export.averageTime"), width: 16 },
      { header: t("export.distribution"), width: 60 },
    ];
    questionSheet.getRow(1).font = { bold: true };
    for (const figures of report.questions) {
      questionSheet
        .addRow([
          ...(titles ? [figures.round + 1, titles[figures.round] ?? ""] : []),
          figures.number,
          figures.text,
          t(`kinds.${figures.kind}`, { ns: "quiz" }),
          !kindOf(figures.kind).scored ? t("export.poll") : figures.correctAnswer,
          figures.answered,
          figures.correct,
          percent(figures.correctRate),
          seconds(figures.averageResponseMs),
          distributionText(figures),
        ])
        .commit();
    }
    questionSheet.commit();

    // A team game's standings: score as the game counted it, the members' figures summed.
    if (report.teams) {
      const teamSheet = workbook.addWorksheet(t("export.sheetTeams"), frozen);
      teamSheet.columns = [
        { header: t("export.rank"), width: 8 },
        { header: t("export.team"), width: 20 },
        { header: t("export.members"), width: 10 },
        { header: t("export.score"), width: 10 },
        ...roundColumns,
        { header: t("export.correctAnswers"), width: 14 },
        { header: t("export.answered"), width: 12 },
        { header: t("export.averageTime"), width: 16 },
      ];
      teamSheet.getRow(1).font = { bold: true };
      for (const team of report.teams) {
        teamSheet
          .addRow([
            team.rank,
            team.name,
            team.members,
            team.score,
            ...(titles ? (team.roundScores ?? []) : []),
            team.correct,
            team.answered,
            seconds(team.averageResponseMs),
          ])
          .commit();
      }
      teamSheet.commit();

      // Per team, per question, as the answers are per player: the right share, the points and the time.
      const teamQuestionSheet = workbook.addWorksheet(t("export.sheetTeamQuestions"), frozen);
      teamQuestionSheet.columns = [
        { header: t("export.rank"), width: 8 },
        { header: t("export.team"), width: 20 },
        ...roundTitleColumns(t, titles),
        { header: t("export.number"), width: 6 },
        { header: t("export.question"), width: 50 },
        { header: t("export.answered"), width: 12 },
        { header: t("export.correct"), width: 10 },
        { header: t("export.correctRate"), width: 10 },
        { header: t("export.averagePoints"), width: 14 },
        { header: t("export.averageTime"), width: 16 },
      ];
      teamQuestionSheet.getRow(1).font = { bold: true };
      for (const team of report.teams) {
        for (const [index, question] of report.questions.entries()) {
          const figures = team.questions[index];
          teamQuestionSheet
            .addRow([
              team.rank,
              team.name,
              ...(titles ? [question.round + 1, titles[question.round] ?? ""] : []),
              question.number,
              question.text,
              figures?.answered ?? 0,
              figures?.correct ?? null,
              percent(figures?.correctRate ?? null),
              wholePoints(figures?.averagePoints ?? null),
              seconds(figures?.averageResponseMs ?? null),
            ])
            .commit();
        }
      }
      teamQuestionSheet.commit();
    }

    // Sheets are written one after another: the players' totals, then their answers, a batch of players at a time.
    const teams = report.teams !== null;
    const playerSheet = workbook.addWorksheet(t("export.sheetPlayers"), frozen);
    playerSheet.columns = [
      { header: t("export.rank"), width: 8 },
      { header: t("export.nickname"), width: 20 },
      ...(teams
        ? [
            { header: t("export.team"), width: 20 },
            { header: t("export.teamPoints"), width: 12 },
          ]
        : []),
      { header: t("export.score"), width: 10 },
      ...roundColumns,
      { header: t("export.correctAnswers"), width: 14 },
      { header: t("export.answered"), width: 12 },
      { header: t("export.averageTime"), width: 16 },
    ];
    playerSheet.getRow(1).font = { bold: true };
    for (const [index, player] of full.standings.entries()) {
      // 10,000 rows are a block of a few hundred milliseconds: the live games' sockets are read between slices.
      if (index > 0 && index % STANDINGS_SLICE === 0) await setImmediate();
      playerSheet
        .addRow([
          player.rank,
          player.nickname,
          ...(teams ? [player.team ?? "", player.teamPoints === null ? null : shownScore(player.teamPoints)] : []),
          player.score,
          ...(titles ? (player.roundScores ?? []) : []),
          player.correct,
          player.answered,
          seconds(player.averageResponseMs),
        ])
        .commit();
    }
    playerSheet.commit();

    const answerSheet = workbook.addWorksheet(t("export.sheetAnswers"), frozen);
    const answerHeaders = answerColumns(t, full);
    const wide = new Set([t("export.question")]);
    const narrow = new Set([t("export.round"), t("export.rank"), t("export.score"), t("export.number"), t("export.kind")]);
    answerSheet.columns = answerHeaders.map((header) => ({ header, width: wide.has(header) ? 50 : narrow.has(header) ? 10 : 18 }));
    answerSheet.getRow(1).font = { bold: true };
    for await (const players of full.players) {
      for (const row of answerRows(t, full, players)) answerSheet.addRow(row).commit();
    }
    answerSheet.commit();
    await workbook.commit();
  }
  write().catch((error: unknown) => output.destroy(error as Error));
  const body = Readable.toWeb(output) as ReadableStream<Uint8Array>;
  return { body, contentType: XLSX_CONTENT_TYPE, fileName: reportFileName(full, "xlsx") };
}
