/** The colour theme: the footer's switch remembers light or dark in a cookie and the server renders it. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function chooseTheme(theme: string, redirectTo: string): Promise<Response> {
  return fetch(`${server.url}/theme`, { method: "POST", body: new URLSearchParams({ theme, redirectTo }), redirect: "manual" });
}

const themeAttribute = (html: string) => /<html[^>]*data-theme="([a-z]+)"/.exec(html)?.[1];

describe("theme", () => {
  it("follows the system until the browser chooses", async () => {
    const html = await (await fetch(`${server.url}/join`)).text();
    expect(themeAttribute(html)).toBe("system");
  });

  it("remembers dark for this browser, goes back to the page, and renders it dark on the server", async () => {
    const response = await chooseTheme("dark", "/join?code=ABC123");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/join?code=ABC123");
    const cookie = response.headers.get("set-cookie")!.split(";")[0];
    expect(cookie).toMatch(/^qn_theme=/);
    const html = await (await fetch(`${server.url}/`, { headers: { cookie } })).text();
    expect(themeAttribute(html)).toBe("dark");
    expect(html).toMatch(/<button[^>]*aria-pressed="true"[^>]*>.*?Dark<\/button>/s);
  });

  it("forgets the choice for system", async () => {
    const response = await chooseTheme("system", "/");
    expect(response.headers.get("set-cookie")).toMatch(/^qn_theme=;.*Max-Age=0/i);
  });

  it("never sends the browser to another site, and refuses an unknown theme", async () => {
    expect((await chooseTheme("light", "//evil.example/")).headers.get("location")).toBe("/");
    expect((await chooseTheme("light", "https://evil.example/")).headers.get("location")).toBe("/");
    expect((await chooseTheme("purple", "/")).status).toBe(400);
  });

  it("ignores a cookie it did not write", async () => {
    const html = await (await fetch(`${server.url}/`, { headers: { cookie: "qn_theme=%22neon%22" } })).text();
    expect(themeAttribute(html)).toBe("system");
  });
});
