/** Closest number on screen: players guess a number; the reveal shows the truth and the spread of guesses; the author gives the number. */
import { FieldError } from "#app/components/form-field";
import { NumberReveal } from "#app/components/host-reveals";
import { fieldId } from "#app/components/kind-editor-fields";
import { GuessNumber } from "#app/components/player-inputs";
import { useTranslation } from "#app/i18n/use-translation";
import type { EditorFieldsProps, KindComponents } from "../components-part";

function CorrectNumber({ index, question, errors, onChange }: EditorFieldsProps) {
  const { t } = useTranslation("quiz");
  const key = `questions.${index}.correctNumber`;
  return (
    <div className="field">
      <label htmlFor={fieldId(key)}>{t("question.correctNumber")}</label>
      <input
        id={fieldId(key)}
        name={`questions[${index}].correctNumber`}
        className="input"
        inputMode="decimal"
        value={question.correctNumber}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={fieldId(`${key}-hint`)}
        onChange={(event) => onChange({ correctNumber: event.target.value })}
      />
      <p id={fieldId(`${key}-hint`)} className="hint">
        {t("question.correctNumberHint")}
      </p>
      <FieldError id={fieldId(`${key}-error`)} message={errors[key]} />
    </div>
  );
}

export const closestNumberUi: KindComponents = {
  PlayerInput: GuessNumber,
  HostReveal: NumberReveal,
  howToAnswer: "host.howToAnswer.closestNumber",
  EditorFields: CorrectNumber,
  editsOptions: false,
};
