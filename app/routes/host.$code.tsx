import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  AnswerDistribution,
  AnswerLabel,
  ConnectingNotice,
  Countdown,
  formatNumber,
  NumberSpreadChart,
  PicturesOnPlayersSwitch,
  PointsBadge,
  QuestionPicture,
  ScreenHeading,
  useNow,
} from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { useGame } from "#app/game/client/game-provider";
import { timeLeftMs, type ClientGameState } from "#app/game/client/game-state";
import { requireHostScreen } from "#app/utils/game-screen.server";

export const meta: MetaFunction = () => [{ title: "Hosting · Quiz Night" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return requireHostScreen(context.db, request, params.code);
}

const HOW_TO_ANSWER = {
  typeAnswer: "Players type their answer on their device.",
  closestNumber: "Players guess a number on their device: the closest guess wins.",
} as const;

export default function HostQuestion() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, nextQuestion, acceptTypedAnswer, setPicturesOnPlayers } = useGame();
  const now = useNow();
  const question = state.currentQuestion;
  if (state.gameCode !== gameCode || !question) {
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
  const answered = state.answeredCount;
  const total = Math.max(state.playerCount, answered);
  const hasOptions = question.answers.length > 0;

  return (
    <Page>
      <div className="stack">
        <div className="row" style={{ justifyContent: "space-between" }}>
          <ScreenHeading screenKey={`${state.questionNumber}-${revealed ? "results" : "question"}`}>
            Question {state.questionNumber} of {state.totalQuestions}
          </ScreenHeading>
          {revealed ? <span className="badge">Time's up</span> : <Countdown secondsLeft={secondsLeft} />}
        </div>
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
          <p className="center muted">{HOW_TO_ANSWER[question.kind as keyof typeof HOW_TO_ANSWER]}</p>
        )}
        {reveal?.kind === "typeAnswer" ? <TypedReveal state={state} onAccept={(text) => acceptTypedAnswer(state.questionNumber, text)} /> : null}
        {reveal?.kind === "closestNumber" ? (
          <section className="card stack" aria-labelledby="number-heading">
            <h2 id="number-heading">
              The answer: <span data-testid="correct-number">{reveal.correctNumber === null ? "" : formatNumber(reveal.correctNumber)}</span>
            </h2>
            {reveal.numberSpread ? <NumberSpreadChart spread={reveal.numberSpread} truth={reveal.correctNumber} /> : <p className="muted">Nobody guessed.</p>}
          </section>
        ) : null}
        <section className="card stack" aria-labelledby="responses-heading">
          <h2 id="responses-heading">Live responses</h2>
          <p data-testid="answered-count">
            {answered} of {total} answered
          </p>
          <div className="progress-bar" aria-hidden="true">
            <span style={{ width: `${total === 0 ? 0 : Math.round((answered / total) * 100)}%` }} />
          </div>
          {hasOptions ? (
            revealed ? (
              <AnswerDistribution answers={question.answers} counts={state.answerCounts} correctAnswerIndex={question.kind === "poll" ? null : correct} />
            ) : (
              <p className="muted">The answer distribution shows when the question closes.</p>
            )
          ) : null}
        </section>
        <div className="row" style={{ justifyContent: "space-between" }}>
          <PicturesOnPlayersSwitch enabled={state.picturesOnPlayers} onChange={setPicturesOnPlayers} />
          <button type="button" className="button" onClick={nextQuestion}>
            {revealed ? "Next" : "Skip"}
          </button>
        </div>
      </div>
    </Page>
  );
}

/** The typed answers after the reveal: each distinct one with its count; the host may accept a wrong one. */
function TypedReveal({ state, onAccept }: { state: ClientGameState; onAccept(text: string): void }) {
  const reveal = state.reveal!;
  return (
    <section className="card stack" aria-labelledby="typed-heading">
      <h2 id="typed-heading">Accepted: {reveal.acceptedAnswers.join(", ")}</h2>
      {reveal.typedAnswers.length === 0 ? (
        <p className="muted">Nobody typed an answer.</p>
      ) : (
        <ul className="typed-answers" aria-label="What players typed" data-testid="typed-answers">
          {reveal.typedAnswers.map((group) => (
            <li key={group.text} className={group.correct ? "correct" : undefined}>
              <span>
                {group.correct ? "✓ " : "✗ "}
                <strong>{group.text}</strong> <span className="muted">× {group.count}</span>
              </span>
              {group.correct ? null : (
                <button type="button" className="button button-secondary button-small" onClick={() => onAccept(group.text)} aria-label={`Accept ${group.text}`}>
                  Accept
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
