/** A poll on screen: one tap answers, the reveal marks no option; the editor says why it has no right answer. */
import { NoReveal } from "#app/components/host-reveals";
import { PickOne } from "#app/components/player-inputs";
import { useTranslation } from "#app/i18n/use-translation";
import type { KindComponents } from "../components-part";

function PollHint() {
  const { t } = useTranslation("quiz");
  return <p className="hint">{t("question.pollHint")}</p>;
}

export const pollUi: KindComponents = {
  PlayerInput: PickOne,
  HostReveal: NoReveal,
  howToAnswer: null,
  EditorFields: PollHint,
  editsOptions: true,
};
