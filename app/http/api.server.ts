/**
 * Where the routes' outcomes become HTTP: for JSON endpoints one way to read a body, one error
 * shape `{ error, fieldErrors? }` and the right status for each failure; for pages, the 404s and
 * redirects of a missing game, the wrong role or no account. Models and the other utilities return
 * results and never a status. No stack trace ever reaches a client.
 */
import { redirect, type AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import type { Logger } from "#server/logger";
import type { BillingFailure } from "#app/billing/billing.server";
import type { GoogleIdentity, GoogleTokenFailure, GoogleTokenResult } from "#app/auth/firebase.server";
import type { AiQuizFailureReason, AiQuizRefusal } from "#app/models/ai-quiz.server";
import type { AuthFailureReason } from "#app/auth/auth.server";
import type { ImportFailureReason, ImportRefusal } from "#app/quiz-files/quiz-import.server";
import { appError, flatValues, isAppError, type AppError } from "#app/i18n/app-error";
import { issueError } from "#app/i18n/coded";
import { englishErrorText } from "#app/i18n/error-english.server";
import type { User } from "#app/models/user.server";
import { findGameScreen, type GameScreenData, type ScreenContext } from "#app/game-pages/game-screen.server";
import { checkLimits, type LimitName } from "#app/limits/rate-limits.server";
import { getUser } from "#app/sessions/session.server";
import { ROUTE_BODIES, type BodyRoute } from "#app/limits/body-limits";
import { BodyRefusal, discardBody, readBodyBytes, readFormWithin, readJsonText } from "./request-body.server";

/**
 * An API refusal. The interface's refusals are raised with their code (`appError`), and their
 * English words are made from the catalog here, for the API's callers, unless the refusal brings
 * its own (`english`: a rate limit's configured words); a bare string is a message only API callers
 * see, which the interface never shows and the catalog does not hold
 * (docs/decisions/0047-errors-as-codes.md).
 */
export class ApiError extends Error {
  readonly error: AppError | null;
  constructor(
    readonly status: number,
    error: AppError | string,
    readonly fieldErrors?: Record<string, string[]>,
    /** For a 429: when to try again (the Retry-After header). */
    readonly retryAfterSeconds?: number,
    english?: string,
  ) {
    super(english ?? (typeof error === "string" ? error : englishErrorText(error)));
    this.error = typeof error === "string" ? null : error;
  }
}

/** How each refusal of billing answers over HTTP; the model says why, the status is said here. */
export const BILLING_FAILURE_STATUS: Record<BillingFailure, number> = {
  "signed-out": 401,
  "not-found": 404,
  conflict: 409,
  "not-configured": 503,
  "bad-signature": 400,
  "stripe-failed": 502,
};

/** How each refusal of an AI quiz answers over HTTP (499: the caller went away, as nginx says it). */
export const AI_QUIZ_FAILURE_STATUS: Record<AiQuizFailureReason, number> = {
  "not-configured": 503,
  "quota-used": 429,
  "rate-limited": 429,
  busy: 409,
  unusable: 502,
  declined: 422,
  timeout: 504,
  cancelled: 499,
  unreachable: 502,
  "service-busy": 503,
  "service-failed": 502,
};

export function aiQuizError(refusal: AiQuizRefusal): ApiError {
  return new ApiError(AI_QUIZ_FAILURE_STATUS[refusal.reason], refusal.error, undefined, refusal.retryAfterSeconds, refusal.message);
}

/** How each refusal of an import answers over HTTP (POST /api/quizzes/import and the /create/import page). */
export const IMPORT_FAILURE_STATUS: Record<ImportFailureReason, number> = {
  "too-large": 413,
  "unsupported-type": 415,
  "no-file": 400,
  "not-json": 400,
  "invalid-details": 400,
  "invalid-file": 400,
  "rate-limited": 429,
  // As for an upload: the file is fine; the owner's storage is full.
  "over-quota": 409,
  // Pictures need a session, and room on the disk (app/pictures/picture-uploads.server.ts).
  "no-session": 401,
  "disk-low": 507,
  // With Retry-After: the node is reading as many files as it takes at once (server/heavy-work.ts).
  busy: 503,
};

/**
 * An import's refusal as JSON: `{ error, code?, values?, valueErrors?, fieldErrors? }` with
 * Retry-After for a limit; a file that cannot be imported gives every problem by field in
 * `fieldErrors`, and a spreadsheet's by row in `rows`, each with the code and values it was raised
 * with (a row's own problem nested: its English in `values`, its code in `valueErrors`).
 */
export function importRefusalResponse(refusal: ImportRefusal): Response {
  const status = IMPORT_FAILURE_STATUS[refusal.reason];
  if (!refusal.rows) return jsonError(status, refusal.error ?? refusal.message, refusal.fieldErrors, refusal.retryAfterSeconds, refusal.message);
  const rows = refusal.rows.map(({ row, message, error }) => {
    const { error: _english, ...coded } = errorBody(error, message);
    return { row, message, ...coded };
  });
  return Response.json({ ...errorBody(refusal.error ?? refusal.message, refusal.message), fieldErrors: refusal.fieldErrors, rows }, { status });
}

/** How each refusal of a login, registration or guest session answers (the /auth page's action). */
export const AUTH_FAILURE_STATUS: Record<AuthFailureReason, number> = {
  invalid: 400,
  "wrong-credentials": 401,
  conflict: 409,
  "rate-limited": 429,
};

const GOOGLE_TOKEN_STATUS: Record<GoogleTokenFailure, number> = { "not-configured": 503, unavailable: 503, "invalid-token": 401 };

/** verifyGoogleToken's identity, or its refusal as an ApiError. */
export function requireGoogleIdentity(result: GoogleTokenResult): GoogleIdentity {
  if (!result.ok) throw new ApiError(GOOGLE_TOKEN_STATUS[result.reason], result.message);
  return result.identity;
}

export function billingError(failure: { reason: BillingFailure; message: string; error?: AppError }): ApiError {
  return new ApiError(BILLING_FAILURE_STATUS[failure.reason], failure.error ?? failure.message, undefined, undefined, failure.message);
}

/**
 * `{ error, code?, values?, fieldErrors? }`: the message in English, as the API's callers read it,
 * and its code when the interface has it in the `errors` catalog, with the values of a message that
 * has them (a limit's wait, a plan's allowance), for the browser or any client to show it in its
 * language (app/i18n/error-text.ts).
 */
export function jsonError(
  status: number,
  error: AppError | string,
  fieldErrors?: Record<string, string[]>,
  retryAfterSeconds?: number,
  english?: string,
): Response {
  const headers = retryAfterSeconds === undefined ? undefined : retryAfterHeaders(retryAfterSeconds);
  return Response.json({ ...errorBody(error, english), ...(fieldErrors ? { fieldErrors } : {}) }, { status, headers });
}

/** An error as the API sends it: the English words, and the code and values the interface says it by. */
export interface ErrorBody {
  error: string;
  code?: string;
  /** The values of its text; a nested message in its English words, as the API's callers have always read it. */
  values?: Record<string, string | number>;
  /** A nested message's own code and values, by the value's name (`appErrorOf` puts them back). */
  valueErrors?: Record<string, AppError>;
}

/**
 * `{ error, code?, values?, valueErrors? }`: the English words for API callers, and the code and
 * values the interface translates (docs/decisions/0047-errors-as-codes.md). A bare string is a
 * message with no code, which the interface never shows.
 */
export function errorBody(error: AppError | string, english?: string): ErrorBody {
  if (typeof error === "string") return { error };
  const values = flatValues(error.values, englishErrorText);
  const nested = Object.entries(error.values ?? {}).filter((entry): entry is [string, AppError] => isAppError(entry[1]));
  return {
    error: english ?? englishErrorText(error),
    code: error.code,
    ...(values ? { values } : {}),
    ...(nested.length ? { valueErrors: Object.fromEntries(nested) } : {}),
  };
}

export function retryAfterHeaders(retryAfterSeconds: number): Record<string, string> {
  return { "Retry-After": String(retryAfterSeconds) };
}

type LimitContext = Pick<AppLoadContext, "limits" | "clientIp">;

/** `checkLimits` for one limit, as a 429 ApiError with Retry-After when it is used up. */
export async function requireWithinLimit(context: LimitContext, name: LimitName, options: { key?: string; points?: number } = {}): Promise<void> {
  const check = await checkLimits(context, [{ name, ...options }]);
  if (!check.ok) throw new ApiError(429, check.error, undefined, check.retryAfterSeconds, check.message);
}

export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}

/**
 * Reads a JSON body within its route's limits (`/api/*` in body-limits.ts: 64 KiB, nested at most
 * 16 deep) and validates it; throws ApiError with 400/413/415.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const contentType = (request.headers.get("content-type") ?? "").toLowerCase();
  // Form encodings are refused so a cross-site HTML form cannot post here.
  if (contentType.startsWith("multipart/form-data") || contentType.startsWith("application/x-www-form-urlencoded")) {
    discardBody(request);
    throw new ApiError(415, "Send the body as JSON with Content-Type: application/json.");
  }
  let data: unknown;
  try {
    data = JSON.parse(await readJsonText(request, ROUTE_BODIES["/api/*"].body));
  } catch (error) {
    if (error instanceof BodyRefusal) throw new ApiError(error.status, error.error);
    throw new ApiError(400, "Request body is not valid JSON.");
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    const fieldErrors = fieldErrorsOf(result.error);
    // The first issue says what is wrong: by its code when its rule was given one (`coded`).
    const first = result.error.issues[0];
    throw new ApiError(400, (first && issueError(first)) ?? first?.message ?? "Invalid request.", fieldErrors, undefined, first?.message);
  }
  return result.data;
}

/**
 * A posted form within its route's limits (body-limits.ts), for `parseForm`; a form past them is
 * refused with its JSON response (`{ error, code }`, 413, 400 or 415), thrown as a guard's
 * redirect is, which a page shows on its error screen.
 */
export async function readForm(request: Request, route: BodyRoute): Promise<FormData> {
  try {
    return await readFormWithin(request, ROUTE_BODIES[route]);
  } catch (error) {
    if (error instanceof BodyRefusal) throw jsonError(error.status, error.error);
    throw error;
  }
}

/** The body as text, or null past `max` bytes however it is sent (a declared length may be absent or wrong). */
export async function readTextWithin(request: Request, max: number): Promise<string | null> {
  try {
    return (await readBodyBytes(request, max)).toString("utf8");
  } catch (error) {
    if (error instanceof BodyRefusal) return null;
    throw error;
  }
}

/**
 * Runs an endpoint body, turning ApiError into its JSON response and anything else into a bare 500
 * logged with the request (`context.logger`).
 */
export async function handleApi(logger: Logger, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) return jsonError(error.status, error.error ?? error.message, error.fieldErrors, error.retryAfterSeconds, error.message);
    if (error instanceof BodyRefusal) return jsonError(error.status, error.error);
    if (error instanceof Response) return error;
    logger.error({ event: "api_failed", err: error }, "an API request failed on the server");
    return jsonError(500, appError("SERVER_FAILURE"));
  }
}

export function methodNotAllowed(allowed: string[]): Response {
  return Response.json(
    { error: `Method not allowed. Use ${allowed.join(" or ")}.`, code: "METHOD_NOT_ALLOWED" },
    { status: 405, headers: { Allow: allowed.join(", ") } },
  );
}

export { clientIdOf } from "#app/sessions/client-id.server";

export function parseIdParam(value: string | undefined, notFound: AppError): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError(404, notFound);
  return id;
}

// ------------------------------------------------------------------ pages

/** A file to download, as a utility makes it; `attachmentResponse` answers with it. */
export interface DownloadFile {
  body: BodyInit;
  contentType: string;
  fileName: string;
}

/**
 * A download. By default no shared cache may keep it (a quiz's answers, players' names); a file that
 * is the same for everyone passes its own Cache-Control.
 */
export function attachmentResponse(file: DownloadFile, headers: Record<string, string> = {}): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
      ...headers,
    },
  });
}

/** Loads the game a screen is about; unknown codes are a 404. */
export async function loadGameScreen(context: ScreenContext, request: Request, rawCode: string | undefined): Promise<GameScreenData> {
  const screen = await findGameScreen(context, request, rawCode);
  if (!screen) throw new Response("Game not found", { status: 404 });
  return screen;
}

/** docs/product.md#roles: host screens send non-hosts to /. */
export async function requireHostScreen(context: ScreenContext, request: Request, rawCode: string | undefined): Promise<GameScreenData> {
  const screen = await loadGameScreen(context, request, rawCode);
  if (!screen.isHost) throw redirect("/");
  return screen;
}

/** docs/product.md#roles: player screens send hosts to /. */
export async function requirePlayerScreen(context: ScreenContext, request: Request, rawCode: string | undefined): Promise<GameScreenData> {
  const screen = await loadGameScreen(context, request, rawCode);
  if (screen.isHost) throw redirect("/");
  return screen;
}

/** For loaders and actions that need an account (or a guest, when allowed); others go to /auth. */
export async function requireUser(
  context: Pick<AppLoadContext, "db" | "sessionSecret">,
  request: Request,
  options: { allowGuest?: boolean } = {},
): Promise<User> {
  const user = await getUser(context, request);
  if (!user || (user.isGuest && !options.allowGuest)) {
    const from = new URL(request.url).pathname;
    throw redirect(`/auth?${new URLSearchParams({ redirectTo: from })}`);
  }
  return user;
}
