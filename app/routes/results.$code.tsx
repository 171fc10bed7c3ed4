import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { ConnectingNotice, Podium, ScreenHeading, StandingRow, useGameFormat } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { TeamResults } from "#app/components/team-standings";
import { playProjectorCue } from "#app/components/projector/projector-sound";
import { useToast } from "#app/components/toaster";
import { useGame } from "#app/game/client/game-provider";
import { getClientId } from "#app/game/client/storage";
import { metaT } from "#app/i18n/meta";
import type { GameResults } from "#app/models/game-results.server";
import { loadGameScreen } from "#app/http/api.server";
import { resultsCsv } from "#app/reports/results-csv";
import { RoundStandings } from "#app/components/round-standings";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "game")("meta.results") }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadGameScreen(context, request, params.code);
}

async function fetchResults(gameCode: string): Promise<GameResults> {
  const response = await fetch(`/api/games/${gameCode}/results`, { headers: { "X-Client-Id": getClientId() } });
  if (!response.ok) throw new Error(`${response.status}: ${(await response.text()) || response.statusText}`);
  return response.json() as Promise<GameResults>;
}

/** The CSV is written here, in the browser, so its header speaks the page's language (`columns`, `teamColumn`). */
function downloadCsv(results: GameResults, columns: readonly string[], teamColumn: string): void {
  const csv = resultsCsv(results.players, columns, results.teamMode ? teamColumn : undefined);
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
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const [fullResults, setFullResults] = useState<GameResults | null>(null);
  const inThisGame = state.gameCode === gameCode && state.isGameOver;
  const hostSeesPodium = inThisGame && state.isHost;

  // The podium's fanfare, on the host's screen only (the one the room watches).
  useEffect(() => {
    if (hostSeesPodium) playProjectorCue("fanfare");
  }, [hostSeesPodium]);

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
  const everyone = fullResults?.players ?? state.leaderboard;
  const me = state.myStanding;

  function onHome() {
    leaveGame();
    navigate("/");
  }

  async function onDownload() {
    try {
      const columns = (["rank", "nickname", "score", "correct", "answered"] as const).map((column) => t(`results.csv.${column}`));
      downloadCsv(fullResults ?? (await fetchResults(gameCode)), columns, t("export.team", { ns: "reports" }));
    } catch {
      toast({ title: t("results.downloadFailedTitle"), description: t("results.downloadFailed"), variant: "destructive" });
    }
  }

  return (
    <Page narrow>
      <div className="stack">
        <ScreenHeading className="center">{t("results.heading")}</ScreenHeading>
        <TeamResults state={state} />
        <Podium standings={state.leaderboard} />
        {me && !state.isHost ? (
          <p className="status-banner" data-testid="own-rank">
            {t("results.ownRank", { rank: me.rank, total: format.score(state.playerCount), count: me.score, score: format.score(me.score) })}
          </p>
        ) : null}
        <ol className="leaderboard" aria-label={t("results.allPlayers")}>
          {everyone.map((entry) => (
            <StandingRow key={entry.id} {...entry} isMe={entry.id === state.playerId} />
          ))}
        </ol>
        {!state.isHost && state.playerCount > everyone.length ? (
          <p className="muted center">{t("results.andMorePlayers", { count: state.playerCount - everyone.length })}</p>
        ) : null}
        <RoundStandings rounds={state.roundResults} open="all" playerId={state.playerId} />
        <div className="row" style={{ justifyContent: "center" }}>
          {state.isHost ? (
            <>
              {/* A night ends with its last round (NIGHT_OVER): its host plans the next one. */}
              {state.roundResults.length > 0 ? (
                <Link to="/night/new" className="button">
                  {t("night.results.planAnother")}
                </Link>
              ) : (
                <button type="button" className="button" onClick={playAgain}>
                  {t("results.playAgain")}
                </button>
              )}
              <button type="button" className="button button-secondary" onClick={onDownload}>
                {t("results.downloadCsv")}
              </button>
              {/* Every game the host ran, this one first, each with its full report. */}
              <Link to="/my-games" className="button button-secondary">
                {t("account.myGames", { ns: "common" })}
              </Link>
            </>
          ) : null}
          <button type="button" className="button button-secondary" onClick={onHome}>
            {t("results.home")}
          </button>
        </div>
      </div>
    </Page>
  );
}
