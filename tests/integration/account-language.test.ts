/**
 * Sign in, My Account and the plans in the reader's language (issue 16): rendered on the server
 * from Accept-Language with the words of the `account` catalog, refusals of the sign-in form said
 * in that language (a wait in its own words), while the API keeps answering in English with a code.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "#tests/log-capture";
import { signInAs, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/**
 * The page as a reader sees it: without its scripts (the inline catalogs carry English error texts
 * for every page, the loader data a plan's texts as the database holds them) and React's text separators.
 */
function visible(html: string): string {
  return html.replace(/<script\b[^>]*>.*?<\/script>/gs, "").replaceAll("<!-- -->", "");
}

async function page(pathname: string, language: string, cookie?: string, target: TestServer = server) {
  const response = await fetch(`${target.url}${pathname}`, { headers: { "accept-language": language, ...(cookie ? { cookie } : {}) } });
  expect(response.status).toBe(200);
  return visible(await response.text());
}

/** A form post as the page makes it without JavaScript. */
async function post(target: TestServer, pathname: string, form: Record<string, string>, language: string, cookie?: string) {
  const response = await fetch(`${target.url}${pathname}`, {
    method: "POST",
    headers: { "accept-language": language, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  return { status: response.status, html: visible(await response.text()) };
}

const price = (amount: number, language: string) =>
  new Intl.NumberFormat(language, { style: "currency", currency: "USD", minimumFractionDigits: Number.isInteger(amount) ? 0 : 2 }).format(amount);

const PAGES = {
  de: {
    auth: [
      "<title>Anmelden - Quiz Night</title>",
      "Willkommen bei Quiz Night",
      "Als Gast fortfahren",
      "Weiter mit Google",
      "Passwort bestätigen",
      "Premium-Vorteile",
    ],
    account: [
      "<title>Mein Konto - Quiz Night</title>",
      "Mein Konto",
      "Anzeigename",
      "Passwort ändern",
      "Konto löschen",
      "Noch nicht in deinem Konto gespeichert",
    ],
    subscription: ["<title>Tarife | Quiz Night</title>", "Wähle deinen Tarif", "/ Monat", "KI-Quizze pro Tag", "Alles aus Free", "Standard abonnieren"],
  },
  es: {
    auth: [
      "<title>Iniciar sesión - Quiz Night</title>",
      "Te damos la bienvenida a Quiz Night",
      "Continuar como invitado",
      "Continuar con Google",
      "Confirmar contraseña",
    ],
    account: ["<title>Mi cuenta - Quiz Night</title>", "Mi cuenta", "Nombre visible", "Cambiar la contraseña", "Eliminar la cuenta", "Idioma"],
    subscription: ["<title>Planes | Quiz Night</title>", "Elige tu plan", "/ mes", "cuestionarios con IA al día", "Todo lo de Free", "Suscribirse a Standard"],
  },
} as const;

/** English words of each page that must not be left in a translated one. */
const ENGLISH = {
  auth: ["Welcome to Quiz Night", "Continue as Guest", "Continue with Google", "Confirm Password", "Premium benefits", "Guests have limited access"],
  account: ["My Account", "Display name", "Change password", "Delete account", "AI quizzes left today", "Not saved on your account"],
  subscription: ["Choose your plan", "/ month", "AI quizzes per day", "Everything in Free", "Subscribe to", "Plans are billed monthly"],
};

describe("the account pages in the reader's language", () => {
  for (const language of ["de", "es"] as const) {
    it(`renders sign in, My Account and the plans in ${language} from Accept-Language, with no English left`, async () => {
      const user = await signInAs(server);
      const html = {
        auth: await page("/auth", language),
        account: await page("/account", language, user.cookie),
        subscription: await page("/subscription", language),
      };
      for (const name of ["auth", "account", "subscription"] as const) {
        for (const words of PAGES[language][name]) expect(html[name], `${name}: ${words}`).toContain(words);
        for (const words of ENGLISH[name]) expect(html[name], `${name}: ${words}`).not.toContain(words);
      }
      // Prices in the page's way of writing them; plan names are product names.
      expect(html.subscription).toContain(`<strong>${price(4.99, language)}</strong>`);
      expect(html.subscription).toContain(">Premium</h2>");
    });
  }

  it("shows on My Account the language saved on the account, the same choice as the footer's", async () => {
    const user = await signInAs(server);
    const chosen = await post(server, "/language", { language: "de", redirectTo: "/account" }, "en", user.cookie);
    expect(chosen.status).toBe(302);
    // Another browser of the same user: no language cookie, an English Accept-Language.
    const html = await page("/account", "en", user.cookie);
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('In deinem Konto gespeichert: <strong lang="de">Deutsch</strong>');
    // In the section named by its heading; the form has no name of its own, which would repeat the footer's form landmark.
    expect(html).toMatch(/<section[^>]*aria-labelledby="language-heading"[^>]*>(?:(?!<\/section>).)*<form [^>]*action="\/language"/s);
    expect(html).toMatch(/<button[^>]*value="de"[^>]*lang="de"[^>]*aria-pressed="true"[^>]*>Deutsch<\/button>/);
  });
});

describe("refusals of the sign-in form", () => {
  it("says a wrong password, a field's rule and a wait in German", async () => {
    const email = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const wrong = await post(server, "/auth", { intent: "login", email, password: "wrong-password" }, "de");
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain("E-Mail-Adresse oder Passwort ist falsch");
    expect(wrong.html).not.toContain("Invalid email or password");

    const short = await post(server, "/auth", { intent: "register", username: "ab", email, password: "secret-password", confirmPassword: "x" }, "de");
    expect(short.status).toBe(400);
    expect(short.html).toContain("Der Benutzername muss mindestens 3 Zeichen lang sein");
    expect(short.html).toContain("Die Passwörter stimmen nicht überein");

    for (let attempt = 2; attempt <= 10; attempt++) await post(server, "/auth", { intent: "login", email, password: "wrong-password" }, "de");
    const blocked = await post(server, "/auth", { intent: "login", email, password: "wrong-password" }, "de");
    expect(blocked.status).toBe(429);
    expect(blocked.html).toContain("Zu viele Versuche. Bitte warte 15 Minuten und versuche es dann noch einmal.");
    expect(blocked.html).not.toContain("Too many attempts");
  });

  it("says beside 'Continue as Guest' why it was refused, with the wait in Spanish", async () => {
    const limited = await startTestServer({ limits: { guestsPerIpPerHour: 1 } });
    try {
      expect((await post(limited, "/auth", { intent: "guest" }, "es")).status).toBe(302);
      const refused = await post(limited, "/auth", { intent: "guest" }, "es");
      expect(refused.status).toBe(429);
      expect(refused.html).toMatch(
        /<p class="form-error" role="alert">Se han iniciado demasiadas sesiones de invitado desde tu red\. Vuelve a intentarlo dentro de \d+ minutos\.<\/p>/,
      );
    } finally {
      await limited.stop();
    }
  });
});

describe("when the server fails", () => {
  it("My Account and 'Continue as Guest' say so in the page's language", async () => {
    const broken = await startTestServer({ logger: captureLogs().logger });
    try {
      const user = await signInAs(broken);
      await sql`drop table ai_generations`.execute(broken.db);
      expect(await page("/account", "de", user.cookie, broken)).toContain("<dd>Das Quiz-Limit konnte nicht geprüft werden</dd>");
      await sql`drop table sessions`.execute(broken.db);
      const guest = await post(broken, "/auth", { intent: "guest" }, "de");
      expect(guest.status).toBe(500);
      expect(guest.html).toContain('<p class="form-error" role="alert">Authentifizierung fehlgeschlagen</p>');
    } finally {
      await broken.stop();
    }
  });
});

describe("the API", () => {
  it("answers in English, with the code of a message the catalog knows, and the values of one built with them, whatever the browser's language", async () => {
    const headers = { "accept-language": "de" };
    const signedOut = await server.api("/api/subscription/create-session", { body: { planId: 2 }, headers });
    expect(signedOut).toEqual({ status: 401, body: { error: "You need to be signed in to subscribe to a plan.", code: "SIGN_IN_TO_SUBSCRIBE" } });

    const user = await signInAs(server);
    const already = await server.api("/api/subscription/create-session", { body: { planId: 1 }, headers: { ...headers, cookie: user.cookie } });
    expect(already).toEqual({ status: 409, body: { error: "You are already on the Free plan.", code: "ALREADY_ON_PLAN", values: { plan: "Free" } } });
  });

  it("and the plans page says the same refusals in the page's language when posted without JavaScript, a plan's name kept", async () => {
    const refused = await post(server, "/subscription", { intent: "subscribe", planId: "2" }, "fr");
    expect(refused.status).toBe(401);
    expect(refused.html).toContain("Veuillez vous connecter : Vous devez être connecté pour souscrire une offre.");
    expect(refused.html).toMatch(/<a [^>]*href="\/auth\?redirectTo=%2Fsubscription">Se connecter<\/a>/);

    const user = await signInAs(server);
    const already = await post(server, "/subscription", { intent: "subscribe", planId: "1" }, "fr", user.cookie);
    expect(already.status).toBe(409);
    expect(already.html).toContain("Erreur : Vous avez déjà l’offre Free.");
  });
});
