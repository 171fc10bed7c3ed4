/**
 * Reports and history (issue 17) over the real server: a game played over real sockets, then My
 * Games, the report's figures against the answers given, the CSV and XLSX downloads, the host's
 * alone (another browser or account gets 404 for the page, the files and the delete), deletion
 * by a plain form post, and the retention sweep.
 */
import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getGameReport } from "#app/models/game-report.server";
import { listHostedGames } from "#app/models/hosted-games.server";
import { removeQuiz } from "#app/models/quiz-delete.server";
import { deleteAccount } from "#app/models/user.server";
import { hostSecretOf } from "#app/sessions/host-secret.server";
import { captureLogs } from "../log-capture";
import { TestClient, browserCookie, cookiesOf, createGameFixture, signInAs, startTestServer, type TestServer } from "./harness";

const QUESTIONS = [
  { kind: "choice", text: "Capital of France?", answers: ["Paris", "Rome", '=HYPERLINK("x")', "Berlin"], correctAnswerIndex: 0 },
  { kind: "multiSelect", text: "Which are primes?", answers: ["2", "9", "11", "15"], correctAnswerIndexes: [0, 2] },
  { kind: "typeAnswer", text: "Closest planet to the Sun?", acceptedAnswers: ["Mercury"] },
  { kind: "closestNumber", text: "Moon landing year?", correctNumber: 1969 },
  { kind: "poll", text: "Next round?", answers: ["Music", "Films"] },
];

/** What each of the three players answers, question by question. */
const ANSWERS = [
  [{ answerIndex: 0 }, { answerIndex: 0 }, { answerIndex: 2 }],
  [{ answerIndexes: [0, 2] }, { answerIndexes: [0, 1] }, { answerIndexes: [0, 2] }],
  [{ text: "Mercury" }, { text: "mercury!" }, { text: "Venus" }],
  [{ number: 1969 }, { number: 1970 }, { number: 1900 }],
  [{ answerIndex: 1 }, { answerIndex: 1 }, { answerIndex: 0 }],
];
const NICKNAMES = ["Zoë", "=cmd", "Ann"];

let server: TestServer;
const logs = captureLogs("info");
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  server = await startTestServer({ logger: logs.logger, game: { reportRetentionMs: 30 * DAY, sweepIntervalMs: 60 * 60_000 } });
});
afterAll(async () => {
  await server.stop();
});

/** Plays the whole quiz: every player answers every question as ANSWERS says; returns the game's id. */
async function playGame(gameCode: string, hostClientId: string): Promise<number> {
  const host = await TestClient.connect(server, hostClientId);
  await host.joinAsHost(gameCode);
  const players = await Promise.all(NICKNAMES.map(() => TestClient.connect(server)));
  const ids: number[] = [];
  for (const [i, player] of players.entries()) ids.push(await player.joinAsPlayer(gameCode, NICKNAMES[i]));
  host.send("START_GAME", { gameCode });
  for (let n = 1; n <= QUESTIONS.length; n++) {
    await Promise.all(players.map((player) => player.next("QUESTION_STARTED", (payload) => payload.questionNumber === n)));
    for (const [i, player] of players.entries()) {
      player.send("SUBMIT_ANSWER", { gameCode, playerId: ids[i], ...ANSWERS[n - 1][i] });
      await player.next("ANSWER_ACCEPTED", (payload) => payload.questionNumber === n);
    }
    await host.next("ANSWER_RESULTS", (payload) => payload.questionNumber === n);
    host.send("NEXT_QUESTION", { gameCode });
    await host.next("LEADERBOARD_UPDATE");
    host.send("NEXT_QUESTION", { gameCode });
  }
  await host.next("GAME_OVER");
  await Promise.all([host, ...players].map((client) => client.close()));
  const game = await server.db.selectFrom("games").select(["id", "status"]).where("game_code", "=", gameCode).orderBy("id", "desc").executeTakeFirstOrThrow();
  // The last writes commit within a few milliseconds of GAME_OVER.
  for (let i = 0; i < 50; i++) {
    const row = await server.db.selectFrom("games").select("status").where("id", "=", game.id).executeTakeFirstOrThrow();
    if (row.status === "finished") break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return game.id;
}

async function page(pathname: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
  const response = await fetch(server.url + pathname, {
    redirect: "manual",
    ...init,
    headers: { "accept-language": "en", ...headers, ...(init.headers as Record<string, string>) },
  });
  return { status: response.status, response };
}

/** The browser's cookies: its client id and the host secret the server set it (docs/decisions/0044-shared-browsers.md). */
const asBrowser = (clientId: string) => ({ cookie: browserCookie(clientId) });
/** The same browser as the models see it: its client id and host secret. */
const asHost = (clientId: string) => ({ clientId, hostSecret: hostSecretOf(cookiesOf(clientId)) });

async function workbookOf(response: Response): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await response.arrayBuffer()) as ExcelJS.Buffer);
  return workbook;
}

describe("a guest's game: My Games, the report, the files", () => {
  let gameId: number;
  let hostClientId: string;

  beforeAll(async () => {
    const fixture = await createGameFixture(server, { questions: QUESTIONS, timeLimit: 30 });
    hostClientId = fixture.hostClientId;
    gameId = await playGame(fixture.gameCode, hostClientId);
  });

  it("lists the game on My Games for the browser that hosted it, with its players and winner", async () => {
    const { games } = await listHostedGames(server.db, asHost(hostClientId));
    expect(games).toMatchObject([{ id: gameId, title: "Test quiz", status: "finished", players: 3 }]);
    expect(games[0].winners).toHaveLength(1);
    const { status, response } = await page("/my-games", asBrowser(hostClientId));
    expect(status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Test quiz");
    expect(html).toContain(`/my-games/${gameId}`);
    expect(html).toContain(games[0].winners[0].replace("=", "="));
    // Another browser has no games.
    expect(await (await page("/my-games", asBrowser(`other-${randomUUID()}`))).response.text()).toContain("Host a quiz");
  });

  it("computes each question's figures from the answers given", async () => {
    const result = await getGameReport(server.db, gameId, asHost(hostClientId));
    if (result.status !== "ok") throw new Error("no report");
    const report = result.value;
    expect(report.playerCount).toBe(3);
    const [choice, multi, typed, closest, poll] = report.questions;
    expect(choice).toMatchObject({ answered: 3, correct: 2, correctAnswer: "Paris" });
    expect(choice.correctRate).toBeCloseTo(2 / 3);
    expect(choice.optionCounts!.map((option) => option.count)).toEqual([2, 0, 1, 0]);
    expect(multi).toMatchObject({ answered: 3, correct: 2, correctAnswer: "2; 11" });
    expect(multi.optionCounts!.map((option) => option.count)).toEqual([3, 1, 2, 0]);
    // "Mercury" and "mercury!" read the same: one group of two, right.
    expect(typed.typedAnswers).toEqual([
      { text: "Mercury", count: 2, correct: true },
      { text: "Venus", count: 1, correct: false },
    ]);
    expect(typed.correct).toBe(2);
    expect(closest.guesses!.map((guess) => guess.value)).toEqual([1969, 1970, 1900]);
    expect(closest.guesses![0].points).toBeGreaterThan(closest.guesses![2].points);
    expect(poll).toMatchObject({ correct: null, correctRate: null, correctAnswer: "" });
    expect(poll.optionCounts!.map((option) => option.count)).toEqual([1, 2]);
    for (const question of report.questions) expect(question.averageResponseMs).toBeGreaterThanOrEqual(0);
    // Ann got the choice wrong, Zoë and =cmd got it right; the multi-select is the same 2 of 3: the
    // typed answer too. Hardest and easiest need different rates: every rated question is 2 of 3 here.
    expect(report.hardest).toBeNull();
    // Every player's answers, points adding up to the score, ranked by score.
    const zoe = report.players.find((player) => player.nickname === "Zoë")!;
    expect(zoe.answers.map((answer) => answer?.correct)).toEqual([true, true, true, true, false]);
    expect(zoe.score).toBe(zoe.answers.reduce((sum, answer) => sum + (answer?.points ?? 0), 0));
    expect(zoe.rank).toBe(1);
    const stored = await server.db.selectFrom("players").select(["nickname", "score"]).where("game_id", "=", gameId).execute();
    for (const player of report.players) expect(player.score).toBe(stored.find((row) => row.nickname === player.nickname)!.score);
    expect(report.players.map((player) => player.rank)).toEqual([1, 2, 3]);
  });

  it("shows the figures on the report page", async () => {
    const { status, response } = await page(`/my-games/${gameId}`, asBrowser(hostClientId));
    expect(status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Capital of France?");
    expect(html).toContain("2 of 3 right");
    expect(html).toContain("Mercury");
    expect(html).toContain(`/my-games/${gameId}/export?format=xlsx`);
  });

  it("downloads the answers as CSV: UTF-8 with a BOM, accents kept, formulas made harmless", async () => {
    const { status, response } = await page(`/my-games/${gameId}/export?format=csv`, asBrowser(hostClientId));
    expect(status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toMatch(/attachment; filename="test-quiz-\d{4}-\d\d-\d\d-[a-z0-9]{6}-report\.csv"/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(new TextDecoder().decode(bytes.slice(3)));
    expect(rows[0]).toEqual(["Round", "Rank", "Player", "Score", "No.", "Question", "Kind", "Right answer", "Answer", "Right", "Time (s)", "Points"]);
    expect(rows).toHaveLength(1 + 3 * QUESTIONS.length);
    expect(rows.some((row) => row[2] === "Zoë")).toBe(true);
    expect(rows.some((row) => row[2] === "'=cmd")).toBe(true);
    expect(rows.find((row) => row[2] === "Ann" && row[4] === "1")![8]).toBe('\'=HYPERLINK("x")');
  });

  it("writes the files' headers in the reader's language", async () => {
    const { response } = await page(`/my-games/${gameId}/export?format=csv`, { ...asBrowser(hostClientId), "accept-language": "de" });
    const rows: string[][] = parse((await response.text()).replace(/^\uFEFF/, ""));
    expect(rows[0].slice(0, 4)).toEqual(["Runde", "Platz", "Spieler", "Punktzahl"]);
    expect(rows[1][6]).toBe("Multiple Choice");
  });

  it("downloads the report as an XLSX workbook that reads back", async () => {
    const { status, response } = await page(`/my-games/${gameId}/export?format=xlsx`, asBrowser(hostClientId));
    expect(status).toBe(200);
    const workbook = await workbookOf(response);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Questions", "Players", "Answers"]);
    const questions = workbook.getWorksheet("Questions")!;
    expect(questions.getRow(2).values).toEqual([
      undefined,
      1,
      "Capital of France?",
      "Multiple choice",
      "Paris",
      3,
      2,
      66.7,
      expect.any(Number),
      'Paris: 2; Rome: 0; =HYPERLINK("x"): 1; Berlin: 0',
    ]);
    const players = workbook.getWorksheet("Players")!;
    expect(players.getRow(2).getCell(2).value).toBe("Zoë");
    expect(players.rowCount).toBe(4);
    const answers = workbook.getWorksheet("Answers")!;
    expect(answers.rowCount).toBe(1 + 3 * QUESTIONS.length);
    // A text that looks like a formula is stored as text, never as a formula.
    answers.eachRow((row) => row.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula)));
    const cmd = [...Array(answers.rowCount).keys()].map((i) => answers.getRow(i + 1)).find((row) => row.getCell(3).value === "=cmd");
    expect(cmd).toBeDefined();
  });

  it("answers 404 to another browser for the page, both files and the delete", async () => {
    const stranger = asBrowser(`stranger-${randomUUID()}`);
    expect((await page(`/my-games/${gameId}`, stranger)).status).toBe(404);
    expect((await page(`/my-games/${gameId}/export?format=csv`, stranger)).status).toBe(404);
    expect((await page(`/my-games/${gameId}/export?format=xlsx`, stranger)).status).toBe(404);
    expect((await page(`/my-games/${gameId}`, { "x-client-id": `stranger-${randomUUID()}` })).status).toBe(404);
    expect((await page(`/my-games/999999`, asBrowser(hostClientId))).status).toBe(404);
    const deleted = await page(
      `/my-games/${gameId}`,
      { ...stranger, "content-type": "application/x-www-form-urlencoded", origin: server.url },
      {
        method: "POST",
        body: "intent=delete",
      },
    );
    expect(deleted.status).toBe(404);
    expect(await server.db.selectFrom("games").select("id").where("id", "=", gameId).executeTakeFirst()).toBeDefined();
  });

  it("deletes the report, its players and answers, by a plain form post of its host", async () => {
    const asked = await page(`/my-games/${gameId}?delete=1`, asBrowser(hostClientId));
    expect(await asked.response.text()).toContain("Delete for good");
    const deleted = await page(
      `/my-games/${gameId}`,
      { ...asBrowser(hostClientId), "content-type": "application/x-www-form-urlencoded", origin: server.url },
      {
        method: "POST",
        body: "intent=delete",
      },
    );
    expect(deleted.status).toBe(302);
    expect(deleted.response.headers.get("location")).toBe("/my-games?deleted=1");
    expect(await server.db.selectFrom("games").select("id").where("id", "=", gameId).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom("players").select("id").where("game_id", "=", gameId).execute()).toEqual([]);
    expect(await server.db.selectFrom("answers").select("player_id").where("game_id", "=", gameId).execute()).toEqual([]);
    expect((await page(`/my-games/${gameId}`, asBrowser(hostClientId))).status).toBe(404);
  });
});

describe("a signed-in host's game", () => {
  it("is the account's: the same account sees it anywhere, another account or the browser signed out gets 404", async () => {
    const host = await signInAs(server);
    const quiz = await server.api("/api/quizzes", {
      body: { title: "Account quiz", description: "", timeLimit: 30, isPublic: false },
      headers: { cookie: host.cookie },
      clientId: host.clientId,
    });
    await server.api("/api/questions", {
      body: { quizId: quiz.body.id, order: 0, ...QUESTIONS[0] },
      headers: { cookie: host.cookie },
      clientId: host.clientId,
    });
    const game = await server.api("/api/games", { body: { quizId: quiz.body.id }, headers: { cookie: host.cookie }, clientId: host.clientId });
    expect(game.status).toBe(201);
    const gameId = game.body.id as number;
    const other = await signInAs(server);
    const fromElsewhere = { cookie: `${host.cookie}; quiz_client_id=another-browser-${randomUUID()}` };
    expect((await page(`/my-games/${gameId}`, fromElsewhere)).status).toBe(200);
    expect((await page(`/my-games/${gameId}`, { cookie: `${other.cookie}; quiz_client_id=${host.clientId}` })).status).toBe(404);
    expect((await page(`/my-games/${gameId}/export?format=xlsx`, { cookie: other.cookie })).status).toBe(404);
    expect((await page(`/my-games/${gameId}`, asBrowser(host.clientId))).status).toBe(404);
    // A game still open is listed, and its report cannot be deleted yet.
    expect(await (await page("/my-games", { cookie: host.cookie })).response.text()).toContain("Account quiz");
    const refused = await page(
      `/my-games/${gameId}`,
      { cookie: host.cookie, "content-type": "application/x-www-form-urlencoded", origin: server.url },
      { method: "POST", body: "intent=delete" },
    );
    expect(refused.status).toBe(409);
  });
});

describe("a deleted account", () => {
  it("takes the reports of the games it hosted with it, and its quizzes go once no game lists them", async () => {
    const host = await signInAs(server);
    const as = { headers: { cookie: host.cookie }, clientId: host.clientId };
    const quiz = await server.api("/api/quizzes", { body: { title: "Leaving quiz", description: "", timeLimit: 30, isPublic: false }, ...as });
    await server.api("/api/questions", { body: { quizId: quiz.body.id, order: 0, ...QUESTIONS[0] }, ...as });
    const game = await server.api("/api/games", { body: { quizId: quiz.body.id }, ...as });
    const gameId = game.body.id as number;
    await server.db.updateTable("games").set({ status: "finished", ended_at: Date.now() }).where("id", "=", gameId).execute();

    await deleteAccount(server.db, host.user.id);
    expect(await server.db.selectFrom("games").select("id").where("id", "=", gameId).executeTakeFirst()).toBeUndefined();
    await server.hub.sweep();
    expect(await server.db.selectFrom("quizzes").select("id").where("id", "=", quiz.body.id).executeTakeFirst()).toBeUndefined();
  });
});

describe("retention", () => {
  it("purges finished games older than REPORT_RETENTION_DAYS with their players and answers, and logs it", async () => {
    const fixture = await createGameFixture(server, { questions: QUESTIONS.slice(0, 1), timeLimit: 30 });
    const recentFixture = await createGameFixture(server, { questions: QUESTIONS.slice(0, 1), timeLimit: 30 });
    const oldId = await playOneQuestion(fixture.gameCode, fixture.hostClientId);
    const recentId = await playOneQuestion(recentFixture.gameCode, recentFixture.hostClientId);
    await server.db
      .updateTable("games")
      .set({ ended_at: Date.now() - 31 * DAY })
      .where("id", "=", oldId)
      .execute();
    await server.db
      .updateTable("games")
      .set({ ended_at: Date.now() - 29 * DAY })
      .where("id", "=", recentId)
      .execute();
    await server.hub.sweep();
    expect(await server.db.selectFrom("games").select("id").where("id", "=", oldId).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom("answers").select("player_id").where("game_id", "=", oldId).execute()).toEqual([]);
    expect(await server.db.selectFrom("players").select("id").where("game_id", "=", oldId).execute()).toEqual([]);
    expect(await server.db.selectFrom("games").select("id").where("id", "=", recentId).executeTakeFirst()).toBeDefined();
    expect(logs.lines.find((line) => line.event === "reports_purged")).toMatchObject({ games: 1, retentionDays: 30 });
  });
});

describe("a deleted quiz", () => {
  it("keeps its games' reports for their hosts until they go (deleted, or past the retention), hidden from everyone else meanwhile", async () => {
    const fixture = await createGameFixture(server, { questions: QUESTIONS.slice(0, 1), timeLimit: 30 });
    const gameId = await playOneQuestion(fixture.gameCode, fixture.hostClientId);
    // Its owner deletes it (My Quizzes' delete, once it has checked the owner).
    await removeQuiz(server.db, fixture.quizId);
    // The quiz is gone for everyone: not found, not hostable.
    expect((await server.api(`/api/quizzes/${fixture.quizId}`, { clientId: fixture.hostClientId })).status).toBe(404);
    expect((await server.api("/api/games", { body: { quizId: fixture.quizId }, clientId: fixture.hostClientId })).status).toBe(404);
    // The report stays, through the sweep that removes deleted quizzes.
    await server.hub.sweep();
    expect((await page(`/my-games/${gameId}`, asBrowser(fixture.hostClientId))).status).toBe(200);
    const listed = await (await page("/my-games", asBrowser(fixture.hostClientId))).response.text();
    expect(listed).toContain(`/my-games/${gameId}`);

    // Past the retention its last report goes, and the quiz with it.
    await server.db
      .updateTable("games")
      .set({ ended_at: Date.now() - 31 * DAY })
      .where("id", "=", gameId)
      .execute();
    await server.hub.sweep();
    expect((await page(`/my-games/${gameId}`, asBrowser(fixture.hostClientId))).status).toBe(404);
    expect(await server.db.selectFrom("quizzes").select("id").where("id", "=", fixture.quizId).executeTakeFirst()).toBeUndefined();
  });
});

async function playOneQuestion(gameCode: string, hostClientId: string): Promise<number> {
  const host = await TestClient.connect(server, hostClientId);
  await host.joinAsHost(gameCode);
  const player = await TestClient.connect(server);
  const id = await player.joinAsPlayer(gameCode, "Solo");
  host.send("START_GAME", { gameCode });
  await player.next("QUESTION_STARTED");
  player.send("SUBMIT_ANSWER", { gameCode, playerId: id, answerIndex: 0 });
  await host.next("ANSWER_RESULTS");
  host.send("NEXT_QUESTION", { gameCode });
  await host.next("LEADERBOARD_UPDATE");
  host.send("NEXT_QUESTION", { gameCode });
  await host.next("GAME_OVER");
  await Promise.all([host.close(), player.close()]);
  const game = await server.db.selectFrom("games").select("id").where("game_code", "=", gameCode).orderBy("id", "desc").executeTakeFirstOrThrow();
  for (let i = 0; i < 50; i++) {
    const row = await server.db.selectFrom("games").select("status").where("id", "=", game.id).executeTakeFirstOrThrow();
    if (row.status === "finished") return game.id;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return game.id;
}
