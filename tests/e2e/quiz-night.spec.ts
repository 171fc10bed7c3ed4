/**
 * The whole evening of issue 17 in Chromium: a host plans a night of two rounds, plays it in two
 * teams of two, the break shows the running total of players and teams, the podium the evening's,
 * and the night's report shows per question what was answered; its workbook reads back.
 */
import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import type { Page } from "@playwright/test";
import { contextWithClientId, expect, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

test("two teams of two play a two-round night: the break shows the running total, the report the answers given, and its XLSX opens", async ({
  baseURL: origin,
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const baseURL = origin!;
  const hostId = `host-${randomUUID()}`;
  const tag = randomUUID().slice(0, 6);
  const headers = { "x-client-id": hostId };
  for (const [title, question] of [
    [`Sums ${tag}`, { text: "What is 2 + 2?", answers: ["3", "4", "5"], correctAnswerIndex: 1 }],
    [`Planets ${tag}`, { text: "Which planet is red?", answers: ["Mars", "Venus"], correctAnswerIndex: 0 }],
  ] as const) {
    const quiz = await (await page.request.post("/api/quizzes", { data: { title, description: "", timeLimit: 30, isPublic: false }, headers })).json();
    expect((await page.request.post("/api/questions", { data: { quizId: quiz.id, order: 0, ...question }, headers })).status()).toBe(201);
  }

  const hostContext = await contextWithClientId(browser, hostId);
  await hostContext.addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL }]);
  const host = await hostContext.newPage();
  await host.goto("/night/new");
  const round = (n: number) => host.getByRole("group", { name: `Round ${n}` });
  await host.getByLabel("Night title").fill(`Quiz Night ${tag}`);
  await round(1)
    .getByLabel("Quiz")
    .selectOption({ label: `Sums ${tag} · 1 question · Private` });
  await round(2)
    .getByLabel("Quiz")
    .selectOption({ label: `Planets ${tag} · 1 question · Private` });
  await host.getByRole("button", { name: "Host the Night" }).click();
  await expect(host).toHaveURL(/\/waiting\/[A-Z0-9]{6}$/);
  const gameCode = new URL(host.url()).pathname.split("/").pop()!;

  // Two teams, set up by the host; each player picks one on the way in.
  const setup = host.getByRole("region", { name: "Teams" });
  await setup.getByLabel("Play in teams").check();
  for (const name of ["Owls", "Foxes"]) {
    await setup.getByLabel("Team name").fill(name);
    await setup.getByRole("button", { name: "Add team" }).click();
  }
  await expect(setup.getByRole("list", { name: "Teams" }).getByRole("listitem")).toHaveCount(2);
  const players: Record<string, Page> = {};
  for (const [name, team] of [
    ["Ann", "Owls"],
    ["Ben", "Owls"],
    ["Cat", "Foxes"],
    ["Dan", "Foxes"],
  ]) {
    const player = await (await contextWithClientId(browser, `player-${randomUUID()}`, { viewport: PHONE })).newPage();
    await player.goto(`/waiting/${gameCode}?nickname=${name}&team=${team}`);
    await expect(player.getByTestId("my-team")).toHaveText(`You play for ${team}`);
    players[name] = player;
  }
  await expect(host.getByTestId("player-count")).toHaveText("4");
  await host.getByRole("button", { name: "Start Game" }).click();

  // Round 1: three of four right (Ben wrong).
  for (const [name, pick] of [
    ["Ann", /B\. 4/],
    ["Ben", /A\. 3/],
    ["Cat", /B\. 4/],
    ["Dan", /B\. 4/],
  ] as const) {
    await expect(players[name]).toHaveURL(`/play/${gameCode}`);
    await players[name].getByRole("button", { name: pick }).click();
  }

  // The break: the running total of players and of teams, on every screen.
  for (const screen of [host, players.Ann]) {
    await expect(screen).toHaveURL(`/break/${gameCode}`, { timeout: 20_000 });
    await expect(screen.getByRole("heading", { level: 1 })).toHaveText(`Round 1 of 2 complete: Sums ${tag}`);
  }
  const total = players.Ann.getByRole("list", { name: "Players' running total" });
  for (const name of ["Ann", "Ben", "Cat", "Dan"]) await expect(total).toContainText(name);
  // Foxes answered right twice, Owls once in two: the Foxes lead.
  await expect(players.Cat.getByText("Foxes").first()).toBeVisible();
  await expect(players.Ben.getByTestId("own-place")).toContainText("You are #4 of 4 with 0 points");
  await expect(players.Ben.getByTestId("own-place")).toContainText(/Your team Owls is #2 with \d+ points/);
  await expect(players.Dan.getByTestId("own-place")).toContainText(/Your team Foxes is #1 with \d+ points/);
  await expect(host.getByText(/Foxes/).first()).toBeVisible();
  await host.getByRole("button", { name: `Start round 2: Planets ${tag}` }).click();

  // Round 2: Owls both right, Foxes both wrong.
  for (const [name, pick] of [
    ["Ann", /A\. Mars/],
    ["Ben", /A\. Mars/],
    ["Cat", /B\. Venus/],
    ["Dan", /B\. Venus/],
  ] as const) {
    await expect(players[name]).toHaveURL(`/play/${gameCode}`);
    await players[name].getByRole("button", { name: pick }).click();
  }
  await expect(host).toHaveURL(`/results/${gameCode}`, { timeout: 20_000 });
  await expect(host.getByRole("heading", { name: "Game Complete" })).toBeVisible();
  await expect(host.getByText(`Round 1: Sums ${tag}`).first()).toBeVisible();

  // The night's report, from My Games.
  await host.getByRole("link", { name: "My Games" }).click();
  await host.getByRole("link", { name: new RegExp(`Report of Quiz Night ${tag}`) }).click();
  await expect(host.getByRole("heading", { level: 1, name: `Quiz Night ${tag}` })).toBeVisible();
  const sums = host.getByRole("listitem").filter({ has: host.getByRole("heading", { name: /What is 2 \+ 2\?/ }) });
  await expect(sums).toContainText("3 of 4 right (75%)");
  await expect(sums.getByRole("table").getByRole("row", { name: /^4/ })).toContainText("3");
  const planets = host.getByRole("listitem").filter({ has: host.getByRole("heading", { name: /Which planet is red\?/ }) });
  await expect(planets).toContainText("2 of 4 right (50%)");
  await expect(host.getByRole("heading", { name: "Teams" }).first()).toBeVisible();

  const download = host.waitForEvent("download");
  await host.getByRole("link", { name: "Excel workbook (XLSX)" }).click();
  const bytes = Buffer.concat(await (await (await download).createReadStream()).toArray());
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const answers = workbook.getWorksheet("Answers")!;
  expect(answers.rowCount).toBe(1 + 4 * 2);
  const header = (answers.getRow(1).values as unknown[]).filter(Boolean);
  expect(header).toEqual(expect.arrayContaining(["Team", "Round"]));
  const teams = workbook.getWorksheet("Teams")!;
  const teamNames = [teams.getRow(2), teams.getRow(3)].map((row) => (row.values as unknown[]).find((value) => value === "Owls" || value === "Foxes"));
  expect(teamNames.sort()).toEqual(["Foxes", "Owls"]);
});
