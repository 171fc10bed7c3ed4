/**
 * In the browser zod parses without compiling code. Whether it may compile, it finds out by trying
 * `new Function` once, which the page's CSP refuses (no 'unsafe-eval', server.ts); zod catches the
 * refusal, but Chromium still reports it as a violation (an Issues-panel entry, and Lighthouse's
 * best-practices audit `inspector-issues`). zod asks when an object schema is built, which happens
 * as the route modules load, before any line of ours could call `z.config` (the bundler runs a
 * chunk's imports before the chunk, wherever the call is). So the root layout sets the flag in an
 * inline script ahead of every module, on the object every copy of zod keeps its settings in
 * (`globalThis.__zod_globalConfig`); tests/e2e/content-security-policy.spec.ts fails if that stops
 * working. The server keeps the compiled parsers: it checks every socket message with them.
 */
export const ZOD_JITLESS_SCRIPT = "(globalThis.__zod_globalConfig ??= {}).jitless = true;";
