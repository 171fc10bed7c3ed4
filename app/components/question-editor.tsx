/**
 * One question in the quiz editor, of any kind. Every kind's fields are in the page and CSS shows
 * the chosen kind's (`.question-card:has(...)` in app.css), so choosing a kind works the same with
 * and without JavaScript, and switching back loses nothing typed.
 */
import { type ChangeEvent, type KeyboardEvent, type MouseEvent } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { MAX_OPTIONS, MIN_OPTIONS, POINTS_OPTIONS } from "#app/game/question-kinds";
import { QUESTION_KINDS } from "#app/game/kinds";
import { QUESTION_TIME_LIMIT_OPTIONS, type QuestionDraft } from "#app/schemas/quiz-form-schema";
import { FieldError } from "./form-field";
import { ANSWER_LETTERS, ANSWER_SHAPES } from "./game-ui";
import { Tooltip } from "./tooltip";

/** Field ids follow the error keys (`questions.0.answers.2` -> `questions-0-answers-2`), so a message finds its field. */
export const fieldId = (errorKey: string) => errorKey.replace(/\./g, "-");

/** An editor button: a submit with its intent without JavaScript; a local change with it. */
export type EditorIntent = (event: MouseEvent<HTMLButtonElement>, intent: string) => void;

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
        <div className="field kind-fields kind-choice kind-trueFalse kind-multiSelect kind-typeAnswer kind-closestNumber">
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

      <OptionsFields {...{ index, question, errors, onChange, onIntent }} />

      <fieldset className="choice-group kind-fields kind-trueFalse">
        <legend className="label">{t("question.correctAnswer")}</legend>
        {[t("question.true"), t("question.false")].map((label, value) => (
          <label key={value} className="choice">
            <input type="radio" name={name("trueFalse")} value={value} checked={question.trueFalse === value} onChange={() => onChange({ trueFalse: value })} />
            {label}
          </label>
        ))}
      </fieldset>

      <div className="field kind-fields kind-typeAnswer">
        <label htmlFor={fieldId(key("acceptedAnswers"))}>{t("question.acceptedAnswers")}</label>
        <textarea
          id={fieldId(key("acceptedAnswers"))}
          name={name("acceptedAnswers")}
          className="textarea"
          rows={3}
          value={question.acceptedAnswers}
          aria-invalid={error("acceptedAnswers") ? true : undefined}
          aria-describedby={fieldId(key("acceptedAnswers-hint"))}
          onChange={(event) => onChange({ acceptedAnswers: event.target.value })}
        />
        <p id={fieldId(key("acceptedAnswers-hint"))} className="hint">
          {t("question.acceptedAnswersHint")}
        </p>
        <FieldError id={fieldId(key("acceptedAnswers-error"))} message={error("acceptedAnswers")} />
      </div>

      <div className="field kind-fields kind-closestNumber">
        <label htmlFor={fieldId(key("correctNumber"))}>{t("question.correctNumber")}</label>
        <input
          id={fieldId(key("correctNumber"))}
          name={name("correctNumber")}
          className="input"
          inputMode="decimal"
          value={question.correctNumber}
          aria-invalid={error("correctNumber") ? true : undefined}
          aria-describedby={fieldId(key("correctNumber-hint"))}
          onChange={(event) => onChange({ correctNumber: event.target.value })}
        />
        <p id={fieldId(key("correctNumber-hint"))} className="hint">
          {t("question.correctNumberHint")}
        </p>
        <FieldError id={fieldId(key("correctNumber-error"))} message={error("correctNumber")} />
      </div>

      <p className="hint kind-fields kind-poll">{t("question.pollHint")}</p>

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

/** The options of choice, multi-select and poll questions, with the right one(s) marked. */
function OptionsFields({ index, question, errors, onChange, onIntent }: Pick<QuestionEditorProps, "index" | "question" | "errors" | "onChange" | "onIntent">) {
  const { t } = useTranslation("quiz");
  const n = index + 1;
  const name = (field: string) => `questions[${index}].${field}`;
  const key = (field: string) => `questions.${index}.${field}`;
  const setAnswer = (answerIndex: number) => (event: ChangeEvent<HTMLInputElement>) =>
    onChange({ answers: question.answers.map((existing, i) => (i === answerIndex ? event.target.value : existing)) });
  const toggleCorrect = (answerIndex: number) =>
    onChange({
      correctAnswerIndexes: question.correctAnswerIndexes.includes(answerIndex)
        ? question.correctAnswerIndexes.filter((i) => i !== answerIndex)
        : [...question.correctAnswerIndexes, answerIndex].sort((a, b) => a - b),
    });
  return (
    <div className="stack kind-fields kind-choice kind-multiSelect kind-poll">
      <p className="hint kind-fields kind-multiSelect">{t("question.multiSelectHint")}</p>
      <div className="answer-grid">
        {question.answers.map((answer, answerIndex) => {
          const letter = ANSWER_LETTERS[answerIndex];
          const answerKey = key(`answers.${answerIndex}`);
          return (
            <div key={answerIndex} className="field answer-option">
              <label htmlFor={fieldId(answerKey)}>
                <span aria-hidden="true">{ANSWER_SHAPES[answerIndex]} </span>
                {t("question.answer", { letter })}
              </label>
              <div className="row answer-option-row">
                <input
                  id={fieldId(answerKey)}
                  name={name(`answers[${answerIndex}]`)}
                  className="input"
                  value={answer}
                  aria-invalid={errors[answerKey] ? true : undefined}
                  aria-describedby={errors[answerKey] ? fieldId(`${answerKey}-error`) : undefined}
                  onChange={setAnswer(answerIndex)}
                />
                {question.answers.length > MIN_OPTIONS ? (
                  <Tooltip label={t("question.deleteOption", { letter, n })}>
                    <button
                      type="submit"
                      name="intent"
                      value={`remove-answer-${index}-${answerIndex}`}
                      className="button button-secondary button-small"
                      onClick={(event) => onIntent(event, `remove-answer-${index}-${answerIndex}`)}
                    >
                      ×
                    </button>
                  </Tooltip>
                ) : null}
              </div>
              <FieldError id={fieldId(`${answerKey}-error`)} message={errors[answerKey]} />
            </div>
          );
        })}
      </div>
      <FieldError id={fieldId(key("answers-error"))} message={errors[key("answers")]} />
      <fieldset className="choice-group kind-fields kind-choice">
        <legend className="label">{t("question.correctAnswer")}</legend>
        {question.answers.map((_, answerIndex) => (
          <label key={answerIndex} className="choice">
            <input
              type="radio"
              name={name("correctAnswerIndex")}
              value={answerIndex}
              checked={question.correctAnswerIndex === answerIndex}
              onChange={() => onChange({ correctAnswerIndex: answerIndex })}
            />
            {ANSWER_LETTERS[answerIndex]}
          </label>
        ))}
      </fieldset>
      <FieldError id={fieldId(key("correctAnswerIndex-error"))} message={errors[key("correctAnswerIndex")]} />
      <fieldset className="choice-group kind-fields kind-multiSelect">
        <legend className="label">{t("question.correctAnswers")}</legend>
        {question.answers.map((_, answerIndex) => (
          <label key={answerIndex} className="choice">
            <input
              type="checkbox"
              name={name("correctAnswerIndexes")}
              value={answerIndex}
              checked={question.correctAnswerIndexes.includes(answerIndex)}
              onChange={() => toggleCorrect(answerIndex)}
            />
            {ANSWER_LETTERS[answerIndex]}
          </label>
        ))}
      </fieldset>
      <FieldError id={fieldId(key("correctAnswerIndexes-error"))} message={errors[key("correctAnswerIndexes")]} />
      {question.answers.length < MAX_OPTIONS ? (
        <div>
          <button
            type="submit"
            name="intent"
            value={`add-answer-${index}`}
            className="button button-secondary button-small"
            aria-label={t("question.addAnswerLabel", { n })}
            onClick={(event) => onIntent(event, `add-answer-${index}`)}
          >
            {t("question.addAnswer")}
          </button>
        </div>
      ) : null}
    </div>
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
