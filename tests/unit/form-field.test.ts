/**
 * Every form's messages are shown through `FieldError` / `FormError`, which say the message of a
 * schema or an action in the page's language from the code it was raised with
 * (docs/decisions/0047-errors-as-codes.md).
 */
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FieldError, FormError } from "#app/components/form-field";
import { appError } from "#app/i18n/app-error";
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
  it("shows a schema's message in the page's language, from the code it was raised with", () => {
    expect(render("de", createElement(FieldError, { id: "nickname-error", message: "Enter a nickname.", error: appError("NICKNAME_REQUIRED") }))).toBe(
      '<p id="nickname-error" class="field-error">Gib einen Spitznamen ein.</p>',
    );
  });

  it("keeps the English text in an English page", () => {
    expect(render("en", createElement(FieldError, { id: "nickname-error", message: "Enter a nickname.", error: appError("NICKNAME_REQUIRED") }))).toContain(
      ">Enter a nickname.<",
    );
  });

  it("shows a message with no code as it came, never finding a code for its words", () => {
    expect(render("de", createElement(FieldError, { id: "e", message: "Something nobody catalogued." }))).toContain(">Something nobody catalogued.<");
    // The words alone are not read: a message the catalog has, sent without its code, stays as it came.
    expect(render("de", createElement(FieldError, { id: "e", message: "Enter a nickname." }))).toContain(">Enter a nickname.<");
  });

  it("renders nothing without a message", () => {
    expect(render("de", createElement(FieldError, { id: "e" }))).toBe("");
  });
});

describe("FormError", () => {
  it("announces a whole-form message in the page's language", () => {
    expect(render("de", createElement(FormError, { message: "Game not found. Check the code and try again.", error: appError("GAME_NOT_FOUND") }))).toBe(
      '<p class="form-error" role="alert">Spiel nicht gefunden. Prüfe den Code und versuche es noch einmal.</p>',
    );
  });
});
