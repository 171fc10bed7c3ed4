import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { kindOf } from "#app/game/kinds";
import { useLoaderData } from "@remix-run/react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { ANSWER_LETTERS, AnswerDistribution, ConnectingNotice, ScreenHeading, useGameFormat } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { useGame } from "#app/game/client/game-provider";
import { metaT } from "#app/i18n/meta";
import { requirePlayerScreen } from "#app/http/api.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "game")("meta.result") }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return requirePlayerScreen(context, request, params.code);
}

export default function PlayerResult() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state } = useGame();
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const mine = state.answerResults.find((result) => result.playerId === state.playerId);
  const reveal = state.reveal;
  const question = state.currentQuestion;
  if (state.gameCode !== gameCode || !mine || !reveal || !question) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  const answered = mine.responseTimeMs !== null;
  const kind = kindOf(reveal.kind);
  const options = (indexes: number[]) => indexes.map((index) => `${ANSWER_LETTERS[index]}. ${question.answers[index] ?? ""}`).join(", ");
  const solution =
    kind.rightAnswer === "acceptedTexts"
      ? reveal.acceptedAnswers.join(" / ")
      : kind.rightAnswer === "number"
        ? reveal.correctNumber === null
          ? ""
          : format.number(reveal.correctNumber)
        : options(reveal.correctAnswerIndexes);
  const yours =
    typeof mine.value === "string"
      ? mine.value
      : typeof mine.value === "number"
        ? format.number(mine.value)
        : Array.isArray(mine.value)
          ? options(mine.value)
          : null;
  // Quiz content and players' words go into the sentences as elements, never as text Trans would read as markup.
  const solutionElement = <strong data-testid="correct-answer">{solution}</strong>;
  const points = (
    <p className="stat-value" data-testid="points">
      {t("points", { count: mine.points, points: format.score(mine.points) })}
    </p>
  );

  return (
    <Page narrow>
      <div className="card center stack" aria-live="polite">
        {!kind.scored ? (
          <>
            <ScreenHeading>{answered ? t("result.thanksForVoting") : t("timeUp")}</ScreenHeading>
            <AnswerDistribution answers={question.answers} counts={state.answerCounts} correctAnswerIndex={null} />
          </>
        ) : kind.scoredAtClose ? (
          <>
            <ScreenHeading className={mine.correct ? "result-correct" : undefined}>
              {!answered ? t("timeUp") : mine.correct ? t("result.spotOn") : t("result.close")}
            </ScreenHeading>
            <p>
              {yours !== null ? (
                <Trans t={t} i18nKey="result.answerWasGuessed" components={{ answer: solutionElement, guess: <strong>{yours}</strong> }} />
              ) : (
                <Trans t={t} i18nKey="result.answerWas" components={{ answer: solutionElement }} />
              )}
            </p>
            {answered ? points : null}
          </>
        ) : mine.correct ? (
          <>
            <ScreenHeading className="result-correct">{t("result.correct")}</ScreenHeading>
            {points}
            <p>
              {mine.streak > 1
                ? t("result.answeredInStreak", { seconds: format.seconds(mine.responseTimeMs ?? 0), streak: mine.streak })
                : t("result.answeredIn", { seconds: format.seconds(mine.responseTimeMs ?? 0) })}
            </p>
          </>
        ) : (
          <>
            <ScreenHeading className="result-incorrect">
              {!answered ? t("timeUp") : mine.points > 0 ? t("result.partlyRight") : t("result.incorrect")}
            </ScreenHeading>
            {mine.points > 0 ? points : null}
            {yours !== null && kind.typed ? (
              <p>
                <Trans t={t} i18nKey="result.youTyped" components={{ typed: <strong>{yours}</strong> }} />
              </p>
            ) : null}
            <p>
              <Trans
                t={t}
                i18nKey={
                  kind.rightAnswer === "acceptedTexts"
                    ? "result.accepted"
                    : reveal.correctAnswerIndexes.length > 1
                      ? "result.correctAnswersWere"
                      : "result.correctAnswerWas"
                }
                components={{ answer: solutionElement }}
              />
            </p>
          </>
        )}
        {/* Read out after the heading (which takes focus): the rank is what a player waits to hear. */}
        <p role="status">
          <Trans
            t={t}
            i18nKey="result.standing"
            count={mine.score}
            values={{ rank: mine.rank, score: format.score(mine.score) }}
            components={{ rank: <strong />, score: <strong data-testid="score" /> }}
          />
        </p>
        <p className="muted">{t("questionOf", { number: state.questionNumber, total: state.totalQuestions })}</p>
      </div>
    </Page>
  );
}
