import { data, MaxPartSizeExceededError, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import type { DB } from "#db/connection.server";
import { Page } from "#app/components/layout";
import { metaT } from "#app/i18n/meta";
import { QuizForm, type QuizFormReply } from "#app/components/quiz-form";
import { hostNewGame } from "#app/models/game.server";
import { MAX_UPLOAD_BYTES, storeImage, type ImageOwner } from "#app/models/image.server";
import { createQuizWithQuestions, findOwnQuizWithQuestions, type Question, type Quiz, type Requester } from "#app/models/quiz.server";
import { updateQuiz } from "#app/models/quiz-update.server";
import { ensureClientId } from "#app/sessions/client-id.server";
import { chargeUpload, uploadAllowance } from "#app/pictures/picture-uploads.server";
import { getUser, requesterWithClientId, requesterOf } from "#app/sessions/session.server";
import {
  applyEditorIntent,
  checkQuizDraft,
  CREATE_QUIZ_FAILED,
  emptyQuizDraft,
  PostedQuizSchema,
  questionDraftOf,
  type QuizDraft,
  type QuizForm as QuizFormValue,
} from "#app/schemas/quiz-form-schema";
import { retryAfterHeaders, readForm } from "#app/http/api.server";
import { checkLimits } from "#app/limits/rate-limits.server";
import { parseForm } from "#app/forms/forms";
import { logGameCreated } from "#app/game-pages/game-log.server";
import { retryAfterFromAction } from "#app/http/route-headers";
import { overStorageError, pictureTooLargeError, storageLimitOfUser } from "#app/pictures/storage-limits";
import { appError, type AppError } from "#app/i18n/app-error";
import { englishErrorText } from "#app/i18n/error-english.server";
import { toastOf } from "#app/schemas/form-schemas";
import { busyAnswer } from "#app/limits/heavy-limits";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [{ title: metaT(matches, "quiz")(data?.editing ? "meta.edit" : "meta.create") }];

// The page's toasts, raised with their codes (docs/decisions/0047-errors-as-codes.md).
const SAVE_QUIZ_FAILED = toastOf(appError("SAVE_QUIZ_FAILED_TITLE"), appError("SAVE_QUIZ_FAILED"));

function notFound(): Response {
  return new Response("Not Found", { status: 404 });
}

/** `?edit=ID` puts the form in edit mode; null without it. A malformed id is a quiz that does not exist. */
function editIdOf(request: Request): number | null {
  const raw = new URL(request.url).searchParams.get("edit");
  if (raw === null) return null;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

function draftOf(quiz: Quiz & { questions: Question[] }): QuizDraft {
  return {
    title: quiz.title,
    description: quiz.description,
    timeLimit: quiz.timeLimit,
    visibility: quiz.isPublic ? "public" : "private",
    questions: quiz.questions.map(questionDraftOf),
  };
}

/** Create mode has nothing to load; edit mode loads the quiz for its owner, and anyone else gets 404. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const quizId = editIdOf(request);
  if (quizId === null) return { editing: null };
  const access = await findOwnQuizWithQuestions(context.db, quizId, await requesterOf(context, request));
  if (access.status !== "ok") throw notFound();
  return { editing: { id: quizId, draft: draftOf(access.value) } };
}

function reply(body: QuizFormReply, status = 200, headers?: HeadersInit) {
  return data(body, { status, headers });
}

/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

type ReadForm = { ok: true; formData: FormData } | { ok: false; error: AppError };

/**
 * The posted form, within its limits (body-limits.ts): text, or multipart when it carries pictures
 * (without JavaScript), at most MAX_FORM_PICTURES of at most 5 MB each.
 */
async function readQuizForm(request: Request): Promise<ReadForm> {
  try {
    return { ok: true, formData: await readForm(request, "/create") };
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { ok: false, error: pictureTooLargeError(MAX_UPLOAD_BYTES) };
    throw error;
  }
}

/** A picture's refusal for each question that chose one, by field, raised with its code. */
function pictureErrors(
  files: (Blob | null)[],
  error: (index: number) => AppError | null,
  english?: string,
): { errors: Record<string, string>; codes: Record<string, AppError> } {
  const errors: Record<string, string> = {};
  const codes: Record<string, AppError> = {};
  files.forEach((file, index) => {
    const refusal = file && error(index);
    if (!refusal) return;
    errors[`questions.${index}.image`] = english ?? englishErrorText(refusal);
    codes[`questions.${index}.image`] = refusal;
  });
  return { errors, codes };
}

/** Stores the pictures chosen in a form posted without JavaScript; a message (and its code) per question it could not. */
async function storeFormPictures(
  context: ActionFunctionArgs["context"],
  request: Request,
  formData: FormData,
  draft: QuizDraft,
): Promise<{
  draft: QuizDraft;
  errors: Record<string, string>;
  codes: Record<string, AppError>;
  headers?: HeadersInit;
  refused?: { message: string; error: AppError; retryAfterSeconds: number; status?: number; title?: string; titleError?: AppError };
}> {
  const files = draft.questions
    .map((_, index) => formData.get(`questions[${index}].image`))
    .map((file) => (file instanceof Blob && file.size > 0 ? file : null));
  const count = files.filter((file) => file !== null).length;
  if (count === 0) return { draft, errors: {}, codes: {} };
  // Re-encoding costs CPU: the same allowance as POST /api/images, whichever way a picture comes.
  // Only a session uploads, within the day's budgets and the disk's floor (app/pictures/picture-uploads.server.ts).
  const upload = await uploadAllowance(context, await getUser(context, request));
  if (!upload.ok) {
    const { refusal } = upload;
    if (refusal.reason === "over-budget") return { draft, errors: {}, codes: {}, refused: refusal };
    return { draft, ...pictureErrors(files, () => refusal.error, refusal.message) };
  }
  const allowed = await checkLimits(context, [{ name: "image", points: count }]);
  if (!allowed.ok) return { draft, errors: {}, codes: {}, refused: allowed };
  const { user } = upload;
  const { headers } = ensureClientId(request);
  const owner: ImageOwner = { userId: user.id, clientId: null };
  const limitBytes = storageLimitOfUser(user);
  const refusals: (AppError | null)[] = files.map(() => null);
  const questions = [...draft.questions];
  // One slot for heavy work for all of them (server/heavy-work.ts); a busy node says so (503), and
  // so does an address whose file is still being read (429).
  const { maxInputPixels } = context.heavyWork.options;
  const done = await context.heavyWork.run(context.clientIp, async () => {
    for (const [index, file] of files.entries()) {
      if (!file) continue;
      const stored = await storeImage(context.db, new Uint8Array(await file.arrayBuffer()), owner, limitBytes, Date.now(), { maxInputPixels });
      if (stored.status === "ok") {
        questions[index] = { ...questions[index], imageId: stored.value.id };
        await chargeUpload(context, stored.value.newBytes);
      } else if (stored.status === "invalid") refusals[index] = stored.error;
      else if (stored.status === "too-large") refusals[index] = pictureTooLargeError(stored.maxBytes);
      else refusals[index] = overStorageError(stored.usedBytes, stored.limitBytes);
    }
  });
  if (!done.ok) return { draft, errors: {}, codes: {}, refused: { ...busyAnswer(done), retryAfterSeconds: done.retryAfterSeconds } };
  return { draft: { ...draft, questions }, ...pictureErrors(files, (index) => refusals[index]), headers };
}

/**
 * Save, or (without JavaScript) one of the editor's buttons: add, remove, duplicate or move a
 * question, add or remove an answer, remove a picture; the edited draft goes back to the page. A
 * saved quiz gets a game at once, hosted by this browser, and the host goes to its lobby. In edit
 * mode saving replaces the owner's quiz and goes back to My Quizzes.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const editId = editIdOf(request);
  const read = await readQuizForm(request);
  if (!read.ok) return reply({ formError: toastOf(appError("PICTURE_TOO_LARGE_TITLE"), read.error) }, 413);
  const { formData } = read;
  // The posted form is read leniently into a draft (what the page shows again); the rules come after.
  const submission = parseForm(formData, PostedQuizSchema);
  if (submission.status !== "success") return reply({ draft: emptyQuizDraft(), formError: SAVE_QUIZ_FAILED }, 400);
  const { intent } = submission.value;
  const pictures = await storeFormPictures(context, request, formData, submission.value.draft);
  const draft = pictures.draft;
  if (pictures.refused) {
    // A limit's or a busy node's own words, said by their codes; a limit's title is "Too many pictures".
    const { message, error, retryAfterSeconds, status = 429, title = englishErrorText(TOO_MANY_PICTURES), titleError = TOO_MANY_PICTURES } = pictures.refused;
    const formError = { title, description: message, codes: { title: titleError, description: error } };
    return reply({ draft, formError }, status, retryAfterHeaders(retryAfterSeconds));
  }
  if (Object.keys(pictures.errors).length > 0) return reply({ draft, errors: pictures.errors, codes: pictures.codes }, 400, pictures.headers);

  const edited = applyEditorIntent(draft, intent);
  if (edited) return "error" in edited ? reply({ draft, formError: edited.error }, 400) : reply({ draft: edited.draft }, 200, pictures.headers);

  const editing = editId === null ? null : await findOwnQuizWithQuestions(context.db, editId, await requesterOf(context, request));
  if (editing && editing.status !== "ok") throw notFound();
  const checked = checkQuizDraft(draft, editing?.status === "ok" ? editing.value.timeLimit : undefined);
  if (!checked.ok) return reply({ draft, errors: checked.errors, codes: checked.codes }, 400);

  if (editId !== null) return saveEdit(context.db, context.logger, editId, checked.value, await requesterOf(context, request), draft);

  const allowed = await checkLimits(context, [{ name: "quiz" }, { name: "question", points: checked.value.questions.length }, { name: "game" }]);
  if (!allowed.ok) {
    const formError = {
      title: CREATE_QUIZ_FAILED.title,
      description: allowed.message,
      codes: { title: CREATE_QUIZ_FAILED.codes?.title, description: allowed.error },
    };
    return reply({ draft, formError }, 429, retryAfterHeaders(allowed.retryAfterSeconds));
  }
  const { requester, headers } = await requesterWithClientId(context, request);
  let hosted: { gameCode: string; quizId: number } | "missing-images";
  try {
    hosted = await saveQuizAndHost(context.db, checked.value, requester);
  } catch (error) {
    context.logger.error({ event: "quiz_save_failed", err: error }, "could not save a quiz");
    return reply({ draft, formError: CREATE_QUIZ_FAILED }, 500);
  }
  if (hosted === "missing-images") return reply({ draft, formError: MISSING_PICTURE }, 400);
  logGameCreated(context.logger, hosted, hosted.quizId, "create form");
  return redirect(`/waiting/${hosted.gameCode}?created=1`, { headers });
}

const MISSING_PICTURE = toastOf(appError("PICTURE_MISSING_TITLE"), appError("PICTURE_MISSING"));

const TOO_MANY_PICTURES = appError("PICTURES_TOO_MANY_TITLE");

async function saveEdit(db: DB, logger: ActionFunctionArgs["context"]["logger"], quizId: number, quiz: QuizFormValue, requester: Requester, draft: QuizDraft) {
  let status: string;
  try {
    ({ status } = await updateQuiz(
      db,
      quizId,
      { title: quiz.title, description: quiz.description, timeLimit: quiz.timeLimit, isPublic: quiz.isPublic },
      quiz.questions,
      requester,
    ));
  } catch (error) {
    logger.error({ event: "quiz_update_failed", err: error }, "could not update a quiz");
    return reply({ draft, formError: SAVE_QUIZ_FAILED }, 500);
  }
  if (status === "missing-images") return reply({ draft, formError: MISSING_PICTURE }, 400);
  if (status !== "ok") throw notFound();
  return redirect("/my-quizzes?saved=1");
}

/** All or nothing: a quiz never exists without its questions and its game. */
async function saveQuizAndHost(
  db: DB,
  quiz: QuizFormValue,
  requester: Requester & { clientId: string },
): Promise<{ gameCode: string; quizId: number } | "missing-images"> {
  return db.transaction().execute(async (trx) => {
    const created = await createQuizWithQuestions(
      trx,
      { title: quiz.title, description: quiz.description, timeLimit: quiz.timeLimit, isPublic: quiz.isPublic },
      quiz.questions,
      requester,
    );
    if (created.status !== "ok") return "missing-images" as const;
    const hosted = await hostNewGame(trx, created.value.id, requester);
    if (hosted.status !== "ok") throw new Error(`A quiz just created could not be hosted (${hosted.status}).`);
    return { gameCode: hosted.value.gameCode, quizId: created.value.id };
  });
}

/** A post that never reached the server gets the same message as one the server could not save. */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<QuizFormReply> {
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { formError: new URL(request.url).searchParams.has("edit") ? SAVE_QUIZ_FAILED : CREATE_QUIZ_FAILED };
  }
}

/**
 * The loader depends on the URL alone: a post that stays on the page (a refused save, or one that
 * never reached the server) must not reload it, which would replace the form with an error page.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  formMethod && formMethod.toUpperCase() !== "GET" && currentUrl.href === nextUrl.href ? false : defaultShouldRevalidate;

export default function CreateQuiz() {
  const { editing } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof clientAction>();
  // A new form for each quiz, so going from editing one to creating one starts afresh.
  return (
    <Page>
      <QuizForm key={editing?.id ?? "new"} editing={editing} initialDraft={editing?.draft ?? emptyQuizDraft()} reply={reply} />
    </Page>
  );
}
