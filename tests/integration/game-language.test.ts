/**
 * The game's screens as the server renders them (before the socket brings the game in): in the
 * language the browser asks for, with the quiz's own words left as written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserCookie, createGameFixture, startTestServer, type QuizFixture, type TestServer } from "./harness";

let server: TestServer;
let game: QuizFixture;
beforeAll(async () => {
  server = await startTestServer();
  game = await createGameFixture(server);
});
afterAll(() => server.stop());

async function page(pathname: string, acceptLanguage: string, clientId?: string): Promise<string> {
  const headers: Record<string, string> = { "accept-language": acceptLanguage };
  if (clientId) headers.cookie = browserCookie(clientId);
  const response = await fetch(`${server.url}${pathname}`, { headers, redirect: "manual" });
  expect(response.status).toBe(200);
  return response.text();
}

const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe("the game's screens in the browser's language", () => {
  it.each([
    ["en", { title: "Lobby CODE · Quiz Night", gameCode: "Game code", joinAt: "Join at", start: "Start Game" }],
    ["de", { title: "Warteraum CODE · Quiz Night", gameCode: "Spielcode", joinAt: "Beitreten unter", start: "Spiel starten" }],
    ["es", { title: "Sala CODE · Quiz Night", gameCode: "Código del juego", joinAt: "Únete en", start: "Iniciar juego" }],
    ["fr", { title: "Salle d’attente CODE · Quiz Night", gameCode: "Code de la partie", joinAt: "Rejoindre sur", start: "Lancer la partie" }],
  ] as const)("renders the lobby in %s", async (language, words) => {
    const html = await page(`/waiting/${game.gameCode}`, language);
    expect(title(html)).toBe(words.title.replace("CODE", game.gameCode));
    expect(html).toContain(`>${words.gameCode}</h1>`);
    expect(html).toContain(`aria-label="${words.gameCode} ${game.gameCode.split("").join(" ")}"`);
    expect(html).toContain(`<span>${words.joinAt}</span>`);
    // The quiz's title is the author's.
    expect(html).toContain("Test quiz");
    if (language !== "en") for (const english of ["Game code", "Join at", "No players yet"]) expect(html).not.toContain(english);
  });

  it("renders a player's screen and the host's, before the game reaches them, in the browser's language", async () => {
    const play = await page(`/play/${game.gameCode}`, "de-AT,de;q=0.9");
    expect(title(play)).toBe("Spielen · Quiz Night");
    expect(play).toContain(`Verbinde mit Spiel ${game.gameCode}...`);
    expect(play).toContain(`Noch nicht in diesem Spiel? <a href="/join?code=${game.gameCode}">Tritt mit einem Spitznamen bei</a>.`);
    expect(play).not.toContain("Connecting to game");

    const host = await page(`/host/${game.gameCode}`, "es", game.hostClientId);
    expect(title(host)).toBe("Anfitrión · Quiz Night");
    expect(host).toContain(`Conectando al juego ${game.gameCode}...`);
    expect(host).toContain(`<a href="/join?code=${game.gameCode}">Únete con un apodo</a>`);
  });
});
