import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConnectingNotice, ScreenHeading, StandingRow, useNow, usePreloadPicture } from "#app/components/game-ui";
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
  // The next question's picture loads while the standings are up, so it shows the moment it opens.
  usePreloadPicture(state.nextImage, state.isHost ? "large" : state.picturesOnPlayers ? "small" : null);
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
        <ScreenHeading className="center">Leaderboard</ScreenHeading>
        <ol className="leaderboard" aria-label="Leaderboard">
          {state.leaderboard.map((entry) => (
            <StandingRow key={entry.id} {...entry} isMe={entry.id === state.playerId} />
          ))}
          {me && !meInTop && state.nickname ? <StandingRow rank={me.rank} nickname={`${state.nickname} (you)`} score={me.score} isMe testId="own-row" /> : null}
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
