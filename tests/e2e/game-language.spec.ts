import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";
import { ScreenHold } from "./screen-hold";

/**
 * Issue 16 in a live game: browsers that ask for German (Accept-Language de, from the context's
 * locale) get the lobby, the questions, the reveal and the podium in German, on the host's screen
 * and the players', including what the game socket brings in after the page has loaded.
 */

const GERMAN = { locale: "de-DE" } as const;
const QUESTIONS = [
  { text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
];

/**
 * A player's phone in German, in the lobby through the join link's no-JavaScript path (`?nickname=`),
 * its game screens held in `holds` when given.
 */
async function germanPlayer(browser: Browser, gameCode: string, nickname: string, holds?: ScreenHold[]): Promise<Page> {
  const context = await contextWithClientId(browser, `player-${randomUUID()}`, { ...GERMAN, viewport: { width: 390, height: 844 } });
  if (holds) holds.push(await ScreenHold.on(context));
  const player = await context.newPage();
  await player.goto(`/waiting/${gameCode}?nickname=${nickname}`);
  return player;
}

test("a game in German: lobby, question, reveal, leaderboard and podium on the host's and the players' screens", async ({ baseURL, browser, page }) => {
  test.setTimeout(120_000);
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "Quizabend", timeLimit: 20, questions: QUESTIONS });
  const hostContext = await contextWithClientId(browser, hostId, GERMAN);
  // The reveal and the leaderboard are read on three screens at once: each is held up until it has been read.
  const holds = [await ScreenHold.on(hostContext)];
  const host = await hostContext.newPage();
  await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);

  // The lobby, rendered in German on the server.
  await host.goto(`/waiting/${gameCode}`);
  await expect(host.locator("html")).toHaveAttribute("lang", "de");
  await expect(host).toHaveTitle(`Warteraum ${gameCode} · Quiz Night`);
  await expect(host.getByRole("heading", { name: "Spielcode" })).toBeVisible();
  await expect(host.getByLabel(/^Spielcode /)).toHaveText(gameCode);
  await expect(host.getByText("Noch keine Spieler. Teile den Code!")).toBeVisible();
  await host.getByRole("button", { name: "Spiel starten" }).click();
  await expect(host.locator(".toast-title")).toHaveText("Keine Spieler");
  await expect(host.locator(".toast-description")).toHaveText("Warte, bis Spieler beigetreten sind, bevor du das Spiel startest.");

  const ann = await germanPlayer(browser, gameCode, "Ann", holds);
  await expect(ann.locator("html")).toHaveAttribute("lang", "de");
  await expect(ann.getByText("Warte, bis die Spielleitung das Spiel startet...")).toBeVisible();
  const bob = await germanPlayer(browser, gameCode, "Bob", holds);
  await expect(bob.getByText("Warte, bis die Spielleitung das Spiel startet...")).toBeVisible();
  await expect(host.getByTestId("player-count")).toHaveText("2");
  await expect(host.getByRole("list", { name: "Spieler" }).getByText("Ann")).toBeVisible();

  // The game's refusal (an ERROR with its code) reaches a German browser in German.
  const copycat = await germanPlayer(browser, gameCode, "ann");
  await expect(copycat.locator(".toast-title")).toHaveText("Spielfehler");
  await expect(copycat.locator(".toast-description")).toHaveText("Dieser Spitzname ist schon vergeben");
  await expect(copycat.getByRole("link", { name: "Diesem Spiel beitreten" })).toBeVisible();

  // The first question; the quiz's own words stay as written.
  await host.getByRole("button", { name: "Spiel starten" }).click();
  await expect(host).toHaveURL(`/host/${gameCode}`);
  await expect(host.getByRole("heading", { name: "Frage 1 von 2" })).toBeVisible();
  await expect(host.getByRole("heading", { name: "Antworten live" })).toBeVisible();
  await expect(host.getByTestId("answered-count")).toHaveText("0 von 2 haben geantwortet");
  await expect(host.getByText("Die Antwortverteilung erscheint, sobald die Frage schließt.")).toBeVisible();
  await expect(host.getByRole("button", { name: "Überspringen" })).toBeVisible();
  await expect(ann).toHaveURL(`/play/${gameCode}`);
  await expect(ann).toHaveTitle("Spielen · Quiz Night");
  await expect(ann.getByRole("heading", { name: "Frage 1 von 2" })).toBeVisible();
  await expect(ann.getByText("What is 2 + 2?")).toBeVisible();
  await expect(ann.getByRole("timer")).toHaveAttribute("aria-label", /^Verbleibende Zeit: \d+ Sekunden$/);
  await expect(ann.getByText("Tipp: Drücke 1-4 oder A-D, um zu antworten.")).toBeVisible();
  await ann.getByRole("group", { name: "Antworten" }).getByRole("button", { name: /B\. 4/ }).click();
  await expect(ann.getByText("Antwort abgegeben! Warte auf die anderen...")).toBeVisible();
  await expect(host.getByTestId("answered-count")).toHaveText("1 von 2 hat geantwortet");
  for (const hold of holds) hold.holdFrom("LEADERBOARD_UPDATE");
  await bob.getByRole("button", { name: /C\. 5/ }).click();

  // The reveal, on all three screens at once.
  await Promise.all([
    (async () => {
      await expect(ann.getByRole("heading", { name: "Richtig!" })).toBeVisible();
      await expect(ann.getByRole("status").filter({ hasText: "Du bist auf" })).toHaveText(/^Du bist auf Platz 1 mit \d+ Punkten$/);
    })(),
    (async () => {
      await expect(bob.getByRole("heading", { name: "Falsch" })).toBeVisible();
      await expect(bob.getByText("Die richtige Antwort war B. 4")).toBeVisible();
    })(),
    expect(host.getByLabel("Antwortverteilung")).toContainText("50 % (1)"),
  ]);
  for (const hold of holds) hold.release("QUESTION_STARTED");

  // The leaderboard counts down in German.
  await expect(ann).toHaveURL(`/leaderboard/${gameCode}`);
  await expect(ann.getByRole("heading", { name: "Rangliste" })).toBeVisible();
  await expect(ann.getByText("Frage 1 von 2 beendet")).toBeVisible();
  await expect(ann.getByText(/^Nächste Frage in \d Sekunden?\.\.\.$/)).toBeVisible();
  await expect(host.getByRole("button", { name: "Nächste Frage" })).toBeVisible();
  for (const hold of holds) hold.release();

  // The second question, then the podium.
  await expect(ann).toHaveURL(`/play/${gameCode}`, { timeout: 10_000 });
  await ann.getByRole("button", { name: /A\. Paris/ }).click();
  await bob.getByRole("button", { name: /B\. Rome/ }).click();
  for (const screen of [host, ann, bob]) await expect(screen).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });
  await expect(host.getByRole("heading", { name: "Spiel beendet" })).toBeVisible();
  await expect(host.getByLabel("Siegertreppchen")).toContainText("Ann");
  await expect(host.getByLabel("Siegertreppchen")).toContainText("Pkt.");
  const finalScore = (await ann.getByRole("list", { name: "Alle Spieler" }).locator(".score").first().textContent())!;
  await expect(ann.getByTestId("own-rank")).toHaveText(`Du landest auf Platz 1 von 2 mit ${finalScore} Punkten`);
  await expect(bob.getByRole("button", { name: "Startseite" })).toBeVisible();
  await expect(bob.getByRole("button", { name: "Nochmal spielen" })).toHaveCount(0);

  // The host's spreadsheet is written in the page, so its header is German too.
  const download = host.waitForEvent("download");
  await host.getByRole("button", { name: "CSV herunterladen" }).click();
  const csv = Buffer.concat(await (await (await download).createReadStream()).toArray()).toString();
  expect(csv).toMatch(/^\uFEFFPlatz,Spitzname,Punkte,Richtige Antworten,Beantwortet\n1,Ann,\d+,2,2\n/);
  await expect(host.getByRole("button", { name: "Nochmal spielen" })).toBeVisible();
});
