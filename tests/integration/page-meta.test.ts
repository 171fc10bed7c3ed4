/** What every page's head tells a search engine or a link preview: its own title and the site's description. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGameFixture, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const descriptions = (html: string) => [...html.matchAll(/<meta name="description" content="([^"]*)"\/?>/g)].map((match) => match[1]);
const titles = (html: string) => [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => match[1]);

describe("page meta", () => {
  it("gives every page, whatever title its route sets, one description (Lighthouse's SEO audit meta-description)", async () => {
    const { gameCode } = await createGameFixture(server);
    const pages = ["/", "/join", "/featured", "/host", "/auth", `/play/${gameCode}`, `/waiting/${gameCode}`, "/no-such-page"];
    for (const pathname of pages) {
      const html = await (await fetch(server.url + pathname)).text();
      expect(descriptions(html), pathname).toEqual(["Live multiplayer quizzes for clubs, classrooms and pubs."]);
      expect(titles(html), pathname).toHaveLength(1);
    }
  });

  it("keeps each route's own title", async () => {
    expect(titles(await (await fetch(`${server.url}/join`)).text())).toEqual(["Join a Game - Quiz Night"]);
    expect(titles(await (await fetch(`${server.url}/`)).text())).toEqual(["Quiz Night"]);
  });
});
