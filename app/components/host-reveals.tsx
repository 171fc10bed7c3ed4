/**
 * What a kind's reveal adds on the host's screen and the projector (app/game/kinds/components.ts):
 * the typed answers, the number and how the guesses spread, or nothing. The remote shows the typed
 * answers too, to accept one from a phone.
 */
import { Trans, useTranslation } from "#app/i18n/use-translation";
import type { HostRevealProps } from "#app/game/kinds/components-part";
import { NumberSpreadChart, useGameFormat } from "./game-ui";

/** Most kinds' reveal is the options' own marking. */
export function NoReveal(_props: HostRevealProps) {
  return null;
}

/** The true number, and how the room's guesses spread around it. */
export function NumberReveal({ state }: HostRevealProps) {
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const reveal = state.reveal!;
  return (
    <section className="card stack" aria-labelledby="number-heading">
      <h2 id="number-heading">
        <Trans
          t={t}
          i18nKey="host.theAnswer"
          components={{ number: <span data-testid="correct-number">{reveal.correctNumber === null ? "" : format.number(reveal.correctNumber)}</span> }}
        />
      </h2>
      {reveal.numberSpread ? (
        <NumberSpreadChart spread={reveal.numberSpread} truth={reveal.correctNumber} />
      ) : (
        <p className="muted">{t("host.nobodyGuessed")}</p>
      )}
    </section>
  );
}

/**
 * The typed answers after the reveal: what was accepted, and for a host each distinct answer with
 * its count and Accept on a wrong one. A display shows what was accepted alone.
 */
export function TypedReveal({ state, onAccept }: HostRevealProps) {
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const reveal = state.reveal!;
  return (
    <section className="card stack" aria-labelledby="typed-heading">
      <h2 id="typed-heading">{t("host.acceptedAnswers", { answers: reveal.acceptedAnswers.join(", ") })}</h2>
      {!onAccept ? null : reveal.typedAnswers.length === 0 ? (
        <p className="muted">{t("host.nobodyTyped")}</p>
      ) : (
        <ul className="typed-answers" aria-label={t("host.whatPlayersTyped")} data-testid="typed-answers">
          {reveal.typedAnswers.map((group) => (
            <li key={group.text} className={group.correct ? "correct" : undefined}>
              <span>
                {group.correct ? "✓ " : "✗ "}
                <strong>{group.text}</strong> <span className="muted">× {format.score(group.count)}</span>
              </span>
              {group.correct ? null : (
                <button
                  type="button"
                  className="button button-secondary button-small"
                  onClick={() => onAccept(group.text)}
                  aria-label={t("host.acceptLabel", { text: group.text })}
                >
                  {t("host.accept")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
