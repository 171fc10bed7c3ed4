/**
 * The interface's language: the footer switcher's choice (a cookie, and the account when signed
 * in), else the browser's Accept-Language, else English; the server renders the page in it, with
 * `<html lang>` and the page's catalogs inline, so nothing flashes in another language.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAs, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const htmlLang = (html: string) => /<html[^>]*\blang="([a-z-]+)"/i.exec(html)?.[1];

async function page(pathname: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${pathname}`, { headers });
  return { response, html: await response.text() };
}

async function choose(language: string, redirectTo: string, cookie?: string): Promise<Response> {
  return fetch(`${server.url}/language`, {
    method: "POST",
    body: new URLSearchParams({ language, redirectTo }),
    headers: cookie ? { cookie } : {},
    redirect: "manual",
  });
}

const FOOTER = { en: "All rights reserved.", de: "Alle Rechte vorbehalten.", es: "Todos los derechos reservados.", fr: "Tous droits réservés." } as const;

describe("language", () => {
  it("speaks English to a browser that asks for nothing we have", async () => {
    for (const headers of [{}, { "accept-language": "ja, zh;q=0.8" }] as Record<string, string>[]) {
      const { response, html } = await page("/join", headers);
      expect(htmlLang(html)).toBe("en");
      expect(response.headers.get("content-language")).toBe("en");
      expect(html).toContain(FOOTER.en);
    }
  });

  it.each([
    ["de-AT, de;q=0.9, en;q=0.5", "de"],
    ["es-419,es;q=0.9", "es"],
    ["fr-CA", "fr"],
    ["ja, fr;q=0.7, de;q=0.3", "fr"],
  ] as const)("renders the page in the browser's language on the server (Accept-Language %s -> %s)", async (acceptLanguage, language) => {
    const { response, html } = await page("/", { "accept-language": acceptLanguage });
    expect(htmlLang(html)).toBe(language);
    expect(response.headers.get("content-language")).toBe(language);
    expect(html).toContain(FOOTER[language]);
    expect(html).not.toContain(FOOTER.en);
    // The page carries its own catalogs, so the browser hydrates with the same words.
    const inline = /<script id="qn-messages" type="application\/json"[^>]*>(.*?)<\/script>/s.exec(html)?.[1];
    expect(JSON.parse(inline!).language).toBe(language);
  });

  it("follows the switcher's choice over the browser's, remembers it in a cookie, and goes back to the page", async () => {
    const response = await choose("es", "/join?code=ABC123");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/join?code=ABC123");
    const cookie = response.headers.get("set-cookie")!.split(";")[0];
    expect(cookie).toMatch(/^qn_lang=/);
    const { html } = await page("/", { cookie, "accept-language": "de" });
    expect(htmlLang(html)).toBe("es");
    expect(html).toContain(FOOTER.es);
    expect(html).toMatch(
      /<button[^>]*lang="es"[^>]*aria-pressed="true"[^>]*>Español<\/button>|<button[^>]*aria-pressed="true"[^>]*lang="es"[^>]*>Español<\/button>/,
    );
  });

  it("remembers a signed-in user's choice on the account, so another browser of theirs speaks it", async () => {
    const user = await signInAs(server);
    expect((await choose("fr", "/", user.cookie)).status).toBe(302);
    const row = await server.db.selectFrom("users").select("language").where("id", "=", user.user.id).executeTakeFirstOrThrow();
    expect(row.language).toBe("fr");
    // A browser with only the session cookie (no language cookie) and an English Accept-Language.
    const { html } = await page("/", { cookie: user.cookie, "accept-language": "en" });
    expect(htmlLang(html)).toBe("fr");
  });

  it("refuses a language it does not speak, never redirects off the site, and ignores a cookie it did not write", async () => {
    expect((await choose("xx", "/")).status).toBe(400);
    expect((await choose("de", "//evil.example/")).headers.get("location")).toBe("/");
    const { html } = await page("/", { cookie: "qn_lang=%22klingon%22", "accept-language": "de" });
    expect(htmlLang(html)).toBe("de");
  });

  it("keeps the API's messages in English, with a code the interface translates", async () => {
    const response = await fetch(`${server.url}/api/quizzes`, {
      method: "POST",
      headers: { "accept-language": "de", "content-type": "application/json" },
      body: JSON.stringify({ padding: "x".repeat(70 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Request body is too large.", code: "BODY_TOO_LARGE" });
  });

  it("gives the server's own refusals in front of the app (another site, no length, too large) their codes too", async () => {
    const post = (headers: Record<string, string>, body: BodyInit) =>
      fetch(`${server.url}/api/quizzes`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body, duplex: "half" } as RequestInit);
    const crossSite = await post({ origin: "https://evil.example" }, "{}");
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ error: "Cross-site requests are not allowed.", code: "CROSS_SITE_REFUSED" });
    const streamed = await post(
      {},
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("{}"));
          controller.close();
        },
      }),
    );
    expect(streamed.status).toBe(411);
    expect(await streamed.json()).toEqual({ error: "Send the request with a Content-Length.", code: "CONTENT_LENGTH_REQUIRED" });
    const huge = await post({}, JSON.stringify({ padding: "x".repeat(1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ error: "Request body is too large.", code: "BODY_TOO_LARGE" });
  });
});
