import { createContext, useContext } from "react";

/** The request's CSP nonce, for the scripts Remix puts in the page; empty in the browser. */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
