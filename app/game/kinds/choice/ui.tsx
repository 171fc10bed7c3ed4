/** Multiple choice on screen: one tap answers; the reveal marks the right option; the author marks it under the options. */
import { FieldError } from "#app/components/form-field";
import { ANSWER_LETTERS } from "#app/components/game-ui";
import { NoReveal } from "#app/components/host-reveals";
import { fieldId } from "#app/components/kind-editor-fields";
import { PickOne } from "#app/components/player-inputs";
import { useTranslation } from "#app/i18n/use-translation";
import type { EditorFieldsProps, KindComponents } from "../components-part";

function OneRightOption({ index, question, errors, onChange }: EditorFieldsProps) {
  const { t } = useTranslation("quiz");
  const key = `questions.${index}.correctAnswerIndex`;
  return (
    <>
      <fieldset className="choice-group">
        <legend className="label">{t("question.correctAnswer")}</legend>
        {question.answers.map((_, answerIndex) => (
          <label key={answerIndex} className="choice">
            <input
              type="radio"
              name={`questions[${index}].correctAnswerIndex`}
              value={answerIndex}
              checked={question.correctAnswerIndex === answerIndex}
              onChange={() => onChange({ correctAnswerIndex: answerIndex })}
            />
            {ANSWER_LETTERS[answerIndex]}
          </label>
        ))}
      </fieldset>
      <FieldError id={fieldId(`${key}-error`)} message={errors[key]} />
    </>
  );
}

export const choiceUi: KindComponents = {
  PlayerInput: PickOne,
  HostReveal: NoReveal,
  howToAnswer: null,
  EditorFields: OneRightOption,
  editsOptions: true,
};
