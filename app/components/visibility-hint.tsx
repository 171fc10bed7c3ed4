import { useTranslation } from "#app/i18n/use-translation";

/**
 * What a quiz's visibility means (docs/product.md#screens), beside every control that sets it:
 * quizzes are private unless chosen otherwise, so an empty Featured page is the usual first sight.
 */
export function VisibilityHint({ id }: { id: string }) {
  const { t } = useTranslation("quiz");
  return (
    <p id={id} className="hint">
      {t("visibility.hint")}
    </p>
  );
}
