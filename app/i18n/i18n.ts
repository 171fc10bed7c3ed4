/**
 * How a page's words reach the browser: the server renders with its translator, and puts the
 * page's catalogs into the page as inline JSON (`MessagesScript`), from which the browser's entry
 * makes its own (app/entry.client.tsx) before it hydrates.
 */
import type { Language } from "./languages";
import type { Resources } from "./translator";

/** The id of the page's inline JSON that carries its messages to the browser. */
export const MESSAGES_SCRIPT_ID = "qn-messages";

/** What the page carries: its language and that language's catalogs (plus English's error texts, to recognise a message by its English words). */
export interface PageMessages {
  language: Language;
  resources: Resources;
}
