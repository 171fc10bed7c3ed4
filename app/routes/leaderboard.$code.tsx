import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Avatar, ConnectingNotice, useNow } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { useGame } from "#app/game/client/game-provider";
import { loadGameScreen } from "#app/utils/game-screen.server";

export const meta: MetaFunction = () => [{ title: "Leaderboard · Quiz Night" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadGameScreen(context.db, request, params.code);
}

export default function Leaderboard() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, nextQuestion } = useGame();
  const now = useNow();
  if (state.gameCode !== gameCode || state.leaderboardShownAt === null) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  const elapsed = Math.floor((now - state.leaderboardShownAt) / 1000);
  const secondsLeft = Math.max(0, state.nextQuestionIn - elapsed);
  const me = state.myStanding;
  const meInTop = state.leaderboard.some((entry) => entry.id === state.playerId);

  return (
    <Page narrow>
      <div className="stack">
        <h1 className="center">Leaderboard</h1>
        <ol className="leaderboard" aria-label="Leaderboard">
          {state.leaderboard.map((entry) => (
            <li key={entry.id} className={entry.id === state.playerId ? "me" : undefined}>
              <span className="rank">{entry.rank}</span>
              <Avatar nickname={entry.nickname} />
              <span>{entry.nickname}</span>
              <span className="score">{entry.score}</span>
            </li>
          ))}
          {me && !meInTop && state.nickname ? (
            <li className="me" data-testid="own-row">
              <span className="rank">{me.rank}</span>
              <Avatar nickname={state.nickname} />
              <span>{state.nickname} (you)</span>
              <span className="score">{me.score}</span>
            </li>
          ) : null}
        </ol>
        <p className="center">
          Question {state.questionNumber} of {state.totalQuestions} completed
        </p>
        <p className="center muted" role="timer">
          {state.isLastLeaderboard ? `Final results in ${secondsLeft} seconds...` : `Next question in ${secondsLeft} seconds...`}
        </p>
        {state.isHost ? (
          <div className="center">
            <button type="button" className="button" onClick={nextQuestion}>
              {state.isLastLeaderboard ? "Show final results" : "Next question"}
            </button>
          </div>
        ) : null}
      </div>
    </Page>
  );
}
