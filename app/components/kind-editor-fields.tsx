/**
 * What the quiz editor's kinds share (app/game/kinds/<kind>/ui.tsx): the field ids, the options the
 * author writes (choice, multi-select and poll mark theirs under them), and how a kind's fields are
 * in the page: each kind's in its own wrapper, `data-kind-fields`, which the rules below hide unless
 * its kind is the one chosen (docs/decisions/0045-question-kind-registry.md).
 */
import type { ChangeEvent, MouseEvent, ReactNode } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { QUESTION_KINDS } from "#app/game/kinds";
import type { QuestionDraft } from "#app/game/kinds/schema-part";
import { MAX_OPTIONS, MIN_OPTIONS } from "#app/game/question-kinds";
import { FieldError } from "./form-field";
import { ANSWER_LETTERS, ANSWER_SHAPES } from "./game-ui";
import { Tooltip } from "./tooltip";

/** Field ids follow the error keys (`questions.0.answers.2` -> `questions-0-answers-2`), so a message finds its field. */
export const fieldId = (errorKey: string) => errorKey.replace(/\./g, "-");

/** An editor button: a submit with its intent without JavaScript; a local change with it. */
export type EditorIntent = (event: MouseEvent<HTMLButtonElement>, intent: string) => void;

/**
 * Without JavaScript every kind's fields are in the page and the chosen kind's show, so the kind
 * select works before any script runs (tests/e2e/question-kinds.spec.ts). One rule per registered
 * kind, made from the registry: no style sheet in app/styles/ names a kind.
 */
export const KIND_FIELDS_CSS = QUESTION_KINDS.map(
  (kind) => `.question-card:has(.kind-select option[value="${kind}"]:checked) [data-kind-fields]:not([data-kind-fields~="${kind}"]) { display: none; }`,
).join("\n");

/** The rules above, once in the editor's page. */
export function KindFieldsStyle() {
  // The kinds' names only, from the registry: no author's text goes in.
  return <style dangerouslySetInnerHTML={{ __html: KIND_FIELDS_CSS }} />;
}

/** Fields shown for these kinds only (space-separated names); laid out as if the wrapper were not there. */
export function KindFields({ kinds, children }: { kinds: readonly string[]; children: ReactNode }) {
  return <div data-kind-fields={kinds.join(" ")}>{children}</div>;
}

/** The options the author writes, added and deleted; `children` (the kinds' own fields) go under them. */
export function OptionsEditor({
  index,
  question,
  errors,
  onChange,
  onIntent,
  children,
}: {
  index: number;
  question: QuestionDraft;
  errors: Record<string, string>;
  onChange(change: Partial<QuestionDraft>): void;
  onIntent: EditorIntent;
  children: ReactNode;
}) {
  const { t } = useTranslation("quiz");
  const n = index + 1;
  const name = (field: string) => `questions[${index}].${field}`;
  const key = (field: string) => `questions.${index}.${field}`;
  const setAnswer = (answerIndex: number) => (event: ChangeEvent<HTMLInputElement>) =>
    onChange({ answers: question.answers.map((existing, i) => (i === answerIndex ? event.target.value : existing)) });
  return (
    <div className="stack">
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
      {children}
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
