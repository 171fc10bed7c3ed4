/**
 * The quiz editor: the quiz's details and its questions of every kind, added, removed, duplicated
 * and reordered (drag and drop, the keyboard, or buttons that post without JavaScript). With
 * JavaScript every change applies at once and pictures upload as they are chosen; without it
 * each button posts the form and the action hands the edited draft back.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { CREATE_TIME_LIMIT_OPTIONS } from "#app/game/rules";
import { useSayError, useSayToast } from "#app/i18n/error-text";
import { appErrorOf, type AppError } from "#app/i18n/app-error";
import {
  applyEditorIntent,
  checkQuizDraft,
  quizErrorToast,
  type DraftProblems,
  type QuestionDraft,
  type QuizDraft,
  type ToastMessage,
} from "#app/schemas/quiz-form-schema";
import { Field, FieldError, TextAreaField } from "./form-field";
import { KindFieldsStyle } from "./kind-editor-fields";
import { QuestionEditor, fieldId } from "./question-editor";
import { useToast } from "./toaster";
import { VisibilityHint } from "./visibility-hint";

export interface QuizFormReply {
  draft?: QuizDraft;
  /** Field path (`questions.0.text`) to its message, in English. */
  errors?: Record<string, string>;
  /** Each message's code and values, which the page says it by (docs/decisions/0047-errors-as-codes.md). */
  codes?: Record<string, AppError>;
  formError?: ToastMessage;
}

/** A picture's upload refusal beside its question: its English (or the page's own words) and the code it is said by. */
type UploadError = { message: string; error: AppError | null };

interface QuizFormProps {
  editing: { id: number; draft: QuizDraft } | null;
  initialDraft: QuizDraft;
  reply: QuizFormReply | undefined;
}

export function QuizForm({ editing, initialDraft, reply }: QuizFormProps) {
  const { t } = useTranslation("quiz");
  const sayError = useSayError();
  const toastText = useSayToast();
  const toast = useToast();
  const navigation = useNavigation();
  const [draft, setDraft] = useState<QuizDraft>(() => reply?.draft ?? initialDraft);
  // Stable keys, so removing or moving a question does not hand its inputs to another one.
  const nextKey = useRef(draft.questions.length);
  const [keys, setKeys] = useState(() => draft.questions.map((_, i) => i));
  const [validateLive, setValidateLive] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [uploadErrors, setUploadErrors] = useState<Record<string, UploadError>>({});
  const [uploading, setUploading] = useState<Set<number>>(new Set());
  const [announcement, setAnnouncement] = useState("");
  const dragFrom = useRef<number | null>(null);
  const [dropTarget, setDropTarget] = useState<number | null>(null);

  useEffect(() => {
    if (!reply) return;
    if (reply.draft) {
      setDraft(reply.draft);
      setKeys(reply.draft.questions.map(() => nextKey.current++));
    }
    if (reply.formError) toast({ ...toastText(reply.formError), variant: "destructive" });
  }, [reply, toast, toastText]);

  useEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);

  const originalTimeLimit = editing?.draft.timeLimit;
  const liveErrors = useMemo((): DraftProblems | null => {
    if (!validateLive) return null;
    const result = checkQuizDraft(draft, originalTimeLimit);
    return result.ok ? { errors: {}, codes: {} } : result;
  }, [draft, validateLive, originalTimeLimit]);
  // The rules' messages (the server's reply, or the same rules run here), each said in the page's language from its code.
  const checked: DraftProblems = liveErrors ?? { errors: reply?.errors ?? {}, codes: reply?.codes ?? {} };
  const errors = Object.fromEntries([
    ...Object.entries(checked.errors).map(([key, message]) => [key, sayError(checked.codes[key], message)]),
    ...Object.entries(uploadErrors).map(([key, upload]) => [key, sayError(upload.error, upload.message)]),
  ]);
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const saveLabel = editing ? t("form.saveChanges") : t("form.saveQuiz");
  // A quiz made through the API may have a time limit the select does not offer; show it as it is.
  const listed = (CREATE_TIME_LIMIT_OPTIONS as readonly number[]).includes(draft.timeLimit);
  const timeLimitOptions: readonly number[] = listed ? CREATE_TIME_LIMIT_OPTIONS : [...CREATE_TIME_LIMIT_OPTIONS, draft.timeLimit].sort((x, y) => x - y);

  const update = (change: Partial<QuizDraft>) => setDraft((current) => ({ ...current, ...change }));
  const updateQuestion = (index: number, change: Partial<QuestionDraft>) =>
    setDraft((current) => ({ ...current, questions: current.questions.map((question, i) => (i === index ? { ...question, ...change } : question)) }));

  /** Applies an editor button's intent here, keeping each question's key with it. */
  function applyIntent(intent: string): boolean {
    const result = applyEditorIntent(draft, intent);
    if (!result) return false;
    if ("error" in result) {
      toast({ ...toastText(result.error), variant: "destructive" });
      return true;
    }
    const before = draft.questions.length;
    const after = result.draft.questions.length;
    const match = /^(remove|duplicate|move)-question-(\d+)(?:-(up|down|\d+))?$/.exec(intent);
    setKeys((current) => {
      if (intent === "add-question") return [...current, nextKey.current++];
      if (!match) return current;
      const index = Number(match[2]);
      if (match[1] === "remove") return current.filter((_, i) => i !== index);
      if (match[1] === "duplicate") return [...current.slice(0, index + 1), nextKey.current++, ...current.slice(index + 1)];
      const to = result.moved ?? index;
      const copy = current.slice();
      const [moved] = copy.splice(index, 1);
      copy.splice(to, 0, moved);
      return copy;
    });
    setDraft(result.draft);
    if (result.moved !== undefined) {
      if (match?.[1] === "move") {
        setAnnouncement(t("form.moved", { n: Number(match[2]) + 1, position: result.moved + 1, total: after }));
        setFocusId(`questions-${result.moved}-text`);
      } else if (after !== before || intent.startsWith("duplicate")) {
        setFocusId(fieldId(`questions.${result.moved}.text`));
      }
    }
    return true;
  }

  function onIntent(event: MouseEvent<HTMLButtonElement>, intent: string) {
    if (applyIntent(intent)) event.preventDefault();
  }

  async function uploadPicture(index: number, file: File) {
    const key = `questions.${index}.image`;
    setUploading((current) => new Set(current).add(index));
    setUploadErrors(({ [key]: _, ...rest }) => rest);
    try {
      const body = new FormData();
      body.append("image", file);
      let response = await fetch("/api/images", { method: "POST", body });
      // Pictures need a session (issue 26): a signed-out browser continues as a guest, then uploads again.
      if (response.status === 401 && (await fetch("/api/auth/guest", { method: "POST" })).ok) response = await fetch("/api/images", { method: "POST", body });
      const result = (await response.json().catch(() => ({}))) as { id?: string; error?: string; code?: string; values?: unknown; valueErrors?: unknown };
      if (response.ok && result.id) updateQuestion(index, { imageId: result.id });
      else {
        const refusal: UploadError = result.error ? { message: result.error, error: appErrorOf(result) } : { message: t("form.uploadFailed"), error: null };
        setUploadErrors((current) => ({ ...current, [key]: refusal }));
      }
    } catch {
      setUploadErrors((current) => ({ ...current, [key]: { message: t("form.uploadOffline"), error: null } }));
    } finally {
      setUploading((current) => {
        const next = new Set(current);
        next.delete(index);
        return next;
      });
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value && submitter.value !== "save") return;
    if (uploading.size > 0) {
      event.preventDefault();
      toast({ title: t("form.stillUploading.title"), description: t("form.stillUploading.description"), variant: "destructive" });
      return;
    }
    const result = checkQuizDraft(draft, originalTimeLimit);
    if (result.ok) return;
    event.preventDefault();
    setValidateLive(true);
    toast({ ...toastText(quizErrorToast(result)), variant: "destructive" });
    // The first invalid field, or its question's text where the message is about the whole question.
    const first = fieldId(Object.keys(result.errors)[0]);
    setFocusId(document.getElementById(first) ? first : first.replace(/-[^-]+$/, "-text"));
  }

  function onDrop(to: number) {
    const from = dragFrom.current;
    dragFrom.current = null;
    setDropTarget(null);
    if (from === null || from === to) return;
    applyIntent(`move-question-${from}-${to}`);
  }

  return (
    <div className="form-page stack">
      <h1>{editing ? t("form.editHeading") : t("form.createHeading")}</h1>
      {editing ? (
        <p className="hint">
          <Trans t={t} i18nKey="form.editHint" components={{ back: <Link to="/my-quizzes" /> }} />
        </p>
      ) : null}
      {editing ? null : (
        <p className="hint">
          <Trans t={t} i18nKey="form.importHint" components={{ import: <Link to="/create/import" /> }} />
        </p>
      )}
      {reply?.formError ? (
        <div className="form-error" role="alert">
          {t("form.formError", { ...toastText(reply.formError) })}
        </div>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <KindFieldsStyle />
      <Form method="post" encType="multipart/form-data" noValidate onSubmit={onSubmit} className="stack">
        {/* The first submit button answers the Enter key: it must save, not remove question 1. */}
        <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={saving}>
          {saveLabel}
        </button>
        <div className="card stack">
          <Field
            id="title"
            label={t("form.title")}
            name="title"
            value={draft.title}
            error={errors.title}
            onChange={(event) => update({ title: event.target.value })}
          />
          <TextAreaField
            id="description"
            label={t("form.description")}
            name="description"
            rows={3}
            value={draft.description}
            error={errors.description}
            onChange={(event) => update({ description: event.target.value })}
          />
          <div className="form-columns">
            <div className="field">
              <label htmlFor="timeLimit">{t("form.timeLimit")}</label>
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
                    {t("form.seconds", { count: seconds })}
                  </option>
                ))}
              </select>
              <FieldError id="timeLimit-error" message={errors.timeLimit} />
            </div>
            <div className="field">
              <label htmlFor="visibility">{t("form.visibility")}</label>
              <select
                id="visibility"
                name="visibility"
                className="select"
                value={draft.visibility}
                aria-invalid={errors.visibility ? true : undefined}
                aria-describedby={errors.visibility ? "visibility-hint visibility-error" : "visibility-hint"}
                onChange={(event) => update({ visibility: event.target.value })}
              >
                <option value="private">{t("visibility.private")}</option>
                <option value="public">{t("visibility.public")}</option>
              </select>
              <VisibilityHint id="visibility-hint" />
              <FieldError id="visibility-error" message={errors.visibility} />
            </div>
          </div>
        </div>

        <h2>{t("form.questions")}</h2>
        <FieldError id="questions-error" message={errors.questions} />
        <ol className="question-list">
          {draft.questions.map((question, index) => (
            <li
              key={keys[index] ?? `extra-${index}`}
              className={dropTarget === index ? "drop-target" : undefined}
              onDragOver={(event) => {
                if (dragFrom.current === null) return;
                event.preventDefault();
                setDropTarget(index);
              }}
              onDragLeave={() => setDropTarget((current) => (current === index ? null : current))}
              onDrop={(event) => {
                event.preventDefault();
                onDrop(index);
              }}
            >
              <QuestionEditor
                index={index}
                count={draft.questions.length}
                question={question}
                quizTimeLimit={draft.timeLimit}
                errors={errors}
                onChange={(change) => updateQuestion(index, change)}
                onIntent={onIntent}
                onPicture={(file) => void uploadPicture(index, file)}
                uploading={uploading.has(index)}
                onMoveKey={(delta) => {
                  applyIntent(`move-question-${index}-${index + delta}`);
                  // Keep the keyboard on the handle that moved.
                  requestAnimationFrame(() =>
                    (document.querySelector(`[data-testid="question-${index + delta}"] .drag-handle`) as HTMLElement | null)?.focus(),
                  );
                }}
                dragHandlers={{ onDragStart: () => (dragFrom.current = index), onDragEnd: () => setDropTarget(null) }}
              />
            </li>
          ))}
        </ol>

        <div className="form-actions">
          <button type="submit" name="intent" value="add-question" className="button button-secondary" onClick={(event) => onIntent(event, "add-question")}>
            {t("form.addQuestion")}
          </button>
          <button type="submit" name="intent" value="save" className="button" disabled={saving}>
            {saving ? t("form.saving") : saveLabel}
          </button>
        </div>
      </Form>
    </div>
  );
}
