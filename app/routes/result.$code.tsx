import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ANSWER_LETTERS, AnswerDistribution, ConnectingNotice, formatNumber, ScreenHeading } from "#app/components/game-ui";
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
  const options = (indexes: number[]) => indexes.map((index) => `${ANSWER_LETTERS[index]}. ${question.answers[index] ?? ""}`).join(", ");
  const solution =
    reveal.kind === "typeAnswer"
      ? reveal.acceptedAnswers.join(" / ")
      : reveal.kind === "closestNumber"
        ? reveal.correctNumber === null
          ? ""
          : formatNumber(reveal.correctNumber)
        : options(reveal.correctAnswerIndexes);
  const yours =
    typeof mine.value === "string"
      ? mine.value
      : typeof mine.value === "number"
        ? formatNumber(mine.value)
        : Array.isArray(mine.value)
          ? options(mine.value)
          : null;

  return (
    <Page narrow>
      <div className="card center stack" aria-live="polite">
        {reveal.kind === "poll" ? (
          <>
            <ScreenHeading>{answered ? "Thanks for voting!" : "Time's up!"}</ScreenHeading>
            <AnswerDistribution answers={question.answers} counts={state.answerCounts} correctAnswerIndex={null} />
          </>
        ) : reveal.kind === "closestNumber" ? (
          <>
            <ScreenHeading className={mine.correct ? "result-correct" : undefined}>
              {!answered ? "Time's up!" : mine.correct ? "Spot on!" : "Close?"}
            </ScreenHeading>
            <p>
              The answer was <strong data-testid="correct-answer">{solution}</strong>
              {yours !== null ? (
                <>
                  ; you guessed <strong>{yours}</strong>
                </>
              ) : null}
              .
            </p>
            {answered ? (
              <p className="stat-value" data-testid="points">
                +{mine.points} points
              </p>
            ) : null}
          </>
        ) : mine.correct ? (
          <>
            <ScreenHeading className="result-correct">Correct!</ScreenHeading>
            <p className="stat-value" data-testid="points">
              +{mine.points} points
            </p>
            <p>
              Answered in {((mine.responseTimeMs ?? 0) / 1000).toFixed(1)} s{mine.streak > 1 ? ` · ${mine.streak} in a row` : ""}
            </p>
          </>
        ) : (
          <>
            <ScreenHeading className="result-incorrect">{!answered ? "Time's up!" : mine.points > 0 ? "Partly right" : "Incorrect"}</ScreenHeading>
            {mine.points > 0 ? (
              <p className="stat-value" data-testid="points">
                +{mine.points} points
              </p>
            ) : null}
            {yours !== null && reveal.kind === "typeAnswer" ? (
              <p>
                You typed <strong>{yours}</strong>
              </p>
            ) : null}
            <p>
              {reveal.kind === "typeAnswer" ? "Accepted: " : reveal.correctAnswerIndexes.length > 1 ? "The correct answers were " : "The correct answer was "}
              <strong data-testid="correct-answer">{solution}</strong>
            </p>
          </>
        )}
        {/* Read out after the heading (which takes focus): the rank is what a player waits to hear. */}
        <p role="status">
          You are <strong>#{mine.rank}</strong> with <strong data-testid="score">{mine.score}</strong> points
        </p>
        <p className="muted">
          Question {state.questionNumber} of {state.totalQuestions}
        </p>
      </div>
    </Page>
  );
}
