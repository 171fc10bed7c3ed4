/** Multi-select on screen: players tick several and submit; the author ticks every right option under the options. */
import { FieldError } from "#app/components/form-field";
import { ANSWER_LETTERS } from "#app/components/game-ui";
import { NoReveal } from "#app/components/host-reveals";
import { fieldId } from "#app/components/kind-editor-fields";
import { PickSeveral } from "#app/components/player-inputs";
import { useTranslation } from "#app/i18n/use-translation";
import type { EditorFieldsProps, KindComponents } from "../components-part";

function RightOptions({ index, question, errors, onChange }: EditorFieldsProps) {
  const { t } = useTranslation("quiz");
  const key = `questions.${index}.correctAnswerIndexes`;
  const toggle = (answerIndex: number) =>
    onChange({
      correctAnswerIndexes: question.correctAnswerIndexes.includes(answerIndex)
        ? question.correctAnswerIndexes.filter((i) => i !== answerIndex)
        : [...question.correctAnswerIndexes, answerIndex].sort((a, b) => a - b),
    });
  return (
    <>
      <p className="hint">{t("question.multiSelectHint")}</p>
      <fieldset className="choice-group">
        <legend className="label">{t("question.correctAnswers")}</legend>
        {question.answers.map((_, answerIndex) => (
          <label key={answerIndex} className="choice">
            <input
              type="checkbox"
              name={`questions[${index}].correctAnswerIndexes`}
              value={answerIndex}
              checked={question.correctAnswerIndexes.includes(answerIndex)}
              onChange={() => toggle(answerIndex)}
            />
            {ANSWER_LETTERS[answerIndex]}
          </label>
        ))}
      </fieldset>
      <FieldError id={fieldId(`${key}-error`)} message={errors[key]} />
    </>
  );
}

export const multiSelectUi: KindComponents = {
  PlayerInput: PickSeveral,
  HostReveal: NoReveal,
  howToAnswer: null,
  EditorFields: RightOptions,
  editsOptions: true,
};
