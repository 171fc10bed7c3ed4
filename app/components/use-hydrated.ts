import { useEffect, useState } from "react";

/**
 * False in the server's HTML and the first render, true once the page's script runs: what needs a
 * script (a disabled button, a menu's button, the editor's chosen kind alone) waits for it, so a
 * browser that never runs it keeps a page that works.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
