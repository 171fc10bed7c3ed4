import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { AnswerLabel, ConnectingNotice, Countdown, useNow } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { useGame } from "#app/game/client/game-provider";
import { timeLeftMs } from "#app/game/client/game-state";
import { requirePlayerScreen } from "#app/utils/game-screen.server";

export const meta: MetaFunction = () => [{ title: "Play · Quiz Night" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return requirePlayerScreen(context.db, request, params.code);
}

const KEY_TO_ANSWER: Record<string, number> = { "1": 0, "2": 1, "3": 2, "4": 3, a: 0, b: 1, c: 2, d: 3 };

export default function PlayQuestion() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, submitAnswer } = useGame();
  const now = useNow();
  const question = state.currentQuestion;
  const locked = state.answerStatus === "submitting" || state.answerStatus === "success";
  const secondsLeft = Math.ceil(timeLeftMs(state, now) / 1000);
  const timeUp = state.isQuestionActive && secondsLeft === 0;

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const index = KEY_TO_ANSWER[event.key.toLowerCase()];
      if (index !== undefined) submitAnswer(index);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [submitAnswer]);

  if (state.gameCode !== gameCode || !question) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }

  return (
    <Page>
      <div className="stack">
        <div className="row" style={{ justifyContent: "space-between" }}>
          <h1>
            Question {state.questionNumber} of {state.totalQuestions}
          </h1>
          <Countdown secondsLeft={secondsLeft} />
        </div>
        <p className="question-text">{question.text}</p>
        <div className="answers" role="group" aria-label="Answers">
          {question.answers.map((answer, index) => {
            const selected = state.selectedAnswerIndex === index;
            return (
              <button
                key={index}
                type="button"
                className={`answer answer-${index}${locked && !selected ? " dimmed" : ""}${locked && selected ? " selected" : ""}`}
                disabled={locked || !state.isQuestionActive || timeUp}
                aria-pressed={selected}
                aria-keyshortcuts={`${index + 1} ${"ABCD"[index]}`}
                onClick={() => submitAnswer(index)}
              >
                <AnswerLabel index={index} text={answer} />
              </button>
            );
          })}
        </div>
        <div aria-live="polite">
          {state.answerStatus === "submitting" ? <p className="status-banner">Submitting...</p> : null}
          {state.answerStatus === "success" ? (
            <p className="status-banner">Answer submitted! Waiting for other players...</p>
          ) : null}
          {state.answerStatus === "error" ? (
            <p className="status-banner form-error" role="alert">
              {state.answerError ?? "Failed to submit your answer. Please try again."}
            </p>
          ) : null}
          {state.answerStatus === "idle" && timeUp ? <p className="status-banner">Time's up!</p> : null}
        </div>
        <p className="muted center">Tip: press 1-4 or A-D to answer.</p>
      </div>
    </Page>
  );
}
