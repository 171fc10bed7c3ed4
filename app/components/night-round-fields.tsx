import type { MouseEvent } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { fieldIdOf, MIN_ROUNDS, NIGHT_TITLE_MAX_LENGTH, type NightRoundDraft } from "#app/nights/night-plan";

export interface QuizOption {
  id: number;
  title: string;
  questionCount: number;
  isPublic: boolean;
}

export function RoundFields({
  index,
  count,
  round,
  quizzes,
  quizError,
  titleError,
  onQuiz,
  onTitle,
  onIntent,
}: {
  index: number;
  count: number;
  round: NightRoundDraft;
  quizzes: QuizOption[];
  quizError?: string;
  titleError?: string;
  onQuiz(quizId: string): void;
  onTitle(title: string): void;
  onIntent(event: MouseEvent<HTMLButtonElement>, intent: string): void;
}) {
  const { t } = useTranslation("quiz");
  const n = index + 1;
  const quizId = fieldIdOf(`rounds[${index}].quizId`);
  const titleId = fieldIdOf(`rounds[${index}].title`);
  const chosen = quizzes.find((quiz) => String(quiz.id) === round.quizId);
  // Each button's name holds its visible word (WCAG 2.5.3) and says which round it moves.
  const button = (intent: string, label: string, text: string, disabled: boolean, id?: string) => (
    <button
      type="submit"
      name="intent"
      value={intent}
      id={id}
      className="button button-secondary button-small"
      aria-label={label}
      disabled={disabled}
      onClick={(event) => onIntent(event, intent)}
    >
      {text}
    </button>
  );
  return (
    <fieldset className="card stack night-round" data-testid={`round-${index}`}>
      <legend>{t("night.round", { n })}</legend>
      <div className="field">
        <label htmlFor={quizId}>{t("night.quiz")}</label>
        <select
          id={quizId}
          name={`rounds[${index}].quizId`}
          className="select"
          value={round.quizId}
          aria-invalid={quizError ? true : undefined}
          aria-describedby={quizError ? `${quizId}-error` : undefined}
          onChange={(event) => onQuiz(event.target.value)}
        >
          <option value="">{t("night.chooseQuiz")}</option>
          {quizzes.map((quiz) => (
            <option key={quiz.id} value={quiz.id} disabled={quiz.questionCount === 0 && String(quiz.id) !== round.quizId}>
              {quiz.questionCount === 0
                ? t("night.quizOptionEmpty", { title: quiz.title })
                : t(quiz.isPublic ? "night.quizOptionPublic" : "night.quizOptionPrivate", { title: quiz.title, count: quiz.questionCount })}
            </option>
          ))}
        </select>
        {quizError ? (
          <p id={`${quizId}-error`} className="field-error">
            {quizError}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={titleId}>{t("night.roundTitle")}</label>
        <input
          id={titleId}
          name={`rounds[${index}].title`}
          className="input"
          value={round.title}
          maxLength={NIGHT_TITLE_MAX_LENGTH}
          placeholder={chosen?.title}
          autoComplete="off"
          aria-invalid={titleError ? true : undefined}
          aria-describedby={titleError ? `${titleId}-hint ${titleId}-error` : `${titleId}-hint`}
          onChange={(event) => onTitle(event.target.value)}
        />
        <p id={`${titleId}-hint`} className="hint">
          {t("night.roundTitleHint")}
        </p>
        {titleError ? (
          <p id={`${titleId}-error`} className="field-error">
            {titleError}
          </p>
        ) : null}
      </div>
      <div className="row">
        {button(`move-round-${index}-up`, t("night.moveUpLabel", { n }), t("night.moveUp"), index === 0, `round-${index}-move-up`)}
        {button(`move-round-${index}-down`, t("night.moveDownLabel", { n }), t("night.moveDown"), index === count - 1, `round-${index}-move-down`)}
        {button(`remove-round-${index}`, t("night.removeLabel", { n }), t("night.remove"), count <= MIN_ROUNDS)}
      </div>
    </fieldset>
  );
}
