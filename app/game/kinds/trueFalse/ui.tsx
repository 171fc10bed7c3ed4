/** True or false on screen: one tap answers; the editor asks which of the two is right (the options stay True and False). */
import { NoReveal } from "#app/components/host-reveals";
import { PickOne } from "#app/components/player-inputs";
import { useTranslation } from "#app/i18n/use-translation";
import type { EditorFieldsProps, KindComponents } from "../components-part";

function TrueOrFalse({ index, question, onChange }: EditorFieldsProps) {
  const { t } = useTranslation("quiz");
  return (
    <fieldset className="choice-group">
      <legend className="label">{t("question.correctAnswer")}</legend>
      {[t("question.true"), t("question.false")].map((label, value) => (
        <label key={value} className="choice">
          <input
            type="radio"
            name={`questions[${index}].trueFalse`}
            value={value}
            checked={question.trueFalse === value}
            onChange={() => onChange({ trueFalse: value })}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

export const trueFalseUi: KindComponents = {
  PlayerInput: PickOne,
  HostReveal: NoReveal,
  howToAnswer: null,
  EditorFields: TrueOrFalse,
  editsOptions: false,
};
