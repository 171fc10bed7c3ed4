/**
 * Hydration, as Remix's default browser entry does it, with the page's words: the catalogs the
 * server put into the page (`MessagesScript`), so the first render matches the server's exactly.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { MESSAGES_SCRIPT_ID, type PageMessages } from "#app/i18n/i18n";
import { DEFAULT_LANGUAGE, isLanguage } from "#app/i18n/languages";
import { MessagesContext } from "#app/i18n/messages-context";
import { provideTranslators } from "#app/i18n/meta";
import { createCatalogTranslator } from "#app/i18n/translator";
import { TranslatorProvider } from "#app/i18n/use-translation";

const json = document.getElementById(MESSAGES_SCRIPT_ID)?.textContent ?? "";
const messages = (json ? JSON.parse(json) : null) as PageMessages | null;
const language = isLanguage(messages?.language) ? messages.language : DEFAULT_LANGUAGE;
const translator = createCatalogTranslator(language, messages?.resources ?? {});
// The page has one language; a change of language reloads the page (the footer's switcher).
provideTranslators(() => translator);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <TranslatorProvider translator={translator}>
        <MessagesContext.Provider value={json}>
          <RemixBrowser />
        </MessagesContext.Provider>
      </TranslatorProvider>
    </StrictMode>,
  );
});
