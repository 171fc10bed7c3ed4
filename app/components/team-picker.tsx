/**
 * A player's team in the lobby of a game played in teams (docs/decisions/0033-team-scoring.md):
 * which team it plays for, the teams to switch to, and a new one to start. Loaded only in such a
 * game, so other players' phones never download it (docs/decisions/0025-player-download.md).
 */
import { useState, type FormEvent } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { TEAM_NAME_MAX_LENGTH } from "#app/game/rules";
import { useGame } from "#app/game/client/game-provider";

export function TeamPicker() {
  const { state, chooseTeam } = useGame();
  const { t } = useTranslation("game");
  const [name, setName] = useState("");
  // A new team's name, until the lobby's next update lists the team (it may come up to a second after).
  const [picked, setPicked] = useState<string | null>(null);
  const mine = state.myTeamId === null ? null : (state.teams.find((team) => team.id === state.myTeamId)?.name ?? picked);
  const typed = name.trim().replace(/\s+/g, " ");

  function pick(team: string) {
    setPicked(team);
    chooseTeam(team);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!typed) return;
    pick(typed);
    setName("");
  }

  return (
    <section className="card stack" aria-labelledby="team-heading">
      <h2 id="team-heading">{t("teams.picker.heading")}</h2>
      <p className="status-banner" role="status" data-testid="my-team">
        {mine ? t("teams.picker.playFor", { team: mine }) : t("teams.picker.pick")}
      </p>
      {state.teams.length > 0 ? (
        <ul className="session-list" aria-label={t("teams.label")}>
          {state.teams.map((team) => {
            const isMine = team.id === state.myTeamId;
            return (
              <li key={team.id}>
                <button
                  type="button"
                  className={isMine ? "button team-button" : "button button-secondary team-button"}
                  aria-pressed={isMine}
                  onClick={() => pick(team.name)}
                >
                  <span className="player-name">{team.name}</span>
                  <span>{t("teams.members", { count: team.members })}</span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <form className="row" style={{ alignItems: "flex-end" }} onSubmit={onSubmit}>
        <div className="field" style={{ flex: "1 1 12rem" }}>
          <label htmlFor="new-team">{t("teams.picker.newTeam")}</label>
          <input
            id="new-team"
            className="input"
            value={name}
            maxLength={TEAM_NAME_MAX_LENGTH}
            autoComplete="off"
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <button type="submit" className="button button-secondary" disabled={!typed}>
          {t("teams.picker.start")}
        </button>
      </form>
      {mine ? null : <p className="hint">{t(state.teams.length > 0 ? "teams.join.hintSmallest" : "teams.join.hintOwn")}</p>}
    </section>
  );
}
