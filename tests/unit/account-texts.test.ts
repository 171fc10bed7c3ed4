/**
 * The account pages' texts that live in code: the refusals with values in them (a limit's wait, a
 * plan's name) are said in the reader's language from the code and values they are raised with
 * (docs/decisions/0047-errors-as-codes.md), and the default plans' texts each have their words in
 * the `account` catalog.
 */
import { describe, expect, it } from "vitest";
import { appError } from "#app/i18n/app-error";
import { englishOf } from "#app/i18n/coded";
import { translateError } from "#app/i18n/error-text";
import { serverTranslator } from "#app/i18n/server-i18n.server";
import en from "#app/locales/en/account.json";
import { DEFAULT_LIMIT_RULES, describeWait, LIMIT_CODES } from "#app/limits/rate-limits.server";
import { DEFAULT_PLAN_TEXT_KEYS, DEFAULT_PLANS } from "#app/billing/plans";

type LimitName = keyof typeof DEFAULT_LIMIT_RULES & keyof typeof LIMIT_CODES;

/** A limit's refusal as the server raises it: its code, and its wait in English words. */
const refusal = (name: LimitName, seconds: number) => appError(LIMIT_CODES[name], { wait: describeWait(seconds) });

/** The same refusal as the server words it in English. */
const worded = (name: LimitName, seconds: number) => DEFAULT_LIMIT_RULES[name].message.replace("{wait}", describeWait(seconds));

describe("the sign-in pages' refusals with values in them", () => {
  it("say a limit's wait in the reader's words", () => {
    expect(translateError(serverTranslator("de"), refusal("login", 900))).toBe("Zu viele Versuche. Bitte warte 15 Minuten und versuche es dann noch einmal.");
    expect(translateError(serverTranslator("es"), refusal("loginAddress", 1))).toBe("Demasiados intentos. Espera 1 segundo y vuelve a intentarlo.");
    // French puts a no-break space between a number and its unit.
    expect(translateError(serverTranslator("fr"), refusal("guest", 2 * 3600))).toBe(
      "Trop de sessions invité ont été ouvertes depuis votre réseau. Veuillez réessayer dans 2\u00a0heures.",
    );
    expect(translateError(serverTranslator("de"), refusal("register", 3600))).toBe(
      "Aus deinem Netzwerk wurden zu viele Konten registriert. Bitte versuche es in 60 Minuten noch einmal.",
    );
  });

  it("keep a plan's name as the plans table has it", () => {
    expect(translateError(serverTranslator("es"), appError("ALREADY_ON_PLAN", { plan: "Premium" }))).toBe("Ya tienes el plan Premium.");
  });

  it("stay word for word in English", () => {
    expect(translateError(serverTranslator("en"), refusal("login", 900))).toBe("Too many attempts. Please wait 15 minutes and try again.");
    for (const name of ["login", "loginAddress", "guest", "register"] as const) expect(englishOf(refusal(name, 900))).toBe(worded(name, 900));
    expect(englishOf(appError("ALREADY_ON_PLAN", { plan: "Premium" }))).toBe("You are already on the Premium plan.");
  });
});

function lookUp(catalog: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalog);
}

describe("the default plans' texts", () => {
  it("each have a key in the account catalog whose English is the text itself", () => {
    const texts = DEFAULT_PLANS.flatMap((plan) => [plan.description, ...plan.features]);
    expect([...DEFAULT_PLAN_TEXT_KEYS.keys()].sort()).toEqual([...texts].sort());
    for (const [text, key] of DEFAULT_PLAN_TEXT_KEYS) expect(lookUp(en, key), key).toBe(text);
  });
});
