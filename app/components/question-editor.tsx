/**
 * One question in the quiz editor, of any kind: the fields every kind has, and the chosen kind's own
 * (app/game/kinds/components.ts). Once the page runs its script only the chosen kind's fields are in
 * it; before (and without JavaScript) every kind's are, and the kind's rules in KindFieldsStyle show
 * the chosen one's, so choosing a kind works without a script too. The draft keeps every kind's
 * fields, so switching back loses nothing typed.
 */
import type { KeyboardEvent } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { POINTS_OPTIONS } from "#app/game/question-kinds";
import { kindOf, QUESTION_KINDS, type QuestionKind } from "#app/game/kinds";
import { kindComponentsOf } from "#app/game/kinds/components";
import { QUESTION_TIME_LIMIT_OPTIONS, type QuestionDraft } from "#app/schemas/quiz-form-schema";
import { FieldError } from "./form-field";
import { fieldId, KindFields, OptionsEditor, type EditorIntent } from "./kind-editor-fields";
import { Tooltip } from "./tooltip";
import { useHydrated } from "./use-hydrated";

export { fieldId, type EditorIntent } from "./kind-editor-fields";

/** The kinds with points to choose (a poll has none). */
const SCORED_KINDS = QUESTION_KINDS.filter((kind) => kindOf(kind).scored);

interface QuestionEditorProps {
  index: number;
  count: number;
  question: QuestionDraft;
  quizTimeLimit: number;
  errors: Record<string, string>;
  onChange(change: Partial<QuestionDraft>): void;
  onIntent: EditorIntent;
  /** Uploads a chosen picture at once (with JavaScript); without it the file goes with the form. */
  onPicture(file: File): void;
  uploading: boolean;
  /** The drag handle's keyboard moves: -1 up, +1 down. */
  onMoveKey(delta: -1 | 1): void;
  dragHandlers: {
    onDragStart(): void;
    onDragEnd(): void;
  };
}

export function QuestionEditor({
  index,
  count,
  question,
  quizTimeLimit,
  errors,
  onChange,
  onIntent,
  onPicture,
  uploading,
  onMoveKey,
  dragHandlers,
}: QuestionEditorProps) {
  const { t } = useTranslation("quiz");
  const n = index + 1;
  const name = (field: string) => `questions[${index}].${field}`;
  const key = (field: string) => `questions.${index}.${field}`;
  const error = (field: string) => errors[key(field)];
  const hydrated = useHydrated();
  // Every kind's fields until the script runs (the kind select works without it), then the chosen kind's.
  const shown: readonly QuestionKind[] = hydrated ? [question.kind] : QUESTION_KINDS;
  const withOptions = shown.filter((kind) => kindComponentsOf(kind).editsOptions);
  const kindFields = (kind: QuestionKind) => {
    const { EditorFields } = kindComponentsOf(kind);
    return (
      <KindFields key={kind} kinds={[kind]}>
        <EditorFields {...{ index, question, errors, onChange }} />
      </KindFields>
    );
  };

  function onHandleKey(event: KeyboardEvent<HTMLSpanElement>) {
    if (event.key === "ArrowUp" && index > 0) {
      event.preventDefault();
      onMoveKey(-1);
    } else if (event.key === "ArrowDown" && index < count - 1) {
      event.preventDefault();
      onMoveKey(1);
    }
  }

  return (
    <fieldset className="card stack question-card" data-testid={`question-${index}`}>
      <legend>{t("question.legend", { n })}</legend>
      <div className="row question-toolbar">
        <Tooltip label={t("question.reorder", { n })}>
          <span
            role="button"
            tabIndex={0}
            className="drag-handle"
            draggable
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = "move";
              event.dataTransfer.setData("application/x-quiz-night-question", String(index));
              // The whole question is what moves.
              const card = event.currentTarget.closest("fieldset");
              if (card) event.dataTransfer.setDragImage(card, 24, 24);
              dragHandlers.onDragStart();
            }}
            onDragEnd={dragHandlers.onDragEnd}
            onKeyDown={onHandleKey}
          >
            ⠿
          </span>
        </Tooltip>
        <div className="field kind-field">
          <label htmlFor={fieldId(key("kind"))}>{t("question.kind")}</label>
          <select
            id={fieldId(key("kind"))}
            name={name("kind")}
            className="select kind-select"
            value={question.kind}
            onChange={(event) => onChange({ kind: event.target.value as QuestionDraft["kind"] })}
          >
            {QUESTION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`kinds.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={fieldId(key("timeLimit"))}>{t("question.time")}</label>
          <select
            id={fieldId(key("timeLimit"))}
            name={name("timeLimit")}
            className="select"
            value={question.timeLimit}
            aria-invalid={error("timeLimit") ? true : undefined}
            onChange={(event) => onChange({ timeLimit: event.target.value })}
          >
            <option value="">{t("question.quizDefault", { seconds: quizTimeLimit })}</option>
            {QUESTION_TIME_LIMIT_OPTIONS.map((seconds) => (
              <option key={seconds} value={seconds}>
                {t("form.seconds", { count: seconds })}
              </option>
            ))}
          </select>
        </div>
        {shown.some((kind) => kindOf(kind).scored) ? (
          <KindFields kinds={SCORED_KINDS}>
            <div className="field">
              <label htmlFor={fieldId(key("points"))}>{t("question.points")}</label>
              <select
                id={fieldId(key("points"))}
                name={name("points")}
                className="select"
                value={question.points}
                onChange={(event) => onChange({ points: event.target.value })}
              >
                {POINTS_OPTIONS.map((points) => (
                  <option key={points} value={points}>
                    {t(`points.${points}`)}
                  </option>
                ))}
              </select>
            </div>
          </KindFields>
        ) : null}
      </div>
      <FieldError id={fieldId(key("timeLimit-error"))} message={error("timeLimit")} />

      <div className="field">
        <label htmlFor={fieldId(key("text"))}>{t("question.text")}</label>
        <input
          id={fieldId(key("text"))}
          name={name("text")}
          className="input"
          value={question.text}
          aria-invalid={error("text") ? true : undefined}
          aria-describedby={error("text") ? fieldId(key("text-error")) : undefined}
          onChange={(event) => onChange({ text: event.target.value })}
        />
        <FieldError id={fieldId(key("text-error"))} message={error("text")} />
      </div>

      {withOptions.length > 0 ? (
        <KindFields kinds={withOptions}>
          <OptionsEditor {...{ index, question, errors, onChange, onIntent }}>{withOptions.map(kindFields)}</OptionsEditor>
        </KindFields>
      ) : null}
      {shown.filter((kind) => !kindComponentsOf(kind).editsOptions).map(kindFields)}

      <PictureField {...{ index, question, errors, onIntent, onPicture, uploading }} />

      <div className="row question-actions">
        <IntentButton intent={`move-question-${index}-up`} onIntent={onIntent} disabled={index === 0} label={t("question.moveUpLabel", { n })}>
          {t("question.moveUp")}
        </IntentButton>
        <IntentButton intent={`move-question-${index}-down`} onIntent={onIntent} disabled={index === count - 1} label={t("question.moveDownLabel", { n })}>
          {t("question.moveDown")}
        </IntentButton>
        <IntentButton intent={`duplicate-question-${index}`} onIntent={onIntent} label={t("question.duplicateLabel", { n })}>
          {t("question.duplicate")}
        </IntentButton>
        <IntentButton intent={`remove-question-${index}`} onIntent={onIntent} label={t("question.removeLabel", { n })}>
          {t("question.remove")}
        </IntentButton>
      </div>
    </fieldset>
  );
}

function IntentButton({
  intent,
  onIntent,
  label,
  disabled,
  children,
}: {
  intent: string;
  onIntent: EditorIntent;
  label: string;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className="button button-secondary button-small"
      aria-label={label}
      disabled={disabled}
      onClick={(event) => onIntent(event, intent)}
    >
      {children}
    </button>
  );
}

/** A picture for the question: chosen here, shown large on the host's screen. */
function PictureField({
  index,
  question,
  errors,
  onIntent,
  onPicture,
  uploading,
}: Pick<QuestionEditorProps, "index" | "question" | "errors" | "onIntent" | "onPicture" | "uploading">) {
  const { t } = useTranslation("quiz");
  const n = index + 1;
  const key = `questions.${index}.image`;
  return (
    <div className="field picture-field">
      <input type="hidden" name={`questions[${index}].imageId`} value={question.imageId} />
      {question.imageId ? (
        <div className="row">
          {/* The author's own upload, its content unknown here: the text says which question it is chosen for. */}
          <img className="picture-thumbnail" src={`/images/${question.imageId}?size=small`} alt={t("question.pictureAlt", { n })} />
          <button
            type="submit"
            name="intent"
            value={`remove-image-${index}`}
            className="button button-secondary button-small"
            aria-label={t("question.removePictureLabel", { n })}
            onClick={(event) => onIntent(event, `remove-image-${index}`)}
          >
            {t("question.removePicture")}
          </button>
        </div>
      ) : null}
      <label htmlFor={fieldId(key)}>{question.imageId ? t("question.replacePicture") : t("question.picture")}</label>
      <input
        id={fieldId(key)}
        name={`questions[${index}].image`}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif"
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={`${fieldId(key)}-hint${errors[key] ? ` ${fieldId(key)}-error` : ""}`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (!file) return;
          onPicture(file);
          // Uploaded on its own: the form's post stays small.
          event.target.value = "";
        }}
      />
      <p id={`${fieldId(key)}-hint`} className="hint">
        {uploading ? t("question.uploading") : t("question.pictureHint")}
      </p>
      <FieldError id={`${fieldId(key)}-error`} message={errors[key]} />
    </div>
  );
}
