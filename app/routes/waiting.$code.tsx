import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import QRCode from "qrcode";
import { lazy, Suspense, useEffect, useRef } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { PicturesOnPlayersSwitch, PlayerList } from "#app/components/game-ui";
import { JoinCodeCard } from "#app/components/join-code-card";
import { Page } from "#app/components/layout";
import { useToast } from "#app/components/toaster";
import { useGame } from "#app/game/client/game-provider";
import { loadHostSession } from "#app/game/client/storage";
import { metaT } from "#app/i18n/meta";
import { gameLinks, KEYED_PAGE_HEADERS } from "#app/game-pages/game-links.server";
import { loadGameScreen } from "#app/http/api.server";

// The host's projector controls and display and remote links: a player's phone, which never shows them, never downloads them.
const ProjectorControls = lazy(() => import("#app/components/projector/projector-controls").then((module) => ({ default: module.ProjectorControls })));
const DisplayLinks = lazy(() => import("#app/components/display-links").then((module) => ({ default: module.DisplayLinks })));
// Teams (docs/decisions/0033-team-scoring.md): the host's setup, and a player's picker, loaded only in a game played in teams.
const TeamSetup = lazy(() => import("#app/components/team-setup").then((module) => ({ default: module.TeamSetup })));
const TeamPicker = lazy(() => import("#app/components/team-picker").then((module) => ({ default: module.TeamPicker })));

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? metaT(matches, "game")("meta.lobby", { code: data.gameCode }) : metaT(matches)("meta.title") },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const screen = await loadGameScreen(context, request, params.code);
  const joinUrl = `${new URL(request.url).origin}/join?code=${screen.gameCode}`;
  // Drawn on the server: no external QR service, and it shows without JavaScript.
  const qrSvg = await QRCode.toString(joinUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  // The display's and remote's keys reach the host's browser alone.
  const links = screen.isHost ? await gameLinks(context.db, request, screen.gameCode) : null;
  // With the keys in it, no cache keeps the page.
  return data({ ...screen, joinUrl, qrSvg, links }, { headers: links ? KEYED_PAGE_HEADERS : undefined });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function Lobby() {
  const { gameCode, title, isHost: viewerIsHost, joinUrl, qrSvg, links } = useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const { state, hostGame, joinGame, startGame, leaveGame, kickPlayer, lockGame, setPicturesOnPlayers } = useGame();
  const toast = useToast();
  const { t } = useTranslation("game");
  const navigate = useNavigate();
  const joinedOnce = useRef(false);
  const inThisGame = state.gameCode === gameCode;

  // Flash messages from the create and host forms' redirects.
  useEffect(() => {
    const created = searchParams.get("created");
    const hosted = searchParams.get("hosted");
    if (created) toast({ title: t("lobby.quizCreated"), description: t("lobby.shareCode", { code: gameCode }), closesWithPage: true });
    else if (hosted) toast({ title: t("lobby.hostingTitle"), description: t("lobby.hosting"), closesWithPage: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one toast on arrival, not on every change of the search params
  }, []);

  // Take our place in this game: as its host, or with the nickname a no-JavaScript join carried.
  // A player already in it (even after a refresh) is rejoined by the game provider.
  useEffect(() => {
    if (joinedOnce.current || (inThisGame && !state.joinError)) return;
    const nickname = searchParams.get("nickname");
    if (viewerIsHost) {
      joinedOnce.current = true;
      const stored = loadHostSession();
      hostGame(gameCode, title, searchParams.get("hostName") ?? (stored?.gameCode === gameCode ? stored.hostName : ""));
    } else if (nickname) {
      joinedOnce.current = true;
      joinGame(gameCode, nickname, searchParams.get("team") ?? undefined);
    }
    if (joinedOnce.current && searchParams.size > 0) setSearchParams({}, { replace: true, preventScrollReset: true });
  }, [viewerIsHost, gameCode, title, inThisGame, state.joinError, searchParams, setSearchParams, hostGame, joinGame]);

  const isHost = inThisGame && state.isHost;
  const players = inThisGame ? state.players : [];
  const playerCount = inThisGame ? state.playerCount : 0;

  function onStart() {
    if (!isHost) {
      toast({ title: t("lobby.notAuthorized"), description: t("NOT_HOST", { ns: "errors" }), variant: "destructive", closesWithPage: true });
      return;
    }
    if (playerCount === 0) {
      toast({ title: t("lobby.noPlayers"), description: t("NO_PLAYERS", { ns: "errors" }), variant: "destructive", closesWithPage: true });
      return;
    }
    startGame();
  }

  function onLeave() {
    leaveGame();
    navigate("/");
  }

  return (
    <Page>
      <div className="stack">
        <JoinCodeCard
          gameCode={gameCode}
          title={title}
          joinUrl={joinUrl}
          qrSvg={qrSvg}
          link={
            <a href={joinUrl} className="join-url" data-testid="join-link">
              {joinUrl}
            </a>
          }
        />
        {!isHost && inThisGame && state.teamMode && state.playerId !== null ? (
          <Suspense fallback={null}>
            <TeamPicker />
          </Suspense>
        ) : null}

        <div className="card stack">
          <div className="row" style={{ justifyContent: "space-between" }}>
            <h2>
              {t("lobby.players")}{" "}
              <span className="badge" data-testid="player-count">
                {playerCount}
              </span>
            </h2>
            {isHost ? (
              <div className="row">
                <button type="button" className="button button-secondary" aria-pressed={state.locked} onClick={() => lockGame(!state.locked)}>
                  {t(state.locked ? "lobby.unlock" : "lobby.lock")}
                </button>
                <button type="button" className="button button-large" onClick={onStart}>
                  {t("lobby.start")}
                </button>
              </div>
            ) : null}
          </div>
          {isHost ? <PicturesOnPlayersSwitch enabled={state.picturesOnPlayers} onChange={setPicturesOnPlayers} /> : null}
          {isHost ? (
            <Suspense fallback={null}>
              <ProjectorControls />
            </Suspense>
          ) : null}
          {state.locked && inThisGame ? (
            <p className="hint" role="status">
              {t(isHost ? "lobby.lockedForHost" : "lobby.lockedForPlayer")}
            </p>
          ) : null}
          {players.length === 0 ? (
            <p className="muted">{t("lobby.noPlayersYet")}</p>
          ) : (
            <PlayerList
              players={players}
              highlightName={state.playerId === null ? null : state.nickname}
              onRemove={
                isHost
                  ? (player) => {
                      if (window.confirm(t("lobby.confirmRemove", { name: player.nickname }))) kickPlayer(player.id);
                    }
                  : undefined
              }
            />
          )}
          {playerCount > players.length ? <p className="muted">{t("lobby.andMore", { count: playerCount - players.length })}</p> : null}
          {!isHost && inThisGame && state.playerId !== null ? <p className="status-banner">{t("lobby.waitingForHost")}</p> : null}
          {!inThisGame || state.joining ? (
            <p className="muted" role="status">
              {state.joining ? t("lobby.joining") : <a href={`/join?code=${gameCode}`}>{t("lobby.joinThisGame")}</a>}
            </p>
          ) : null}
        </div>
        {isHost ? (
          <Suspense fallback={null}>
            <TeamSetup />
          </Suspense>
        ) : null}
        {isHost ? (
          <Suspense fallback={null}>
            <DisplayLinks gameCode={gameCode} links={links} />
          </Suspense>
        ) : null}
        <div>
          <button type="button" className="button button-secondary" onClick={onLeave}>
            {t("lobby.leave")}
          </button>
        </div>
      </div>
    </Page>
  );
}
