import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AnswerDistribution, AnswerLabel, ConnectingNotice, Countdown, useNow } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { useGame } from "#app/game/client/game-provider";
import { timeLeftMs } from "#app/game/client/game-state";
import { requireHostScreen } from "#app/utils/game-screen.server";

export const meta: MetaFunction = () => [{ title: "Hosting · Quiz Night" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return requireHostScreen(context.db, request, params.code);
}

export default function HostQuestion() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, nextQuestion } = useGame();
  const now = useNow();
  const question = state.currentQuestion;
  if (state.gameCode !== gameCode || !question) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  const revealed = state.phase === "results" && state.correctAnswerIndex !== null;
  const secondsLeft = Math.ceil(timeLeftMs(state, now) / 1000);
  const answered = state.answeredCount;
  const total = Math.max(state.playerCount, answered);

  return (
    <Page>
      <div className="stack">
        <div className="row" style={{ justifyContent: "space-between" }}>
          <h1>
            Question {state.questionNumber} of {state.totalQuestions}
          </h1>
          {revealed ? <span className="badge">Time's up</span> : <Countdown secondsLeft={secondsLeft} />}
        </div>
        <p className="question-text">{question.text}</p>
        <div className="answers">
          {question.answers.map((answer, index) => (
            <div
              key={index}
              className={`answer answer-${index}${revealed && index !== state.correctAnswerIndex ? " dimmed" : ""}${revealed && index === state.correctAnswerIndex ? " correct" : ""}`}
            >
              <AnswerLabel index={index} text={answer} />
            </div>
          ))}
        </div>
        <section className="card stack" aria-labelledby="responses-heading">
          <h2 id="responses-heading">Live responses</h2>
          <p data-testid="answered-count">
            {answered} of {total} answered
          </p>
          <div className="progress-bar" aria-hidden="true">
            <span style={{ width: `${total === 0 ? 0 : Math.round((answered / total) * 100)}%` }} />
          </div>
          {revealed ? (
            <AnswerDistribution answers={question.answers} counts={state.answerCounts} correctAnswerIndex={state.correctAnswerIndex} />
          ) : (
            <p className="muted">The answer distribution shows when the question closes.</p>
          )}
        </section>
        <div className="row" style={{ justifyContent: "flex-end" }}>
          <button type="button" className="button" onClick={nextQuestion}>
            {revealed ? "Next" : "Skip"}
          </button>
        </div>
      </div>
    </Page>
  );
}
