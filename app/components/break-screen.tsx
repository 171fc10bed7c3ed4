/**
 * The break between two rounds of a night (docs/decisions/0034-a-night-of-rounds.md): which round
 * ended and which comes next, the countdown the host set, the evening's running total (with a
 * player's own place on its phone, and the teams in team mode) and each finished round's own
 * standings. The host's screen and remote add the controls: start the next round, the break's
 * length, end the night. The projector's display shows the same, larger.
 */
import { useRef, type ReactNode } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import type { ClientGameState } from "#app/game/client/game-state";
import { BREAK_LENGTHS, breakAnnouncement, breakClock, breakMinutes, breakMsLeft } from "#app/nights/break-clock";
import { ScreenHeading, StandingRow, useGameFormat, useNow } from "./game-ui";
import { RoundStandings, Standings } from "./round-standings";
import "#app/styles/night.css";

export interface BreakActions {
  /** The next round, its first question at once. */
  startNextRound(): void;
  setBreakTimer(minutes: number): void;
  /** Straight to the podium; absent where the page has its own End button (the remote). */
  endNight?(): void;
}

export function BreakScreen({
  state,
  variant = "screen",
  actions,
  controls,
}: {
  state: ClientGameState;
  /** "display": the projector's, larger, every round's standings open. */
  variant?: "screen" | "display";
  /** The host's controls; none for a player or the display. */
  actions?: BreakActions | null;
  /** Under the heading: the projector's switches. */
  controls?: ReactNode;
}) {
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const round = state.round!;
  const display = variant === "display";
  const me = state.myStanding;
  const player = !state.isHost && !state.isDisplay;
  const meInTop = state.leaderboard.some((entry) => entry.id === state.playerId);
  const next = { number: round.number + 1, title: state.nextRoundTitle };

  return (
    <div className={display ? "stack break-display" : "stack"} data-testid="break">
      <ScreenHeading className="center">{t("night.break.heading", { number: round.number, total: round.total, title: round.title })}</ScreenHeading>
      {controls}
      <p className="center break-next" data-testid="next-round">
        {t("night.break.nextRound", next)}
      </p>
      <BreakClock breakEndsAt={state.breakEndsAt} clockOffsetMs={state.clockOffsetMs} />
      {actions ? <BreakControls state={state} actions={actions} /> : player ? <p className="status-banner">{t("night.break.waiting", next)}</p> : null}
      {player && me ? (
        <p className="status-banner" data-testid="own-place">
          {t("night.break.ownPlace", { rank: me.rank, total: format.score(state.playerCount), count: me.score, score: format.score(me.score) })}
          {me.team ? (
            <>
              <br />
              {t("night.break.ownTeam", { name: me.team.name, rank: me.team.rank, count: me.team.score, score: format.score(me.team.score) })}
            </>
          ) : null}
        </p>
      ) : null}
      <section className="stack" aria-labelledby="running-total">
        <h2 id="running-total">{t("night.break.runningTotal")}</h2>
        {state.teamStandings.length > 0 ? (
          <>
            <h3>{t("night.break.teams")}</h3>
            <Standings entries={state.teamStandings} label={t("night.break.teamsTotal")} />
            <h3>{t("night.break.players")}</h3>
          </>
        ) : null}
        <ol className="leaderboard" aria-label={t("night.break.playersTotal")} data-testid="running-total">
          {state.leaderboard.map((entry) => (
            <StandingRow key={entry.id} {...entry} isMe={entry.id === state.playerId} />
          ))}
          {player && me && !meInTop && state.nickname ? (
            <StandingRow rank={me.rank} nickname={t("leaderboard.you", { name: state.nickname })} score={me.score} isMe testId="own-row" />
          ) : null}
        </ol>
        {state.playerCount > state.leaderboard.length ? (
          <p className="muted center">{t("results.andMorePlayers", { count: state.playerCount - state.leaderboard.length })}</p>
        ) : null}
      </section>
      <RoundStandings rounds={state.roundResults} open={display ? "all" : "last"} playerId={state.playerId} />
    </div>
  );
}

/**
 * "Back in 9:41" from the server's end of the break, on this screen's corrected clock. A screen
 * reader hears when a countdown is set, at one minute left and when it is over (`breakAnnouncement`).
 */
export function BreakClock({ breakEndsAt, clockOffsetMs }: { breakEndsAt: number | null; clockOffsetMs: number }) {
  const { t, language } = useTranslation("game");
  const now = useNow(500);
  const msLeft = breakMsLeft(breakEndsAt, clockOffsetMs, now);
  // The minutes the countdown had when it was set: its announcement holds while it runs.
  const set = useRef<{ endsAt: number | null; minutes: number }>({ endsAt: null, minutes: 0 });
  if (set.current.endsAt !== breakEndsAt) set.current = { endsAt: breakEndsAt, minutes: msLeft === null ? 0 : breakMinutes(msLeft) };
  const announcement = breakAnnouncement(msLeft, set.current.minutes);
  return (
    <>
      {msLeft === null ? (
        <p className="center muted">{t("night.break.noCountdown")}</p>
      ) : msLeft > 0 ? (
        <p className="center break-clock" role="timer" data-testid="break-clock">
          {t("night.break.backIn", { time: breakClock(msLeft, language) })}
        </p>
      ) : (
        <p className="center break-next" data-testid="break-clock">
          {t("night.break.over")}
        </p>
      )}
      <span className="visually-hidden" aria-live="polite" data-testid="break-announcement">
        {announcement === null
          ? ""
          : announcement.key === "minutes"
            ? t("night.break.announceMinutes", { count: announcement.count })
            : t(announcement.key === "lastMinute" ? "night.break.announceLastMinute" : "night.break.over")}
      </span>
    </>
  );
}

/** The host's buttons during a break: the next round, the break's length, the end of the night. */
export function BreakControls({ state, actions }: { state: ClientGameState; actions: BreakActions }) {
  const { t } = useTranslation("game");
  const next = { number: (state.round?.number ?? 0) + 1, title: state.nextRoundTitle };
  function onEnd() {
    if (window.confirm(t("night.break.confirmEnd"))) actions.endNight?.();
  }
  return (
    <div className="stack" data-testid="break-controls">
      <button type="button" className="button button-large" onClick={actions.startNextRound}>
        {t("night.break.start", next)}
      </button>
      <fieldset className="break-lengths">
        <legend>{t("night.break.length")}</legend>
        <div className="row">
          {BREAK_LENGTHS.map((minutes) => (
            <button key={minutes} type="button" className="button button-secondary" onClick={() => actions.setBreakTimer(minutes)}>
              {minutes === 0 ? t("night.break.noCountdownButton") : t("night.break.minutes", { count: minutes })}
            </button>
          ))}
        </div>
      </fieldset>
      {actions.endNight ? (
        <div>
          <button type="button" className="button button-danger" onClick={onEnd}>
            {t("night.break.end")}
          </button>
        </div>
      ) : null}
    </div>
  );
}
