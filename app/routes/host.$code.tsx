import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import {
  AnswerDistribution,
  AnswerLabel,
  ConnectingNotice,
  Countdown,
  NumberSpreadChart,
  PicturesOnPlayersSwitch,
  PointsBadge,
  QuestionPicture,
  ScreenHeading,
  useGameFormat,
  useNow,
} from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { ProjectorControls, useProjectorSound } from "#app/components/projector/projector-controls";
import { countdownCue } from "#app/components/projector/sound";
import { useGame } from "#app/game/client/game-provider";
import { timeLeftMs, type ClientGameState } from "#app/game/client/game-state";
import { metaT } from "#app/i18n/meta";
import { requireHostScreen } from "#app/utils/game-screen.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "game")("meta.host") }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return requireHostScreen(context.db, request, params.code);
}

const HOW_TO_ANSWER = {
  typeAnswer: "host.howToAnswer.typeAnswer",
  closestNumber: "host.howToAnswer.closestNumber",
} as const;

export default function HostQuestion() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, nextQuestion, pauseQuestion, resumeQuestion, acceptTypedAnswer, setPicturesOnPlayers } = useGame();
  const now = useNow();
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const { play } = useProjectorSound();
  const question = state.currentQuestion;
  const inGame = state.gameCode === gameCode && question !== null;
  const revealing = inGame && state.phase === "results";
  const ticking = inGame && state.phase === "question" ? Math.ceil(timeLeftMs(state, now) / 1000) : 0;
  // One tick per second of the running question, then the reveal's sting (app/components/projector/sound.ts).
  useEffect(() => {
    const cue = countdownCue(ticking);
    if (cue) play(cue);
  }, [ticking, play]);
  useEffect(() => {
    if (revealing) play("reveal");
  }, [revealing, play]);

  if (!inGame || !question) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  const reveal = state.phase === "results" ? state.reveal : null;
  const revealed = reveal !== null;
  const correct = reveal?.correctAnswerIndexes ?? [];
  const secondsLeft = Math.ceil(timeLeftMs(state, now) / 1000);
  const paused = state.phase === "question" && state.pausedRemainingMs !== null;
  const answered = state.answeredCount;
  const total = Math.max(state.playerCount, answered);
  const hasOptions = question.answers.length > 0;

  return (
    <Page>
      <div className="stack">
        <div className="row" style={{ justifyContent: "space-between" }}>
          <ScreenHeading screenKey={`${state.questionNumber}-${revealed ? "results" : "question"}`}>
            {t("questionOf", { number: state.questionNumber, total: state.totalQuestions })}
          </ScreenHeading>
          {revealed ? <span className="badge">{t("host.timeUp")}</span> : <Countdown secondsLeft={secondsLeft} paused={paused} />}
        </div>
        <ProjectorControls />
        <p className="question-text">{question.text}</p>
        <div className="center">
          <PointsBadge points={question.points} />
        </div>
        <QuestionPicture imageId={question.image} size="large" questionNumber={state.questionNumber} />
        {hasOptions ? (
          <div className="answers">
            {question.answers.map((answer, index) => (
              <div
                key={index}
                className={`answer answer-${index}${revealed && question.kind !== "poll" && !correct.includes(index) ? " dimmed" : ""}${revealed && correct.includes(index) ? " correct" : ""}`}
              >
                <AnswerLabel index={index} text={answer} />
              </div>
            ))}
          </div>
        ) : (
          <p className="center muted">{t(HOW_TO_ANSWER[question.kind as keyof typeof HOW_TO_ANSWER])}</p>
        )}
        {reveal?.kind === "typeAnswer" ? <TypedReveal state={state} onAccept={(text) => acceptTypedAnswer(state.questionNumber, text)} /> : null}
        {reveal?.kind === "closestNumber" ? (
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
        ) : null}
        <section className="card stack" aria-labelledby="responses-heading">
          <h2 id="responses-heading">{t("host.liveResponses")}</h2>
          <p data-testid="answered-count">{t("host.answered", { count: answered, total })}</p>
          <div className="progress-bar" aria-hidden="true">
            <span style={{ width: `${total === 0 ? 0 : Math.round((answered / total) * 100)}%` }} />
          </div>
          {hasOptions ? (
            revealed ? (
              <AnswerDistribution answers={question.answers} counts={state.answerCounts} correctAnswerIndex={question.kind === "poll" ? null : correct} />
            ) : (
              <p className="muted">{t("host.distributionLater")}</p>
            )
          ) : null}
        </section>
        <div className="row" style={{ justifyContent: "space-between" }}>
          <PicturesOnPlayersSwitch enabled={state.picturesOnPlayers} onChange={setPicturesOnPlayers} />
          <div className="row">
            {revealed ? null : paused ? (
              <button type="button" className="button button-secondary" onClick={resumeQuestion}>
                <span aria-hidden="true">▶</span> {t("host.resume")}
              </button>
            ) : (
              <button type="button" className="button button-secondary" onClick={pauseQuestion} disabled={secondsLeft === 0}>
                <span aria-hidden="true">⏸</span> {t("host.pause")}
              </button>
            )}
            <button type="button" className="button" onClick={nextQuestion}>
              {t(revealed ? "host.next" : "host.skip")}
            </button>
          </div>
        </div>
      </div>
    </Page>
  );
}

/** The typed answers after the reveal: each distinct one with its count; the host may accept a wrong one. */
function TypedReveal({ state, onAccept }: { state: ClientGameState; onAccept(text: string): void }) {
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const reveal = state.reveal!;
  return (
    <section className="card stack" aria-labelledby="typed-heading">
      <h2 id="typed-heading">{t("host.acceptedAnswers", { answers: reveal.acceptedAnswers.join(", ") })}</h2>
      {reveal.typedAnswers.length === 0 ? (
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
