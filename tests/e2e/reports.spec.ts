import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { AXE_CONTEXT, axeViolations } from "./axe";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";

/** Reports and history (issue 17): a host plays a short game with two players, then reads its report and downloads it. */
const QUESTIONS = [
  { text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
];

test("after a game, My Games lists it and its report shows each question's figures as answered; the XLSX reads back", async ({ baseURL, browser, page }) => {
  test.setTimeout(120_000);
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "Report Night", timeLimit: 30, questions: QUESTIONS });
  const hostContext = await contextWithClientId(browser, hostId, AXE_CONTEXT);
  await hostContext.addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  const host = await hostContext.newPage();
  await host.goto(`/waiting/${gameCode}`);
  const [ann, bob] = await Promise.all(["Ann", "Zoë"].map(async () => (await contextWithClientId(browser, `player-${randomUUID()}`)).newPage()));
  await ann.goto(`/waiting/${gameCode}?nickname=Ann`);
  await bob.goto(`/waiting/${gameCode}?nickname=Zo%C3%AB`);
  await expect(host.getByTestId("player-count")).toHaveText("2");
  await host.getByRole("button", { name: "Start Game" }).click();

  // Question 1: Ann right, Zoë wrong. Question 2: both right.
  await ann.getByRole("button", { name: /B\. 4/ }).click();
  await bob.getByRole("button", { name: /C\. 5/ }).click();
  await expect(bob).toHaveURL(`/result/${gameCode}`);
  await expect(bob).toHaveURL(`/play/${gameCode}`, { timeout: 15_000 });
  await bob.getByRole("button", { name: /A\. Paris/ }).click();
  await ann.getByRole("button", { name: /A\. Paris/ }).click();
  await expect(host).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });

  // From the podium to My Games.
  await host.getByRole("link", { name: "My Games" }).click();
  await expect(host.getByRole("heading", { level: 1, name: "My Games" })).toBeVisible();
  const row = host.getByRole("row", { name: /Report Night/ });
  await expect(row).toContainText("Ann");
  await expect(row).toContainText("Finished");
  await expect(row.getByRole("cell").nth(1)).toHaveText("2");
  await row.getByRole("link", { name: /Report of Report Night/ }).click();

  await expect(host.getByRole("heading", { level: 1, name: "Report Night" })).toBeVisible();
  const first = host.getByRole("listitem").filter({ has: host.getByRole("heading", { name: "Question 1: What is 2 + 2?" }) });
  await expect(first).toContainText("1 of 2 right (50%)");
  await expect(first).toContainText("Right answer: 4");
  const distribution = first.getByRole("table", { name: "Answers to question 1" });
  await expect(distribution.getByRole("row", { name: /^4/ })).toContainText("1");
  await expect(distribution.getByRole("row", { name: /^5/ })).toContainText("50%");
  const second = host.getByRole("listitem").filter({ has: host.getByRole("heading", { name: "Question 2: Capital of France?" }) });
  await expect(second).toContainText("2 of 2 right (100%)");
  await expect(host.getByText("Hardest question")).toBeVisible();
  await expect(host.locator(".report-extremes")).toContainText("What is 2 + 2?");

  // Every answer of a player, by rank.
  await host.getByText(/^1\. Ann:/).click();
  const annAnswers = host.getByRole("table", { name: "Answers of Ann" });
  await expect(annAnswers.getByRole("row")).toHaveCount(3);
  await expect(annAnswers.getByRole("row").nth(1)).toContainText("4");
  await expect(annAnswers.getByRole("row").nth(1)).toContainText("Right");

  // The report with its tables filled and a player's answers open passes axe-core.
  expect(await axeViolations(host, "report")).toEqual([]);

  const download = host.waitForEvent("download");
  await host.getByRole("link", { name: "Excel workbook (XLSX)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^report-night-\d{4}-\d\d-\d\d-[a-z0-9]{6}-report\.xlsx$/);
  const bytes = Buffer.concat(await (await file.createReadStream()).toArray());
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const questions = workbook.getWorksheet("Questions")!;
  expect(questions.getRow(2).values).toEqual([undefined, 1, "What is 2 + 2?", "Multiple choice", "4", 2, 1, 50, expect.any(Number), "3: 0; 4: 1; 5: 1; 22: 0"]);
  expect(questions.getRow(3).getCell(7).value).toBe(100);
  const players = workbook.getWorksheet("Players")!;
  expect([players.getRow(2).getCell(2).value, players.getRow(3).getCell(2).value]).toEqual(["Ann", "Zoë"]);
  const answers = workbook.getWorksheet("Answers")!;
  expect(answers.rowCount).toBe(1 + 2 * QUESTIONS.length);

  // Another browser finds no such report.
  const stranger = await (await contextWithClientId(browser, `stranger-${randomUUID()}`)).newPage();
  const response = await stranger.goto(host.url());
  expect(response?.status()).toBe(404);
});

test("deleting a report asks first and works without JavaScript", async ({ baseURL, browser, page }) => {
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "Short Night", timeLimit: 30, questions: QUESTIONS.slice(0, 1) });
  const hostContext = await contextWithClientId(browser, hostId);
  await hostContext.addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  const host = await hostContext.newPage();
  await host.goto(`/waiting/${gameCode}`);
  const player = await (await contextWithClientId(browser, `player-${randomUUID()}`)).newPage();
  await player.goto(`/waiting/${gameCode}?nickname=Solo`);
  await expect(host.getByTestId("player-count")).toHaveText("1");
  await host.getByRole("button", { name: "Start Game" }).click();
  await player.getByRole("button", { name: /B\. 4/ }).click();
  await expect(host).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });

  // The host's browser without JavaScript: its client id and the host secret the server set it (docs/decisions/0044).
  const noScript = await contextWithClientId(browser, hostId, { javaScriptEnabled: false });
  await noScript.addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  const plain = await noScript.newPage();
  await plain.goto("/my-games");
  await plain.getByRole("link", { name: /Report of Short Night/ }).click();
  await plain.getByRole("link", { name: "Delete report" }).click();
  await expect(plain.getByRole("heading", { name: "Delete the report of Short Night?" })).toBeVisible();
  await plain.getByRole("button", { name: "Delete for good" }).click();
  await expect(plain).toHaveURL("/my-games?deleted=1");
  await expect(plain.getByText("The report was deleted.")).toBeVisible();
  await expect(plain.getByText("Short Night")).toHaveCount(0);
});
