import { createContext, useContext } from "react";
import { MESSAGES_SCRIPT_ID } from "./i18n";

/** The page's serialized messages: set by the server's entry when it renders, and by the browser's from the page it hydrates. */
export const MessagesContext = createContext<string>("");

/**
 * The page's catalogs as inline JSON, so the browser starts with the server's words and no request.
 * It is rendered with the same text in both places, so hydration leaves it alone.
 */
export function MessagesScript({ nonce }: { nonce?: string }) {
  const json = useContext(MessagesContext);
  return <script id={MESSAGES_SCRIPT_ID} type="application/json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: json }} />;
}
