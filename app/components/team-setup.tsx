/**
 * The host's team setup in the lobby (docs/decisions/0033-team-scoring.md): "Play in teams", the
 * teams players can pick (one by one, or "Table 1" to "Table N" at once), each with its size and a
 * Remove button. Only hosts see it: the lobby loads it lazily, so a player's phone never does.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { useGame } from "#app/game/client/game-provider";
import { MAX_TEAMS, TEAM_NAME_MAX_LENGTH } from "#app/game/rules";
import { Tooltip } from "./tooltip";

/** Between two teams of "Add tables": the socket allows 20 messages a second (server/socket/transport.ts), and the host has other things to send. */
const TABLE_INTERVAL_MS = 100;
const DEFAULT_TABLES = 6;

/** The names of tables 1 to `count` that are not teams yet (any case), at most `room` of them. */
export function newTableNames(count: number, existing: readonly string[], room: number, nameOf: (number: number) => string): string[] {
  const taken = new Set(existing.map((name) => name.trim().toLocaleLowerCase()));
  const names: string[] = [];
  for (let number = 1; number <= count && names.length < room; number++) {
    const name = nameOf(number);
    if (!taken.has(name.toLocaleLowerCase())) names.push(name);
  }
  return names;
}

export function TeamSetup() {
  const { state, setTeamMode, addTeam, removeTeam } = useGame();
  const { t } = useTranslation("game");
  const [enabled, setEnabled] = useState(state.teamMode);
  useEffect(() => setEnabled(state.teamMode), [state.teamMode]);
  const [name, setName] = useState("");
  const [tables, setTables] = useState(String(DEFAULT_TABLES));
  const nameRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const room = Math.max(0, MAX_TEAMS - state.teams.length);
  const typed = name.trim().replace(/\s+/g, " ");
  const tableCount = Math.min(MAX_TEAMS, Math.max(1, Math.floor(Number(tables)) || 1));

  function onAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!typed || room === 0) return;
    addTeam(typed);
    setName("");
  }

  function onAddTables(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const names = newTableNames(
      tableCount,
      state.teams.map((team) => team.name),
      room,
      (number) => t("teams.setup.tableName", { number }),
    );
    clearTimeout(timer.current);
    const send = (index: number) => {
      addTeam(names[index]);
      if (index + 1 < names.length) timer.current = setTimeout(() => send(index + 1), TABLE_INTERVAL_MS);
    };
    if (names.length > 0) send(0);
  }

  function onRemove(teamId: number, teamName: string, members: number) {
    if (members > 0 && !window.confirm(t("teams.setup.confirmRemove", { name: teamName, count: members }))) return;
    removeTeam(teamId);
    // The button goes with its team: the keyboard carries on from the team name field.
    nameRef.current?.focus();
  }

  return (
    <section className="card stack" aria-labelledby="team-setup-heading" data-testid="team-setup">
      <h2 id="team-setup-heading">{t("teams.setup.heading")}</h2>
      <label className="choice">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(event) => {
            setEnabled(event.target.checked);
            setTeamMode(event.target.checked);
          }}
        />
        {t("teams.setup.playInTeams")}
      </label>
      <p className="hint">{t("teams.setup.scoring")}</p>
      {state.teamMode ? (
        <>
          <form className="row" style={{ alignItems: "flex-end" }} onSubmit={onAdd}>
            <div className="field" style={{ flex: "1 1 12rem" }}>
              <label htmlFor="team-name">{t("teams.setup.teamName")}</label>
              <input
                ref={nameRef}
                id="team-name"
                className="input"
                value={name}
                maxLength={TEAM_NAME_MAX_LENGTH}
                autoComplete="off"
                onChange={(event) => setName(event.target.value)}
              />
            </div>
            <button type="submit" className="button button-secondary" disabled={!typed || room === 0}>
              {t("teams.setup.add")}
            </button>
          </form>
          <form className="row" style={{ alignItems: "flex-end" }} onSubmit={onAddTables}>
            <div className="field">
              <label htmlFor="table-count">{t("teams.setup.tables")}</label>
              <input
                id="table-count"
                className="input"
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_TEAMS}
                value={tables}
                style={{ width: "7rem" }}
                onChange={(event) => setTables(event.target.value)}
              />
            </div>
            <button type="submit" className="button button-secondary" disabled={room === 0}>
              {t("teams.setup.addTables", { count: tableCount })}
            </button>
          </form>
          {room === 0 ? <p className="hint">{t("teams.setup.full", { count: MAX_TEAMS })}</p> : null}
          {state.teams.length === 0 ? (
            <p className="muted">{t("teams.setup.none")}</p>
          ) : (
            <ul className="player-list team-list" aria-label={t("teams.label")}>
              {state.teams.map((team) => (
                <li key={team.id}>
                  <span className="player-name">{team.name}</span>
                  <span className="badge">{t("teams.members", { count: team.members })}</span>
                  <Tooltip label={t("teams.setup.remove", { name: team.name })}>
                    <button type="button" className="remove-player" onClick={() => onRemove(team.id, team.name, team.members)}>
                      ×
                    </button>
                  </Tooltip>
                </li>
              ))}
            </ul>
          )}
          <p className="visually-hidden" role="status">
            {t("teams.count", { count: state.teams.length })}
          </p>
        </>
      ) : null}
    </section>
  );
}
