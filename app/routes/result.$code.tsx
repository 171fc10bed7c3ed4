import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ANSWER_LETTERS, ConnectingNotice } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { useGame } from "#app/game/client/game-provider";
import { requirePlayerScreen } from "#app/utils/game-screen.server";

export const meta: MetaFunction = () => [{ title: "Result · Quiz Night" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return requirePlayerScreen(context.db, request, params.code);
}

export default function PlayerResult() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state } = useGame();
  const mine = state.answerResults.find((result) => result.playerId === state.playerId);
  if (state.gameCode !== gameCode || !mine || state.correctAnswerIndex === null) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  const correctIndex = state.correctAnswerIndex;
  const correctText = state.currentQuestion?.answers[correctIndex] ?? "";

  return (
    <Page narrow>
      <div className="card center stack" aria-live="polite">
        {mine.correct ? (
          <>
            <h1 className="result-correct">Correct!</h1>
            <p className="stat-value" data-testid="points">+{mine.points} points</p>
            <p>Answered in {((mine.responseTimeMs ?? 0) / 1000).toFixed(1)} s{mine.streak > 1 ? ` · ${mine.streak} in a row` : ""}</p>
          </>
        ) : (
          <>
            <h1 className="result-incorrect">{mine.answerIndex === null ? "Time's up!" : "Incorrect"}</h1>
            <p>
              The correct answer was{" "}
              <strong data-testid="correct-answer">
                {ANSWER_LETTERS[correctIndex]}. {correctText}
              </strong>
            </p>
          </>
        )}
        <p>
          You are <strong>#{mine.rank}</strong> with <strong data-testid="score">{mine.score}</strong> points
        </p>
        <p className="muted">Question {state.questionNumber} of {state.totalQuestions}</p>
      </div>
    </Page>
  );
}
