import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent } from "react";
import type { DB } from "#db/connection.server";
import { Field, FieldError, TextAreaField } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { useToast } from "#app/components/toaster";
import { CREATE_TIME_LIMIT_OPTIONS } from "#app/game/rules";
import { hostNewGame } from "#app/models/game.server";
import { addQuestion, createQuiz, findOwnQuizWithQuestions, updateQuiz, type Question, type Quiz, type Requester } from "#app/models/quiz.server";
import { requesterWithClientId, requesterOf } from "#app/utils/session.server";
import {
  CANNOT_REMOVE_QUESTION,
  CREATE_QUIZ_FAILED,
  CreateQuizFormSchema,
  createQuizErrorToast,
  emptyCreateQuizDraft,
  emptyQuestionDraft,
  firstErrors,
  parseCreateQuizForm,
  type CreateQuizDraft,
  type CreateQuizForm,
  type ToastMessage,
} from "#app/utils/form-schemas";
import { checkLimits, retryAfterHeaders } from "#app/utils/api.server";
import { logGameCreated } from "#app/utils/game-log.server";
import { retryAfterFromAction } from "#app/utils/route-headers";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.editing ? "Edit Quiz - Quiz Night" : "Create Quiz - Quiz Night" },
];

const ANSWER_LETTERS = ["A", "B", "C", "D"] as const;
const REMOVE_INTENT = /^remove-question-(\d+)$/;

const SAVE_QUIZ_FAILED: ToastMessage = {
  title: "Failed to save quiz",
  description: "There was an error saving your quiz. Please try again.",
};

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

function draftOf(quiz: Quiz & { questions: Question[] }): CreateQuizDraft {
  return {
    title: quiz.title,
    description: quiz.description,
    timeLimit: quiz.timeLimit,
    visibility: quiz.isPublic ? "public" : "private",
    questions: quiz.questions.map(({ text, answers, correctAnswerIndex }) => ({ text, answers: [...answers], correctAnswerIndex })),
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

interface CreateActionData {
  draft?: CreateQuizDraft;
  /** Field path (`questions.0.text`) to its message. */
  errors?: Record<string, string>;
  formError?: ToastMessage;
}

function reply(body: CreateActionData, status = 200, headers?: HeadersInit) {
  return data(body, { status, headers });
}

/**
 * Save, or (without JavaScript) add or remove a question and hand the edited draft back. A saved
 * quiz gets a game at once, hosted by this browser, and the host goes to its lobby. In edit mode
 * saving replaces the owner's quiz and goes back to My Quizzes.
 */
/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

export async function action({ request, context }: ActionFunctionArgs) {
  const editId = editIdOf(request);
  const formData = await request.formData();
  const draft = parseCreateQuizForm(formData);
  const intent = String(formData.get("intent") ?? "save");

  if (intent === "add-question") return reply({ draft: { ...draft, questions: [...draft.questions, emptyQuestionDraft()] } });
  const removal = REMOVE_INTENT.exec(intent);
  if (removal) {
    if (draft.questions.length <= 1) return reply({ draft, formError: CANNOT_REMOVE_QUESTION }, 400);
    const index = Number(removal[1]);
    return reply({ draft: { ...draft, questions: draft.questions.filter((_, i) => i !== index) } });
  }

  const parsed = CreateQuizFormSchema.safeParse(draft);
  if (!parsed.success) return reply({ draft, errors: firstErrors(parsed.error) }, 400);

  if (editId !== null) return saveEdit(context.db, editId, parsed.data, await requesterOf(context, request), draft);

  const allowed = await checkLimits(context, [{ name: "quiz" }, { name: "question", points: parsed.data.questions.length }, { name: "game" }]);
  if (!allowed.ok) {
    return reply({ draft, formError: { title: CREATE_QUIZ_FAILED.title, description: allowed.message } }, 429, retryAfterHeaders(allowed.retryAfterSeconds));
  }
  const { requester, headers } = await requesterWithClientId(context, request);
  let hosted: { gameCode: string; quizId: number };
  try {
    hosted = await saveQuizAndHost(context.db, parsed.data, requester);
  } catch (error) {
    console.error("[create] could not save a quiz", error);
    return reply({ draft, formError: CREATE_QUIZ_FAILED }, 500);
  }
  logGameCreated(context.logger, hosted, hosted.quizId, "create form");
  return redirect(`/waiting/${hosted.gameCode}?created=1`, { headers });
}

async function saveEdit(db: DB, quizId: number, quiz: CreateQuizForm, requester: Requester, draft: CreateQuizDraft) {
  let status: "ok" | "not-found" | "forbidden";
  try {
    ({ status } = await updateQuiz(
      db,
      quizId,
      { title: quiz.title, description: quiz.description, timeLimit: quiz.timeLimit, isPublic: quiz.visibility === "public" },
      quiz.questions,
      requester,
    ));
  } catch (error) {
    console.error("[create] could not update a quiz", error);
    return reply({ draft, formError: SAVE_QUIZ_FAILED }, 500);
  }
  if (status !== "ok") throw notFound();
  return redirect("/my-quizzes?saved=1");
}

/** All or nothing: a quiz never exists without its questions and its game. */
async function saveQuizAndHost(db: DB, quiz: CreateQuizForm, requester: Requester & { clientId: string }): Promise<{ gameCode: string; quizId: number }> {
  return db.transaction().execute(async (trx) => {
    const created = await createQuiz(
      trx,
      { title: quiz.title, description: quiz.description, timeLimit: quiz.timeLimit, isPublic: quiz.visibility === "public" },
      requester,
    );
    for (const [order, question] of quiz.questions.entries()) {
      await addQuestion(trx, { quizId: created.id, ...question, order });
    }
    const hosted = await hostNewGame(trx, created.id, requester);
    if (hosted.status !== "ok") throw new Error(`A quiz just created could not be hosted (${hosted.status}).`);
    return { gameCode: hosted.value.gameCode, quizId: created.id };
  });
}

/** A post that never reached the server gets the same message as one the server could not save. */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<CreateActionData> {
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

/** Ids follow the error keys, so the first invalid field can be found and focused. */
const fieldId = (errorKey: string) => errorKey.replace(/\./g, "-");

export default function CreateQuiz() {
  const { editing } = useLoaderData<typeof loader>();
  // A new form for each quiz, so going from editing one to creating one starts afresh.
  return <QuizForm key={editing?.id ?? "new"} editing={editing} />;
}

function QuizForm({ editing }: { editing: { id: number; draft: CreateQuizDraft } | null }) {
  const actionData = useActionData<typeof clientAction>();
  const toast = useToast();
  const navigation = useNavigation();
  const [draft, setDraft] = useState<CreateQuizDraft>(() => actionData?.draft ?? editing?.draft ?? emptyCreateQuizDraft());
  // Stable keys, so removing a question does not hand its inputs to the next one.
  const nextKey = useRef(draft.questions.length);
  const [keys, setKeys] = useState(() => draft.questions.map((_, i) => i));
  const [validateLive, setValidateLive] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);

  useEffect(() => {
    if (!actionData) return;
    if (actionData.draft) {
      setDraft(actionData.draft);
      setKeys(actionData.draft.questions.map(() => nextKey.current++));
    }
    if (actionData.formError) toast({ ...actionData.formError, variant: "destructive" });
  }, [actionData, toast]);

  useEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);

  const liveErrors = useMemo(() => {
    if (!validateLive) return null;
    const result = CreateQuizFormSchema.safeParse(draft);
    return result.success ? {} : firstErrors(result.error);
  }, [draft, validateLive]);
  const errors = liveErrors ?? actionData?.errors ?? {};
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const saveLabel = editing ? "Save Changes" : "Save Quiz";
  // A quiz made through the API may have a time limit the select does not offer; show it as it is.
  const unlisted = editing && Number.isInteger(draft.timeLimit) && !(CREATE_TIME_LIMIT_OPTIONS as readonly number[]).includes(draft.timeLimit);
  const timeLimitOptions: readonly number[] = unlisted
    ? [...CREATE_TIME_LIMIT_OPTIONS, draft.timeLimit].sort((x, y) => x - y)
    : CREATE_TIME_LIMIT_OPTIONS;

  const update = (change: Partial<CreateQuizDraft>) => setDraft((current) => ({ ...current, ...change }));
  const updateQuestion = (index: number, change: Partial<CreateQuizDraft["questions"][number]>) =>
    setDraft((current) => ({
      ...current,
      questions: current.questions.map((question, i) => (i === index ? { ...question, ...change } : question)),
    }));

  function addQuestionClick(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    setDraft((current) => ({ ...current, questions: [...current.questions, emptyQuestionDraft()] }));
    setKeys((current) => [...current, nextKey.current++]);
    setFocusId(fieldId(`questions.${draft.questions.length}.text`));
  }

  function removeQuestionClick(event: MouseEvent<HTMLButtonElement>, index: number) {
    event.preventDefault();
    if (draft.questions.length <= 1) {
      toast({ ...CANNOT_REMOVE_QUESTION, variant: "destructive" });
      return;
    }
    setDraft((current) => ({ ...current, questions: current.questions.filter((_, i) => i !== index) }));
    setKeys((current) => current.filter((_, i) => i !== index));
    setFocusId(fieldId(`questions.${Math.max(0, index - 1)}.text`));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const result = CreateQuizFormSchema.safeParse(draft);
    if (result.success) return;
    event.preventDefault();
    setValidateLive(true);
    toast({ ...createQuizErrorToast(result.error), variant: "destructive" });
    setFocusId(fieldId(Object.keys(firstErrors(result.error))[0]));
  }

  return (
    <Page>
      <div className="form-page stack">
        <h1>{editing ? "Edit Quiz" : "Create Quiz"}</h1>
        {editing ? (
          <p className="hint">
            Saving replaces the quiz&apos;s details and questions. <Link to="/my-quizzes">Back to My Quizzes</Link>
          </p>
        ) : null}
        {actionData?.formError ? (
          <div className="form-error" role="alert">
            {actionData.formError.title}: {actionData.formError.description}
          </div>
        ) : null}
        <Form method="post" noValidate onSubmit={onSubmit} className="stack">
          {/* The first submit button answers the Enter key: it must save, not remove question 1. */}
          <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={saving}>
            {saveLabel}
          </button>
          <div className="card stack">
            <Field
              id="title"
              label="Title"
              name="title"
              value={draft.title}
              error={errors.title}
              onChange={(event) => update({ title: event.target.value })}
            />
            <TextAreaField
              id="description"
              label="Description (optional)"
              name="description"
              rows={3}
              value={draft.description}
              error={errors.description}
              onChange={(event) => update({ description: event.target.value })}
            />
            <div className="form-columns">
              <div className="field">
                <label htmlFor="timeLimit">Time limit</label>
                <select
                  id="timeLimit"
                  name="timeLimit"
                  className="select"
                  value={String(draft.timeLimit)}
                  aria-invalid={errors.timeLimit ? true : undefined}
                  aria-describedby={errors.timeLimit ? "timeLimit-error" : undefined}
                  onChange={(event) => update({ timeLimit: Number(event.target.value) })}
                >
                  {timeLimitOptions.map((seconds) => (
                    <option key={seconds} value={seconds}>
                      {seconds} seconds
                    </option>
                  ))}
                </select>
                <FieldError id="timeLimit-error" message={errors.timeLimit} />
              </div>
              <div className="field">
                <label htmlFor="visibility">Visibility</label>
                <select
                  id="visibility"
                  name="visibility"
                  className="select"
                  value={draft.visibility}
                  aria-invalid={errors.visibility ? true : undefined}
                  aria-describedby={errors.visibility ? "visibility-error" : undefined}
                  onChange={(event) => update({ visibility: event.target.value })}
                >
                  <option value="private">Private</option>
                  <option value="public">Public</option>
                </select>
                <FieldError id="visibility-error" message={errors.visibility} />
              </div>
            </div>
          </div>

          <h2>Questions</h2>
          <FieldError id="questions-error" message={errors.questions} />
          {draft.questions.map((question, index) => (
            <fieldset key={keys[index] ?? `extra-${index}`} className="card stack question-card">
              <legend>Question {index + 1}</legend>
              <Field
                label="Question text"
                name={`questions[${index}].text`}
                id={fieldId(`questions.${index}.text`)}
                value={question.text}
                error={errors[`questions.${index}.text`]}
                onChange={(event) => updateQuestion(index, { text: event.target.value })}
              />
              <div className="answer-grid">
                {ANSWER_LETTERS.map((letter, answerIndex) => (
                  <Field
                    key={letter}
                    label={`Answer ${letter}`}
                    name={`questions[${index}].answers[${answerIndex}]`}
                    id={fieldId(`questions.${index}.answers.${answerIndex}`)}
                    value={question.answers[answerIndex] ?? ""}
                    error={errors[`questions.${index}.answers.${answerIndex}`]}
                    onChange={(event) =>
                      updateQuestion(index, {
                        answers: question.answers.map((existing, i) => (i === answerIndex ? event.target.value : existing)),
                      })
                    }
                  />
                ))}
              </div>
              <FieldError id={fieldId(`questions.${index}.answers-error`)} message={errors[`questions.${index}.answers`]} />
              <fieldset className="choice-group">
                <legend className="label">Correct answer</legend>
                {ANSWER_LETTERS.map((letter, answerIndex) => (
                  <label key={letter} className="choice">
                    <input
                      type="radio"
                      name={`questions[${index}].correctAnswerIndex`}
                      value={answerIndex}
                      checked={question.correctAnswerIndex === answerIndex}
                      onChange={() => updateQuestion(index, { correctAnswerIndex: answerIndex })}
                    />
                    {letter}
                  </label>
                ))}
              </fieldset>
              <FieldError
                id={fieldId(`questions.${index}.correctAnswerIndex-error`)}
                message={errors[`questions.${index}.correctAnswerIndex`]}
              />
              <div className="row">
                <button
                  type="submit"
                  name="intent"
                  value={`remove-question-${index}`}
                  className="button button-secondary button-small"
                  aria-label={`Remove question ${index + 1}`}
                  onClick={(event) => removeQuestionClick(event, index)}
                >
                  Remove
                </button>
              </div>
            </fieldset>
          ))}

          <div className="form-actions">
            <button type="submit" name="intent" value="add-question" className="button button-secondary" onClick={addQuestionClick}>
              Add Question
            </button>
            <button type="submit" name="intent" value="save" className="button" disabled={saving}>
              {saving ? "Saving..." : saveLabel}
            </button>
          </div>
        </Form>
      </div>
    </Page>
  );
}


