/**
 * Hydration, as Remix's default browser entry does it, with the page's words: the catalogs the
 * server put into the page (`MessagesScript`), so the first render matches the server's exactly.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { createI18n, MESSAGES_SCRIPT_ID, type PageMessages } from "#app/i18n/i18n";
import { DEFAULT_LANGUAGE, isLanguage } from "#app/i18n/languages";
import { MessagesContext } from "#app/i18n/messages-context";
import { provideTranslators } from "#app/i18n/meta";

const json = document.getElementById(MESSAGES_SCRIPT_ID)?.textContent ?? "";
const messages = (json ? JSON.parse(json) : null) as PageMessages | null;
const language = isLanguage(messages?.language) ? messages.language : DEFAULT_LANGUAGE;
const i18n = createI18n(language, messages?.resources ?? {});
// The page has one language; a change of language reloads the page (the footer's switcher).
provideTranslators(() => i18n);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <MessagesContext.Provider value={json}>
          <RemixBrowser />
        </MessagesContext.Provider>
      </I18nextProvider>
    </StrictMode>,
  );
});
