import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Avatar, ConnectingNotice, ScreenHeading, StandingRow } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { useToast } from "#app/components/toaster";
import { useGame } from "#app/game/client/game-provider";
import { getClientId } from "#app/game/client/storage";
import type { GameResults } from "#app/models/game.server";
import { loadGameScreen } from "#app/utils/game-screen.server";
import { resultsCsv } from "#app/utils/results-csv";

export const meta: MetaFunction = () => [{ title: "Final results · Quiz Night" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadGameScreen(context.db, request, params.code);
}

async function fetchResults(gameCode: string): Promise<GameResults> {
  const response = await fetch(`/api/games/${gameCode}/results`, { headers: { "X-Client-Id": getClientId() } });
  if (!response.ok) throw new Error(`${response.status}: ${(await response.text()) || response.statusText}`);
  return response.json() as Promise<GameResults>;
}

function downloadCsv(results: GameResults): void {
  const csv = resultsCsv(results.players);
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `quiz-night-${results.gameCode}-results.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

export default function FinalResults() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, playAgain, leaveGame } = useGame();
  const navigate = useNavigate();
  const toast = useToast();
  const [fullResults, setFullResults] = useState<GameResults | null>(null);
  const inThisGame = state.gameCode === gameCode && state.isGameOver;

  // The host sees every player; players see the top 10 and their own place.
  useEffect(() => {
    if (!inThisGame || !state.isHost) return;
    fetchResults(gameCode).then(setFullResults, () => setFullResults(null));
  }, [inThisGame, state.isHost, gameCode]);

  if (!inThisGame) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  const podium = state.leaderboard.slice(0, 3);
  const everyone = fullResults?.players ?? state.leaderboard;
  const me = state.myStanding;

  function onHome() {
    leaveGame();
    navigate("/");
  }

  async function onDownload() {
    try {
      downloadCsv(fullResults ?? (await fetchResults(gameCode)));
    } catch {
      toast({ title: "Error", description: "Could not download the results. Please try again.", variant: "destructive" });
    }
  }

  return (
    <Page narrow>
      <div className="stack">
        <ScreenHeading className="center">Game Complete</ScreenHeading>
        <div className="podium" aria-label="Podium">
          {[1, 0, 2].map((place) => {
            const entry = podium[place];
            if (!entry) return null;
            return (
              <div key={entry.id} className={`podium-step podium-${place + 1}`}>
                <Avatar nickname={entry.nickname} />
                <strong>{entry.nickname}</strong>
                <span>{entry.score} pts</span>
                <div className="podium-block">{entry.rank}</div>
              </div>
            );
          })}
        </div>
        {me && !state.isHost ? (
          <p className="status-banner" data-testid="own-rank">
            You finished #{me.rank} of {state.playerCount} with {me.score} points
          </p>
        ) : null}
        <ol className="leaderboard" aria-label="All players">
          {everyone.map((entry) => (
            <StandingRow key={entry.id} {...entry} isMe={entry.id === state.playerId} />
          ))}
        </ol>
        {!state.isHost && state.playerCount > everyone.length ? <p className="muted center">and {state.playerCount - everyone.length} more players</p> : null}
        <div className="row" style={{ justifyContent: "center" }}>
          {state.isHost ? (
            <>
              <button type="button" className="button" onClick={playAgain}>
                Play Again
              </button>
              <button type="button" className="button button-secondary" onClick={onDownload}>
                Download CSV
              </button>
            </>
          ) : null}
          <button type="button" className="button button-secondary" onClick={onHome}>
            Home
          </button>
        </div>
      </div>
    </Page>
  );
}
