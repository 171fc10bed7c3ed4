/**
 * The home, join, host, featured and error pages in the reader's language, straight from the
 * server (docs/decisions/0029-languages.md): their words, their titles, the numbers around a
 * quiz, and a refused join form's message without any script.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGameFixture, startTestServer, type TestServer } from "./harness";

let server: TestServer;
let gameCode: string;
beforeAll(async () => {
  // The demo quizzes are what the home page lists.
  server = await startTestServer({ seedDemo: true });
  ({ gameCode } = await createGameFixture(server, { timeLimit: 30 }));
});
afterAll(() => server.stop());

/** The page's visible text and attributes: its scripts (the inline catalogs carry English's error texts on every page, the loader data a quiz's English message codes) left out. */
function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>.*?<\/script>/gs, "");
}

async function page(pathname: string, language: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${pathname}`, { ...init, headers: { "accept-language": language, ...init.headers } });
  const html = await response.text();
  expect(/<html[^>]*\blang="([a-z-]+)"/.exec(html)?.[1]).toBe(language);
  return { status: response.status, html: withoutScripts(html), title: /<title>(.*?)<\/title>/s.exec(html)?.[1] };
}

const ENGLISH_LEFTOVERS = {
  "/": ["Create AI Quiz", "Join a Quiz", "Why Quiz Night", "Quizzes ready to host", "questions,", "Play it like an app", "How to Install on iPhone"],
  "/join": ["Join a Game", "Game code", "Nickname", "Live games", "Start Game", "per question", ">Open<"],
  "/host": ["Host a Quiz", "Quiz code", "Available quizzes", "Host name", "Host Game"],
  "/featured": ["Featured Quizzes |", "Live Quizzes", "Public quizzes that are live right now"],
} as const;

describe("the home area in German and French", () => {
  it("renders the home page's words and each listed quiz's numbers in German", async () => {
    const { html } = await page("/", "de");
    for (const text of [
      "KI-Quiz erstellen",
      "Quiz beitreten",
      "Warum Quiz Night",
      "Multiplayer in Echtzeit",
      "Quizze bereit zum Leiten",
      "Spiel es wie eine App",
    ])
      expect(html).toContain(text);
    expect(html).toMatch(/<li><strong>[^<]+<\/strong> – \d+ Fragen, je \d+ s<\/li>/);
    for (const text of ENGLISH_LEFTOVERS["/"]) expect(html).not.toContain(text);
  });

  it("renders the join page and its list of live games in German, with its title", async () => {
    const { html, title } = await page("/join", "de");
    expect(title).toBe("Spiel beitreten – Quiz Night");
    for (const text of ["Spielcode", "Spitzname", "Laufende Spiele", "Spiel starten", ">Offen<"]) expect(html).toContain(text);
    expect(html).toContain(`Code <strong>${gameCode}</strong> · 30 s pro Frage`);
    for (const text of ENGLISH_LEFTOVERS["/join"]) expect(html).not.toContain(text);
  });

  it("shows a refused join's message beside its field in the reader's language, without any script", async () => {
    const { status, html } = await page("/join", "fr", {
      method: "POST",
      body: new URLSearchParams({ gameCode: "ZZZZ99", nickname: "Sam" }),
    });
    expect(status).toBe(404);
    expect(html).toMatch(/<p id="gameCode-error" class="field-error">Partie introuvable\. Vérifiez le code et réessayez\.<\/p>/);
    expect(html).not.toContain("Game not found");

    const empty = await page("/join", "de", { method: "POST", body: new URLSearchParams({ gameCode: "", nickname: "" }) });
    expect(empty.html).toContain("Der Code muss 6 Zeichen lang sein");
    expect(empty.html).toContain("Gib einen Spitznamen ein.");
  });

  it("renders the host page in French, with each quiz's question count", async () => {
    const { html, title } = await page("/host", "fr");
    expect(title).toBe("Animer un quiz - Quiz Night");
    for (const text of ["Code du quiz", "Quiz disponibles", "Nom de l’hôte", "Animer la partie", "Test quiz", "3 questions · Public"])
      expect(html).toContain(text);
    for (const text of ENGLISH_LEFTOVERS["/host"]) expect(html).not.toContain(text);

    const refused = await page("/host?index", "fr", { method: "POST", body: new URLSearchParams({ quizCode: "AB", quizId: "", hostName: "S" }) });
    expect(refused.html).toContain("Le nom de l’hôte doit comporter entre 2 et 15 caractères");
  });

  it("renders the featured page's frame in German before its list loads", async () => {
    const { html, title } = await page("/featured", "de");
    expect(title).toBe("Empfohlene Quizze | Quiz Night");
    for (const text of ["Live-Quizze", "Öffentliche Quizze, die gerade live sind", "Quizze werden geladen"]) expect(html).toContain(text);
    for (const text of ENGLISH_LEFTOVERS["/featured"]) expect(html).not.toContain(text);
  });

  it("says a page is not found in the reader's language", async () => {
    const german = await page("/no-such-page", "de");
    expect(german.status).toBe(404);
    expect(german.html).toContain("404 – Seite nicht gefunden");
    expect(german.html).not.toContain("Page Not Found");
    const french = await page("/no-such-page", "fr");
    expect(french.html).toContain("404 Page introuvable");
  });

  it("keeps English for a browser that asks for it", async () => {
    const { html } = await page("/join", "en");
    for (const text of ["Join a Game", "Game code", "Live games", "Only the host can start the game."]) expect(html).toContain(text);
    expect(html).toContain(`Code <strong>${gameCode}</strong> · 30 s per question`);
  });
});
