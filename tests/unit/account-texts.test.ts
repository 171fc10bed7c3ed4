/**
 * The account pages' texts that live in code: the refusals with values in them (a limit's wait, a
 * plan's name) are found by their English words and said in the reader's language, and the default
 * plans' texts each have their words in the `account` catalog.
 */
import { describe, expect, it } from "vitest";
import { errorTextIn } from "#app/i18n/error-templates";
import { serverTranslator } from "#app/i18n/server-i18n.server";
import en from "#app/locales/en/account.json";
import { DEFAULT_LIMIT_RULES, describeWait } from "#app/limits/rate-limits.server";
import { DEFAULT_PLAN_TEXT_KEYS, DEFAULT_PLANS } from "#app/billing/plans";

/** A limit's refusal as the server words it. */
const refusal = (name: keyof typeof DEFAULT_LIMIT_RULES, seconds: number) => DEFAULT_LIMIT_RULES[name].message.replace("{wait}", describeWait(seconds));

describe("the sign-in pages' refusals with values in them", () => {
  it("say a limit's wait in the reader's words", () => {
    expect(errorTextIn(serverTranslator("de"), refusal("login", 900))).toBe("Zu viele Versuche. Bitte warte 15 Minuten und versuche es dann noch einmal.");
    expect(errorTextIn(serverTranslator("es"), refusal("loginAddress", 1))).toBe("Demasiados intentos. Espera 1 segundo y vuelve a intentarlo.");
    // French puts a no-break space between a number and its unit.
    expect(errorTextIn(serverTranslator("fr"), refusal("guest", 2 * 3600))).toBe(
      "Trop de sessions invité ont été ouvertes depuis votre réseau. Veuillez réessayer dans 2\u00a0heures.",
    );
    expect(errorTextIn(serverTranslator("de"), refusal("register", 3600))).toBe(
      "Aus deinem Netzwerk wurden zu viele Konten registriert. Bitte versuche es in 60 Minuten noch einmal.",
    );
  });

  it("keep a plan's name as the plans table has it", () => {
    expect(errorTextIn(serverTranslator("es"), "You are already on the Premium plan.")).toBe("Ya tienes el plan Premium.");
  });

  it("stay word for word in English", () => {
    expect(errorTextIn(serverTranslator("en"), refusal("login", 900))).toBe("Too many attempts. Please wait 15 minutes and try again.");
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
