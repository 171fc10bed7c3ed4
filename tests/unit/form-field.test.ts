/**
 * Every form's messages are shown through `FieldError` / `FormError`, which put the English
 * message of a schema or an action into the page's language (docs/decisions/0029-languages.md).
 */
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FieldError, FormError } from "#app/components/form-field";
import { createCatalogTranslator } from "#app/i18n/translator";
import { TranslatorProvider } from "#app/i18n/use-translation";

const resources = {
  en: { errors: { NICKNAME_REQUIRED: "Enter a nickname.", GAME_NOT_FOUND: "Game not found. Check the code and try again." } },
  de: { errors: { NICKNAME_REQUIRED: "Gib einen Spitznamen ein.", GAME_NOT_FOUND: "Spiel nicht gefunden. Prüfe den Code und versuche es noch einmal." } },
};

function render(language: "en" | "de", element: ReactElement): string {
  return renderToStaticMarkup(createElement(TranslatorProvider, { translator: createCatalogTranslator(language, resources) }, element));
}

describe("FieldError", () => {
  it("shows a schema's English message in the page's language, found by its words", () => {
    expect(render("de", createElement(FieldError, { id: "nickname-error", message: "Enter a nickname." }))).toBe(
      '<p id="nickname-error" class="field-error">Gib einen Spitznamen ein.</p>',
    );
  });

  it("keeps the English text in an English page", () => {
    expect(render("en", createElement(FieldError, { id: "nickname-error", message: "Enter a nickname." }))).toContain(">Enter a nickname.<");
  });

  it("translates by a code whose English text is the message, and shows a message with no code as it came", () => {
    expect(render("de", createElement(FieldError, { id: "e", message: "Game not found. Check the code and try again.", code: "GAME_NOT_FOUND" }))).toContain(
      "Spiel nicht gefunden.",
    );
    expect(render("de", createElement(FieldError, { id: "e", message: "Something nobody catalogued." }))).toContain(">Something nobody catalogued.<");
    // A code whose English text differs (a message with numbers in it) is not used: the reader sees what was sent.
    expect(render("de", createElement(FieldError, { id: "e", message: "Nickname must be at most 9 characters.", code: "NICKNAME_REQUIRED" }))).toContain(
      ">Nickname must be at most 9 characters.<",
    );
  });

  it("renders nothing without a message", () => {
    expect(render("de", createElement(FieldError, { id: "e" }))).toBe("");
  });
});

describe("FormError", () => {
  it("announces a whole-form message in the page's language", () => {
    expect(render("de", createElement(FormError, { message: "Game not found. Check the code and try again." }))).toBe(
      '<p class="form-error" role="alert">Spiel nicht gefunden. Prüfe den Code und versuche es noch einmal.</p>',
    );
  });
});
