import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { kindOf } from "#app/game/kinds";
import { useLoaderData } from "@remix-run/react";
import { useId, useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { appErrorOf } from "#app/i18n/app-error";
import { useSayError } from "#app/i18n/error-text";
import { Countdown, PlayerList, ScreenHeading, useNow } from "#app/components/game-ui";
import { InvalidLink, useJoinOnce } from "#app/components/keyed-screen";
import { Page } from "#app/components/layout";
import { TypedReveal } from "#app/components/host-reveals";
import { RemoteTeams } from "#app/components/remote-teams";
import { useGame } from "#app/game/client/game-provider";
import { timeLeftMs, type ClientGameState } from "#app/game/client/game-state";
import { metaT } from "#app/i18n/meta";
import { KEYED_PAGE_HEADERS, loadKeyedScreen } from "#app/game-pages/game-links.server";
import { BreakClock, BreakControls } from "#app/components/break-screen";
import { leaderboardNext, RoundLabel } from "#app/components/round-label";

/**
 * The remote: the host's phone, opened with the game's remote key (docs/decisions/0032-display-and-remote.md).
 * It holds a host seat beside the laptop's host screen and stays on this page in every phase: what
 * is on now, and the buttons to run the night.
 */
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data?.ok ? metaT(matches, "game")("meta.remote", { code: data.gameCode }) : metaT(matches, "game")("remote.invalidTitle") },
];

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const screen = await loadKeyedScreen(context.db, request, params.code, "remote");
  return data(screen, { status: screen.ok ? 200 : 404, headers: KEYED_PAGE_HEADERS });
}

export default function Remote() {
  const loaded = useLoaderData<typeof loader>();
  if (!loaded.ok) return <InvalidLink which="remote" />;
  return <RemoteScreen gameCode={loaded.gameCode} gameKey={loaded.key} title={loaded.title} />;
}

/** How many players the list shows at once: a phone needs a name typed to find one among thousands. */
const PLAYERS_SHOWN = 50;

function RemoteScreen({ gameCode, gameKey, title }: { gameCode: string; gameKey: string; title: string }) {
  const game = useGame();
  const { state } = game;
  const now = useNow();
  const { t } = useTranslation("game");
  const sayError = useSayError();
  useJoinOnce(() => game.remoteGame(gameCode, gameKey));
  const inGame = state.gameCode === gameCode && state.isHost && !state.joining && state.phase !== null;

  if (!inGame) {
    // The page's heading names it while it connects or says why it cannot (a replaced link, a game gone).
    return (
      <Page narrow>
        <h1>{t("remote.heading", { code: gameCode })}</h1>
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
  const phase = state.phase!;
  const paused = phase === "question" && state.pausedRemainingMs !== null;
  const secondsLeft = Math.ceil(timeLeftMs(state, now) / 1000);
  const started = phase !== "lobby" && phase !== "finished";

  function onEnd() {
    if (window.confirm(t("remote.confirmEnd"))) game.endGame();
  }

  return (
    <Page narrow>
      <div className="stack remote" data-testid="remote">
        <div className="stack">
          <ScreenHeading>{t("remote.heading", { code: gameCode })}</ScreenHeading>
          <p className="muted">{title}</p>
        </div>
        <section className="card stack" aria-labelledby="remote-now">
          <h2 id="remote-now">
            <span data-testid="remote-phase">{phase === "break" ? t("night.remote.phase") : t(`remote.phase.${paused ? "paused" : phase}`)}</span>
            {phase === "lobby" || phase === "break" ? null : (
              <>
                {" · "}
                {t("questionOf", { number: state.questionNumber, total: state.totalQuestions })}
              </>
            )}
          </h2>
          <RoundLabel round={state.round} />
          {phase === "break" ? <BreakClock breakEndsAt={state.breakEndsAt} clockOffsetMs={state.clockOffsetMs} /> : null}
          {phase === "question" ? (
            <>
              <Countdown secondsLeft={secondsLeft} paused={paused} />
              {state.currentQuestion ? <p>{state.currentQuestion.text}</p> : null}
            </>
          ) : null}
          {phase === "question" || phase === "results" ? (
            <p data-testid="answered-count">{t("host.answered", { count: state.answeredCount, total: Math.max(state.playerCount, state.answeredCount) })}</p>
          ) : (
            <p>{t("remote.playerCount", { count: state.playerCount })}</p>
          )}
        </section>
        <section className="stack remote-controls" aria-label={t("remote.controls")}>
          {phase === "lobby" ? (
            <>
              <button type="button" className="button button-large" onClick={game.startGame} disabled={state.playerCount === 0}>
                {t("lobby.start")}
              </button>
              <button type="button" className="button button-secondary" aria-pressed={state.locked} onClick={() => game.lockGame(!state.locked)}>
                {t(state.locked ? "lobby.unlock" : "lobby.lock")}
              </button>
            </>
          ) : null}
          {phase === "question" ? (
            <>
              {paused ? (
                <button type="button" className="button button-large" onClick={game.resumeQuestion}>
                  <span aria-hidden="true">▶</span> {t("host.resume")}
                </button>
              ) : (
                <button type="button" className="button button-large button-secondary" onClick={game.pauseQuestion} disabled={secondsLeft === 0}>
                  <span aria-hidden="true">⏸</span> {t("host.pause")}
                </button>
              )}
              <button type="button" className="button button-large" onClick={game.nextQuestion}>
                {t("host.skip")}
              </button>
            </>
          ) : null}
          {phase === "results" ? (
            <button type="button" className="button button-large" onClick={game.nextQuestion}>
              {t("host.next")}
            </button>
          ) : null}
          {phase === "leaderboard" ? (
            <button type="button" className="button button-large" onClick={game.nextQuestion}>
              {t(leaderboardNext(state).button)}
            </button>
          ) : null}
          {phase === "break" && state.round ? (
            <BreakControls state={state} actions={{ startNextRound: game.nextQuestion, setBreakTimer: game.setBreakTimer }} />
          ) : null}
          {phase === "finished" && state.roundResults.length === 0 ? (
            <button type="button" className="button button-large" onClick={game.playAgain}>
              {t("results.playAgain")}
            </button>
          ) : null}
          {phase !== "lobby" ? (
            <button type="button" className="button button-secondary" aria-pressed={state.locked} onClick={() => game.lockGame(!state.locked)}>
              {t(state.locked ? "lobby.unlock" : "lobby.lock")}
            </button>
          ) : null}
          {started ? (
            <button type="button" className="button button-danger" onClick={onEnd}>
              {t("remote.end")}
            </button>
          ) : null}
        </section>
        {phase === "results" && state.reveal && kindOf(state.reveal.kind).typed ? (
          <TypedReveal state={state} onAccept={(text) => game.acceptTypedAnswer(state.questionNumber, text)} />
        ) : null}
        <RemoteTeams state={state} />
        <RemotePlayers state={state} onRemove={game.kickPlayer} />
      </div>
    </Page>
  );
}

/** Every player, found by name, each with Remove. */
function RemotePlayers({ state, onRemove }: { state: ClientGameState; onRemove(playerId: number): void }) {
  const { t } = useTranslation("game");
  const [search, setSearch] = useState("");
  const inputId = useId();
  const needle = search.trim().toLocaleLowerCase();
  const matching = needle ? state.players.filter((player) => player.nickname.toLocaleLowerCase().includes(needle)) : state.players;
  const shown = matching.slice(0, PLAYERS_SHOWN);
  return (
    <section className="card stack" aria-labelledby="remote-players">
      <h2 id="remote-players">
        {t("lobby.players")} <span className="badge">{state.players.length}</span>
      </h2>
      {state.players.length > 0 ? (
        <div className="field">
          <label htmlFor={inputId}>{t("remote.findPlayer")}</label>
          <input id={inputId} type="search" className="input" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
        </div>
      ) : null}
      {state.players.length === 0 ? (
        <p className="muted">{t("lobby.noPlayersYet")}</p>
      ) : shown.length === 0 ? (
        <p className="muted">{t("remote.noMatch")}</p>
      ) : (
        <PlayerList
          players={shown}
          onRemove={(player) => {
            if (window.confirm(t("lobby.confirmRemove", { name: player.nickname }))) onRemove(player.id);
          }}
        />
      )}
      {matching.length > shown.length ? <p className="muted">{t("lobby.andMore", { count: matching.length - shown.length })}</p> : null}
    </section>
  );
}
