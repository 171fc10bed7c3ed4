/**
 * A same-site path to go back to after a form post, or the fallback: only paths starting with one "/"
 * (not "//" or "/\", which browsers read as another host), and never back to /auth or /logout.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\\]/.test(to)) return fallback;
  const url = new URL(to, "http://quiz.invalid");
  if (url.origin !== "http://quiz.invalid") return fallback;
  if (/^\/(auth|logout)(\/|$)/.test(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
