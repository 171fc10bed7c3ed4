/** Type the answer on screen: players type; the reveal lists what they typed for the host to accept; the author lists the accepted answers. */
import { FieldError } from "#app/components/form-field";
import { TypedReveal } from "#app/components/host-reveals";
import { fieldId } from "#app/components/kind-editor-fields";
import { TypeAnswer } from "#app/components/player-inputs";
import { useTranslation } from "#app/i18n/use-translation";
import type { EditorFieldsProps, KindComponents } from "../components-part";

function AcceptedAnswers({ index, question, errors, onChange }: EditorFieldsProps) {
  const { t } = useTranslation("quiz");
  const key = `questions.${index}.acceptedAnswers`;
  return (
    <div className="field">
      <label htmlFor={fieldId(key)}>{t("question.acceptedAnswers")}</label>
      <textarea
        id={fieldId(key)}
        name={`questions[${index}].acceptedAnswers`}
        className="textarea"
        rows={3}
        value={question.acceptedAnswers}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={fieldId(`${key}-hint`)}
        onChange={(event) => onChange({ acceptedAnswers: event.target.value })}
      />
      <p id={fieldId(`${key}-hint`)} className="hint">
        {t("question.acceptedAnswersHint")}
      </p>
      <FieldError id={fieldId(`${key}-error`)} message={errors[key]} />
    </div>
  );
}

export const typeAnswerUi: KindComponents = {
  PlayerInput: TypeAnswer,
  HostReveal: TypedReveal,
  howToAnswer: "host.howToAnswer.typeAnswer",
  EditorFields: AcceptedAnswers,
  editsOptions: false,
};
