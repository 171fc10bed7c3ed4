/**
 * The game's ERROR messages in the reader's language: the engine, the transport and the protocol
 * speak English and send the exact catalog key (`key`) and values beside it; every fixed text among
 * them is in the `errors` catalog, and the browser's `useSayError` says it from the key alone
 * (docs/decisions/0047-errors-as-codes.md).
 */
import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { badAnswerKey, badAnswerMessage, MESSAGES } from "#app/game/engine/transition";
import { parseClientMessage } from "#app/game/protocol";
import { MAX_OPTIONS, MIN_OPTIONS } from "#app/game/question-kinds";
import { CATALOGS } from "#app/i18n/catalogs.server";
import { appErrorOf, type AppError } from "#app/i18n/app-error";
import { useSayError } from "#app/i18n/error-text";
import { pageMessages } from "#app/i18n/page-messages.server";
import { createCatalogTranslator } from "#app/i18n/translator";
import { TranslatorProvider } from "#app/i18n/use-translation";
import { LANGUAGES, type Language } from "#app/i18n/languages";
import { GAME_NOT_FOUND } from "#app/game-pages/game-messages";
import { OFFENSIVE_NICKNAME } from "#app/schemas/validation";
import { BAD_DISPLAY_KEY, GAME_CLOSED_MESSAGE, LINK_REPLACED_MESSAGE } from "../../server/game-room";
import { JOIN_LIMIT_KEYS, JOIN_LIMIT_MESSAGES } from "../../server/socket/join-limits";

const englishTexts = new Set(Object.values(CATALOGS.en.errors as Record<string, string>));

/** What `parseClientMessage` says about a frame it refuses. */
function refusal(frame: unknown): string {
  const parsed = parseClientMessage(typeof frame === "string" ? frame : JSON.stringify(frame));
  if (parsed.ok) throw new Error(`accepted ${JSON.stringify(frame)}`);
  return parsed.error;
}

/** The protocol's refusals whose words do not depend on what was sent. */
const PROTOCOL_REFUSALS = [
  refusal("not json"),
  refusal([1, 2]),
  refusal({ payload: {} }),
  refusal({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 0, answerIndex: 1 } }),
  refusal({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: 9 } }),
  refusal({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndexes: "0" } }),
  refusal({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, text: 5 } }),
  refusal({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, text: "x".repeat(401) } }),
  refusal({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, number: "5" } }),
  refusal({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: 1, text: "a" } }),
  refusal({ type: "KICK_PLAYER", payload: { gameCode: "ABC234", playerId: -1 } }),
  refusal({ type: "LOCK_GAME", payload: { gameCode: "ABC234", locked: "yes" } }),
  refusal({ type: "ACCEPT_ANSWER", payload: { gameCode: "ABC234", questionNumber: "1", text: "a" } }),
  refusal({ type: "ACCEPT_ANSWER", payload: { gameCode: "ABC234", questionNumber: 1.5, text: "a" } }),
  refusal({ type: "ACCEPT_ANSWER", payload: { gameCode: "ABC234", questionNumber: 0, text: "a" } }),
  refusal({ type: "ACCEPT_ANSWER", payload: { gameCode: "ABC234", questionNumber: 1, text: "" } }),
  refusal({ type: "SET_PICTURES_ON_PLAYERS", payload: { gameCode: "ABC234", enabled: 1 } }),
  refusal({ type: "WATCH_GAME", payload: { gameCode: "ABC234", key: 5 } }),
  refusal({ type: "WATCH_GAME", payload: { gameCode: "ABC234", key: "" } }),
  refusal({ type: "JOIN_GAME", payload: { gameCode: "ABC234", nickname: "__HOST__", key: "k".repeat(101) } }),
  refusal({ type: "ADD_TEAM", payload: { gameCode: "ABC234", name: " " } }),
  refusal({ type: "ADD_TEAM", payload: { gameCode: "ABC234", name: 4 } }),
  refusal({ type: "ADD_TEAM", payload: { gameCode: "ABC234", name: "t".repeat(25) } }),
  refusal({ type: "CHOOSE_TEAM", payload: { gameCode: "ABC234", team: "a\uD800b" } }),
  refusal({ type: "REMOVE_TEAM", payload: { gameCode: "ABC234", teamId: 0 } }),
  refusal({ type: "SET_BREAK_TIMER", payload: { gameCode: "ABC234", minutes: "5" } }),
  refusal({ type: "SET_BREAK_TIMER", payload: { gameCode: "ABC234", minutes: 2.5 } }),
  refusal({ type: "SET_BREAK_TIMER", payload: { gameCode: "ABC234", minutes: 61 } }),
];

/** `useSayError()(error, message)` as a page in `language` renders it, as the game's toasts and screens show an ERROR. */
function shown(language: Language, message: string, error: AppError | null): string {
  function Probe() {
    return createElement(Fragment, null, useSayError()(error, message));
  }
  return renderToStaticMarkup(
    createElement(TranslatorProvider, { translator: createCatalogTranslator(language, pageMessages(language).resources) }, createElement(Probe)),
  ).replace(/&#x27;/g, "'");
}

/** An ERROR's key and values, as the page reads them. */
const keyed = (key: string, values?: Record<string, string | number>) => appErrorOf({ code: key, values });

describe("the game's error messages", () => {
  it("has every engine refusal, transport refusal and fixed protocol refusal in the errors catalog, word for word", () => {
    const sent = [
      ...Object.values(MESSAGES),
      OFFENSIVE_NICKNAME,
      GAME_NOT_FOUND,
      GAME_CLOSED_MESSAGE,
      BAD_DISPLAY_KEY,
      LINK_REPLACED_MESSAGE,
      ...Object.values(JOIN_LIMIT_MESSAGES),
      "Join the game first.",
      "Something went wrong handling that message.",
      ...PROTOCOL_REFUSALS,
    ];
    expect(sent.filter((text) => !englishTexts.has(text))).toEqual([]);
  });

  it("shows a refusal in the page's language by its key, which names the one text of a family", () => {
    expect(shown("de", MESSAGES.NOT_HOST_KICK, keyed("NOT_HOST_KICK"))).toBe("Nur die Spielleitung kann Spieler entfernen.");
    expect(shown("es", MESSAGES.NOT_HOST, keyed("NOT_HOST"))).toBe("Solo el anfitrión puede iniciar el juego.");
    expect(shown("fr", JOIN_LIMIT_MESSAGES.game, keyed(JOIN_LIMIT_KEYS.game))).toBe(
      "Trop de joueurs rejoignent cette partie en ce moment. Veuillez réessayer dans quelques secondes.",
    );
    expect(shown("en", MESSAGES.KICKED, keyed("KICKED"))).toBe(MESSAGES.KICKED);
    for (const language of LANGUAGES.filter((l) => l !== "en"))
      expect(shown(language, GAME_CLOSED_MESSAGE, keyed("GAME_CLOSED"))).not.toBe(GAME_CLOSED_MESSAGE);
    for (const language of LANGUAGES.filter((l) => l !== "en"))
      expect(shown(language, LINK_REPLACED_MESSAGE, keyed("LINK_REPLACED"))).not.toBe(LINK_REPLACED_MESSAGE);
    // An ERROR sent with no key (an older server) is shown in the words it came with.
    expect(shown("de", MESSAGES.KICKED, null)).toBe(MESSAGES.KICKED);
  });

  it("has the refusal of a question with each number of options (2 to 6) in every language", () => {
    for (let count = MIN_OPTIONS; count <= MAX_OPTIONS; count++) {
      const message = badAnswerMessage(count);
      expect(englishTexts.has(message), message).toBe(true);
      for (const language of LANGUAGES.filter((l) => l !== "en"))
        expect(shown(language, message, keyed(badAnswerKey(count))), `${message} in ${language}`).not.toBe(message);
    }
    // A true-or-false question has two answers.
    expect(shown("de", "Pick one of the two answers.", keyed(badAnswerKey(2)))).toBe("Wähle eine der beiden Antworten.");
  });

  it("gives a refusal that quotes what was sent its values, and shows it in the page's language with them as sent", () => {
    const frames: Array<[unknown, string, Record<string, string>]> = [
      [{ type: "FOO", payload: {} }, "Unknown message type: FOO.", { type: "FOO" }],
      [{ type: 5, payload: {} }, "Unknown message type: 5.", { type: "5" }],
      [{ type: "JOIN_GAME" }, "JOIN_GAME needs a payload object.", { type: "JOIN_GAME" }],
      [{ type: "START_GAME", payload: null }, "START_GAME needs a payload object.", { type: "START_GAME" }],
    ];
    for (const [frame, message, values] of frames) {
      const parsed = parseClientMessage(JSON.stringify(frame));
      expect(parsed).toEqual({ ok: false, error: message, key: expect.any(String), values });
      if (parsed.ok) continue;
      // A client with the catalog says the text from its key and values, without reading the message.
      expect(shown("en", message, keyed(parsed.key, values))).toBe(message);
      for (const language of LANGUAGES.filter((l) => l !== "en")) {
        const text = shown(language, message, keyed(parsed.key, values));
        expect(text, `${message} in ${language}`).not.toBe(message);
        expect(text).toContain(values.type);
      }
    }
    const foo = parseClientMessage(JSON.stringify({ type: "FOO", payload: {} }));
    expect(shown("de", "Unknown message type: FOO.", foo.ok ? null : keyed(foo.key, { type: "FOO" }))).toBe("Unbekannter Nachrichtentyp: FOO.");
    // A key the catalog does not know is shown in the words it came with.
    expect(shown("de", "Something nobody wrote down.", keyed("NOT_A_KEY"))).toBe("Something nobody wrote down.");
  });
});
