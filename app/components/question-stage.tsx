/**
 * A question as the room sees it, on the host's screen and on the projector's display
 * (docs/decisions/0032-display-and-remote.md): its number and countdown, the text, the picture, the
 * options, and once it closes the reveal its kind has, with the live count of answers. The host's
 * screen adds its controls around it; the display shows it as it is.
 */
import { kindOf } from "#app/game/kinds";
import { kindComponentsOf } from "#app/game/kinds/components";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { timeLeftMs, type ClientGameState } from "#app/game/client/game-state";
import { playProjectorCue } from "./projector/projector-sound";
import { RoundLabel } from "./round-label";
import { countdownCue } from "./projector/sound";
import { AnswerDistribution, AnswerLabel, Countdown, PointsBadge, QuestionPicture, ScreenHeading } from "./game-ui";

/**
 * The room's sound cues (app/components/projector/sound.ts): a tick each second of a running
 * question, the sting at the reveal, the fanfare at the podium; only where the sound is switched on.
 */
export function useRoomSounds(state: ClientGameState, now: number, active: boolean): void {
  const inQuestion = active && state.currentQuestion !== null;
  const ticking = inQuestion && state.phase === "question" ? Math.ceil(timeLeftMs(state, now) / 1000) : 0;
  const revealing = inQuestion && state.phase === "results";
  const podium = active && state.phase === "finished";
  useEffect(() => {
    const cue = countdownCue(ticking);
    if (cue) playProjectorCue(cue);
  }, [ticking]);
  useEffect(() => {
    if (revealing) playProjectorCue("reveal");
  }, [revealing]);
  useEffect(() => {
    if (podium) playProjectorCue("fanfare");
  }, [podium]);
}

export function QuestionStage({
  state,
  now,
  controls,
  onAccept,
}: {
  state: ClientGameState;
  now: number;
  /** Under the heading: the projector's switches. */
  controls?: ReactNode;
  /** The host's screen accepts a typed answer marked wrong; the projector's display does not. */
  onAccept?: (text: string) => void;
}) {
  const { t } = useTranslation("game");
  const question = state.currentQuestion!;
  const reveal = state.phase === "results" ? state.reveal : null;
  const revealed = reveal !== null;
  const correct = reveal?.correctAnswerIndexes ?? [];
  const secondsLeft = Math.ceil(timeLeftMs(state, now) / 1000);
  const paused = state.phase === "question" && state.pausedRemainingMs !== null;
  const answered = state.answeredCount;
  const total = Math.max(state.playerCount, answered);
  const hasOptions = question.answers.length > 0;
  // What the screen says for a kind without options, and what its reveal adds: the kind's (app/game/kinds/components.ts).
  const { howToAnswer } = kindComponentsOf(question.kind);
  const HostReveal = reveal ? kindComponentsOf(reveal.kind).HostReveal : null;
  return (
    <>
      <RoundLabel round={state.round} />
      <div className="row" style={{ justifyContent: "space-between" }}>
        <ScreenHeading screenKey={`${state.questionNumber}-${revealed ? "results" : "question"}`}>
          {t("questionOf", { number: state.questionNumber, total: state.totalQuestions })}
        </ScreenHeading>
        {revealed ? <span className="badge">{t("host.timeUp")}</span> : <Countdown secondsLeft={secondsLeft} paused={paused} />}
      </div>
      {controls}
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
              className={`answer answer-${index}${revealed && kindOf(question.kind).scored && !correct.includes(index) ? " dimmed" : ""}${revealed && correct.includes(index) ? " correct" : ""}`}
            >
              <AnswerLabel index={index} text={answer} />
            </div>
          ))}
        </div>
      ) : (
        <p className="center muted">{howToAnswer ? t(howToAnswer) : null}</p>
      )}
      {HostReveal ? <HostReveal state={state} onAccept={onAccept} /> : null}
      <section className="card stack" aria-labelledby="responses-heading">
        <h2 id="responses-heading">{t("host.liveResponses")}</h2>
        <p data-testid="answered-count">{t("host.answered", { count: answered, total })}</p>
        <div className="progress-bar" aria-hidden="true">
          <span style={{ width: `${total === 0 ? 0 : Math.round((answered / total) * 100)}%` }} />
        </div>
        {hasOptions ? (
          revealed ? (
            <AnswerDistribution answers={question.answers} counts={state.answerCounts} correctAnswerIndex={kindOf(question.kind).scored ? correct : null} />
          ) : (
            <p className="muted">{t("host.distributionLater")}</p>
          )
        ) : null}
      </section>
    </>
  );
}
