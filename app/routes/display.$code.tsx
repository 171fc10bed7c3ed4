import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import QRCode from "qrcode";
import { useTranslation } from "#app/i18n/use-translation";
import { appErrorOf } from "#app/i18n/app-error";
import { useSayError } from "#app/i18n/error-text";
import { InvalidLink, useJoinOnce } from "#app/components/keyed-screen";
import { PlayerList, Podium, ScreenHeading, StandingRow, useNow, usePreloadPicture } from "#app/components/game-ui";
import { JoinCodeCard } from "#app/components/join-code-card";
import { Page } from "#app/components/layout";
import { ProjectorControls } from "#app/components/projector/projector-controls";
import { QuestionStage, useRoomSounds } from "#app/components/question-stage";
import { LobbyTeams, TeamLeaderboard, TeamResults } from "#app/components/team-standings";
import { useGame } from "#app/game/client/game-provider";
import type { ClientGameState } from "#app/game/client/game-state";
import { metaT } from "#app/i18n/meta";
import { KEYED_PAGE_HEADERS, loadKeyedScreen } from "#app/game-pages/game-links.server";
import { BreakScreen } from "#app/components/break-screen";
import { leaderboardNext, RoundLabel } from "#app/components/round-label";
import { RoundStandings } from "#app/components/round-standings";

/**
 * The projector's display (docs/product.md, "Projector mode"; docs/decisions/0032-display-and-remote.md):
 * opened with the game's display key, it shows what the room should see in every phase and stays on
 * this page; it can never act. A wrong or missing key gets a plain "not valid" page, never the game.
 */
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data?.ok ? metaT(matches, "game")("meta.display", { code: data.gameCode }) : metaT(matches, "game")("display.invalidTitle") },
];

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const screen = await loadKeyedScreen(context.db, request, params.code, "display");
  if (!screen.ok) return data({ ...screen, joinUrl: "", qrSvg: "" }, { status: 404, headers: KEYED_PAGE_HEADERS });
  const joinUrl = `${new URL(request.url).origin}/join?code=${screen.gameCode}`;
  const qrSvg = await QRCode.toString(joinUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return data({ ...screen, joinUrl, qrSvg }, { headers: KEYED_PAGE_HEADERS });
}

export default function Display() {
  const loaded = useLoaderData<typeof loader>();
  if (!loaded.ok) return <InvalidLink which="display" />;
  return <DisplayScreen gameCode={loaded.gameCode} gameKey={loaded.key} title={loaded.title} joinUrl={loaded.joinUrl} qrSvg={loaded.qrSvg} />;
}

function DisplayScreen({ gameCode, gameKey, title, joinUrl, qrSvg }: { gameCode: string; gameKey: string; title: string; joinUrl: string; qrSvg: string }) {
  const { state, watchGame } = useGame();
  const now = useNow();
  const { t } = useTranslation("game");
  const sayError = useSayError();
  useJoinOnce(() => watchGame(gameCode, gameKey));
  const inGame = state.gameCode === gameCode && state.isDisplay && !state.joining;
  useRoomSounds(state, now, inGame);
  usePreloadPicture(inGame && state.phase === "leaderboard" ? state.nextImage : null, "large");

  if (!inGame) {
    // The page's heading names it while it connects or says why it cannot (a replaced link, a game gone).
    return (
      <Page narrow>
        <h1>{t("display.heading", { code: gameCode })}</h1>
        <div className="card center stack" role={state.joinError ? "alert" : "status"}>
          <p>
            {state.joinError
              ? sayError(appErrorOf({ code: state.joinErrorKey, values: state.joinErrorValues }), state.joinError)
              : t("connecting.message", { code: gameCode })}
          </p>
        </div>
      </Page>
    );
  }
  switch (state.phase) {
    case "question":
    case "results":
      if (!state.currentQuestion) break;
      return (
        <Page>
          <div className="stack" data-testid="display">
            <QuestionStage state={state} now={now} controls={<ProjectorControls />} />
          </div>
        </Page>
      );
    case "leaderboard":
      return <DisplayLeaderboard state={state} now={now} />;
    case "break":
      if (!state.round) break;
      return (
        <Page>
          <BreakScreen state={state} variant="display" controls={<ProjectorControls />} />
        </Page>
      );
    case "finished":
      return (
        <Page narrow>
          <div className="stack" data-testid="display">
            <ScreenHeading className="center">{t("results.heading")}</ScreenHeading>
            <ProjectorControls />
            <TeamResults state={state} />
            <Podium standings={state.leaderboard} />
            <ol className="leaderboard" aria-label={t("results.allPlayers")}>
              {state.leaderboard.map((entry) => (
                <StandingRow key={entry.id} {...entry} isMe={false} />
              ))}
            </ol>
            {state.playerCount > state.leaderboard.length ? (
              <p className="muted center">{t("results.andMorePlayers", { count: state.playerCount - state.leaderboard.length })}</p>
            ) : null}
            <RoundStandings rounds={state.roundResults} open="all" />
          </div>
        </Page>
      );
    default:
      break;
  }
  return <DisplayLobby state={state} gameCode={gameCode} title={title} joinUrl={joinUrl} qrSvg={qrSvg} />;
}

/** The lobby as the room sees it: the join code and QR code always in sight, and who is in. */
function DisplayLobby({ state, gameCode, title, joinUrl, qrSvg }: { state: ClientGameState; gameCode: string; title: string; joinUrl: string; qrSvg: string }) {
  const { t } = useTranslation("game");
  return (
    <Page>
      <div className="stack" data-testid="display">
        <JoinCodeCard gameCode={gameCode} title={title} joinUrl={joinUrl} qrSvg={qrSvg} link={<span className="join-url">{joinUrl}</span>}>
          <ProjectorControls />
        </JoinCodeCard>
        <LobbyTeams state={state} />
        <div className="card stack">
          <h2>
            {t("lobby.players")}{" "}
            <span className="badge" data-testid="player-count">
              {state.playerCount}
            </span>
          </h2>
          {state.locked ? <p className="hint">{t("lobby.lockedForPlayer")}</p> : null}
          {state.players.length === 0 ? <p className="muted">{t("lobby.noPlayersYet")}</p> : <PlayerList players={state.players} />}
          {state.playerCount > state.players.length ? <p className="muted">{t("lobby.andMore", { count: state.playerCount - state.players.length })}</p> : null}
          <p className="status-banner">{t("lobby.waitingForHost")}</p>
        </div>
      </div>
    </Page>
  );
}

function DisplayLeaderboard({ state, now }: { state: ClientGameState; now: number }) {
  const { t } = useTranslation("game");
  const elapsed = Math.floor((now - (state.leaderboardShownAt ?? now)) / 1000);
  const secondsLeft = Math.max(0, state.nextQuestionIn - elapsed);
  return (
    <Page narrow>
      <div className="stack" data-testid="display">
        <ScreenHeading className="center">{t("leaderboard.heading")}</ScreenHeading>
        <RoundLabel round={state.round} />
        <ProjectorControls />
        <TeamLeaderboard state={state} />
        <ol className="leaderboard" aria-label={t("leaderboard.heading")}>
          {state.leaderboard.map((entry) => (
            <StandingRow key={entry.id} {...entry} isMe={false} />
          ))}
        </ol>
        <p className="center">{t("leaderboard.completed", { number: state.questionNumber, total: state.totalQuestions })}</p>
        <p className="center muted" role="timer">
          {t(leaderboardNext(state).countdown, { count: secondsLeft })}
        </p>
      </div>
    </Page>
  );
}
