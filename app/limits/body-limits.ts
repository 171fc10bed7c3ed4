/**
 * What each route reads of a request body, decided here, up front, for every route
 * (docs/decisions/0040-bounded-bodies.md): its size, its fields (how many, their names, lengths,
 * repeats and list indexes), its files and its JSON's nesting. Express caps each body by this table
 * in front of Remix (`bodyCapOf`, server/http-security.ts); the app reads every body within it
 * (request-body.server.ts). No server-only imports: server.ts reads it too.
 */
import { MAX_ROUNDS } from "#app/game/rules";
import { MAX_OPTIONS } from "#app/game/question-kinds";
import { MAX_QUESTIONS } from "#app/schemas/form-schemas";
import { MAX_IMPORT_REQUEST_BYTES } from "#app/quiz-files/quiz-file";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES } from "#app/pictures/storage-limits";

const KIB = 1024;
const MIB = 1024 * KIB;

/** What one route reads of a body. Lengths are in characters (UTF-16 code units), sizes in bytes. */
export interface BodyLimits {
  /** The body as sent. */
  maxBytes: number;
  /** Fields of a form (a multipart form's parts, files included). */
  maxFields: number;
  maxNameLength: number;
  /** One field's text. */
  maxValueLength: number;
  /** Times one field name may be sent (checkboxes of one name, a button's value). */
  maxRepeats: number;
  /** The largest list index in a field name (`questions[12].text`, `rounds.3.quizId`); 0 for a form without lists. */
  maxIndex: number;
  /** Nesting of arrays and objects in a JSON body. */
  maxJsonDepth: number;
  /** Files a multipart form may carry; more are left out, as a browser's extra choices are. */
  maxFiles: number;
  /** One file's bytes. */
  maxFileBytes: number;
}

/** Forms of a few short fields: joining, signing in, the theme and language, an account's settings. */
const SMALL_FORM: BodyLimits = {
  maxBytes: 64 * KIB,
  maxFields: 32,
  maxNameLength: 64,
  // The longest field of these forms is a password or an e-mail address (254).
  maxValueLength: 2 * KIB,
  maxRepeats: 8,
  maxIndex: 0,
  maxJsonDepth: 0,
  maxFiles: 0,
  maxFileBytes: 0,
};

/**
 * The quiz editor's fields. The page posts them as multipart, with its picture inputs (below); as
 * text they are what a script sends. A quiz of MAX_QUESTIONS questions with every field at its
 * longest is about 360 KB of ASCII; 1 MiB leaves room for letters that take several bytes once
 * encoded.
 */
const QUIZ_FORM: BodyLimits = {
  maxBytes: 1 * MIB,
  // Per question at most: kind, text, time limit, points, picture id, picture, the true/false
  // choice, accepted answers, the number, one right answer, MAX_OPTIONS options and as many ticked.
  maxFields: 16 + (MAX_QUESTIONS + 1) * (10 + 2 * MAX_OPTIONS),
  maxNameLength: 64,
  // The description (2,000) is the longest field; accepted answers are 10 lines of 100.
  maxValueLength: 4 * KIB,
  maxRepeats: MAX_OPTIONS + 2,
  // One question past the most a quiz may have, so the page can say "at most 100 questions".
  maxIndex: MAX_QUESTIONS,
  maxJsonDepth: 0,
  maxFiles: 0,
  maxFileBytes: 0,
};

/** Pictures in the editor's form posted without JavaScript (with it, they upload as they are chosen). */
export const MAX_FORM_PICTURES = 10;

/** The quiz editor posted with its pictures, which is what needs more than a form's size. */
const QUIZ_FORM_WITH_PICTURES: BodyLimits = {
  ...QUIZ_FORM,
  maxBytes: QUIZ_FORM.maxBytes + MAX_FORM_PICTURES * MAX_UPLOAD_REQUEST_BYTES,
  maxFiles: MAX_FORM_PICTURES,
  maxFileBytes: MAX_UPLOAD_BYTES,
};

/** The JSON API (docs/product.md#http-api): 64 KiB, as it has always said. */
export const JSON_API: BodyLimits = {
  ...SMALL_FORM,
  maxJsonDepth: 16,
};

/**
 * File uploads read their files themselves (pictures, quiz files); their form fields are few. They
 * get twice their file's cap here, so a file a little too large hears it from the route ("Pictures
 * can be at most 5 MB.") rather than a bare "too large".
 */
const upload = (requestBytes: number): BodyLimits => ({ ...SMALL_FORM, maxBytes: 2 * requestBytes, maxFiles: 1, maxFileBytes: requestBytes });

/** What one route reads: its form or JSON, and its multipart form where that is allowed more. */
export interface RouteBody {
  body: BodyLimits;
  /** A multipart body, where it differs from `body` (a form with files). */
  multipart?: BodyLimits;
}

/**
 * Every route that reads a body, by its path (`:name` is one segment, `*` the rest). The first
 * that matches decides; a path not listed gets `DEFAULT_BODY`.
 */
export const ROUTE_BODIES = {
  "/join": { body: SMALL_FORM },
  "/auth": { body: SMALL_FORM },
  "/logout": { body: SMALL_FORM },
  "/language": { body: SMALL_FORM },
  "/theme": { body: SMALL_FORM },
  "/account": { body: SMALL_FORM },
  "/subscription": { body: SMALL_FORM },
  "/ai-quiz": { body: SMALL_FORM },
  "/my-quizzes": { body: SMALL_FORM },
  "/my-games/:gameId": { body: SMALL_FORM },
  "/host": { body: SMALL_FORM },
  "/host/:code/new-links": { body: SMALL_FORM },
  // A title, and a quiz and a title per round: one round past the most, to say so.
  "/night/new": { body: { ...SMALL_FORM, maxFields: 8 + 2 * (MAX_ROUNDS + 1), maxIndex: MAX_ROUNDS } },
  "/create": { body: QUIZ_FORM, multipart: QUIZ_FORM_WITH_PICTURES },
  // A quiz file carries its pictures; its content is the import's to check (quiz-import.server.ts).
  "/create/import": { body: upload(MAX_IMPORT_REQUEST_BYTES) },
  "/api/quizzes/import": { body: upload(MAX_IMPORT_REQUEST_BYTES) },
  "/api/images": { body: upload(MAX_UPLOAD_REQUEST_BYTES) },
  // Stripe's events are small, but their shape is Stripe's; this bounds what an unauthenticated caller can make us read.
  "/api/stripe/webhook": { body: { ...JSON_API, maxBytes: 512 * KIB } },
  // Takes no fields (the editor posts nothing); whatever is sent is read within a form's limits.
  "/api/auth/guest": { body: SMALL_FORM },
  "/api/*": { body: JSON_API },
} satisfies Record<string, RouteBody>;

export type BodyRoute = keyof typeof ROUTE_BODIES;

/** Any path not in the table: a form's size, and nothing more. */
export const DEFAULT_BODY: RouteBody = { body: SMALL_FORM };

const MATCHERS = Object.entries(ROUTE_BODIES as Record<string, RouteBody>).map(([pattern, route]) => {
  const source = pattern
    .split("/")
    .map((segment) => (segment === "*" ? ".*" : segment.startsWith(":") ? "[^/]+" : segment.replace(/[.-]/g, "\\$&")))
    .join("/");
  return { pattern: new RegExp(`^${source}$`), route };
});

/** The limits of whatever route `pathname` is (letter case and a final slash aside, as Remix matches). */
export function routeBodyOf(pathname: string): RouteBody {
  let path = pathname.length > 1 ? pathname.toLowerCase().replace(/\/$/, "") : pathname;
  // With JavaScript, Remix's single fetch posts a page's form to the page's path plus `.data`
  // (`/_root.data` for `/`): the same form, so the same limits.
  if (path.endsWith(".data")) path = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
  return MATCHERS.find(({ pattern }) => pattern.test(path))?.route ?? DEFAULT_BODY;
}

export function isMultipart(contentType: string | null | undefined): boolean {
  return (contentType ?? "").trimStart().toLowerCase().startsWith("multipart/form-data");
}

export function limitsFor(route: RouteBody, contentType: string | null | undefined): BodyLimits {
  return isMultipart(contentType) && route.multipart ? route.multipart : route.body;
}

/** The most bytes a request to `pathname` may send (the cap Express applies in front of Remix). */
export function bodyCapOf(pathname: string, contentType: string | null | undefined): number {
  return limitsFor(routeBodyOf(pathname), contentType).maxBytes;
}
