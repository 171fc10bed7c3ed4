/**
 * Teams on the game's screens (docs/decisions/0033-team-scoring.md): their standings on the
 * leaderboard, their podium at the end, a player's own team with what it added, and the teams in
 * the lobby on the projector. Each renders nothing in a game not played in teams, so a screen
 * inserts it with one line.
 */
import { useTranslation } from "#app/i18n/use-translation";
import type { ClientGameState } from "#app/game/client/game-state";
import type { NamedStanding, OwnTeam, TeamRef } from "#app/game/protocol-views";
import { Avatar, Podium, StandingRow, useGameFormat } from "./game-ui";

/** Teams as the players' standing rows and podium take them. */
export function asStandingRows(teams: readonly NamedStanding[]): { id: number; rank: number; nickname: string; score: number }[] {
  return teams.map(({ id, rank, name, score }) => ({ id, rank, nickname: name, score }));
}

/** The team's place on a player's phone: where it stands, and what this player added to it. */
export function OwnTeamLine({ team, final = false }: { team: OwnTeam; final?: boolean }) {
  const { t } = useTranslation("game");
  const format = useGameFormat();
  return (
    <p className="status-banner" data-testid="own-team">
      {t(final ? "teams.own.final" : "teams.own.now", { team: team.name, rank: team.rank, count: team.score, score: format.score(team.score) })}
      <br />
      {t("teams.own.contribution", { count: team.contribution, points: format.score(team.contribution) })}
    </p>
  );
}

/** The teams in order; the player's own team is marked, and added below when it is not among them. */
export function TeamStandingsList({ standings, label, own }: { standings: readonly NamedStanding[]; label: string; own?: OwnTeam | null }) {
  const { t } = useTranslation("game");
  const ownListed = !own || standings.some((team) => team.id === own.id);
  return (
    <ol className="leaderboard" aria-label={label}>
      {asStandingRows(standings).map((team) => (
        <StandingRow key={team.id} {...team} isMe={team.id === own?.id} />
      ))}
      {own && !ownListed ? (
        <StandingRow rank={own.rank} nickname={t("teams.own.row", { team: own.name })} score={own.score} isMe testId="own-team-row" />
      ) : null}
    </ol>
  );
}

/** The leaderboard's team standings, above the players' top 10 (and its heading). */
export function TeamLeaderboard({ state }: { state: ClientGameState }) {
  const { t } = useTranslation("game");
  if (state.teamStandings.length === 0) return null;
  const own = state.isHost ? null : state.myStanding?.team;
  return (
    <>
      <section className="stack" aria-labelledby="team-standings-heading" data-testid="team-standings">
        <h2 id="team-standings-heading">{t("teams.standings.heading")}</h2>
        {own ? <OwnTeamLine team={own} /> : null}
        <TeamStandingsList standings={state.teamStandings} label={t("teams.standings.label")} own={own} />
      </section>
      <h2>{t("teams.standings.players")}</h2>
    </>
  );
}

/** The final screen's team podium and every team's standing, above the players' podium (and its heading). */
export function TeamResults({ state }: { state: ClientGameState }) {
  const { t } = useTranslation("game");
  if (state.teamStandings.length === 0) return null;
  const own = state.isHost ? null : state.myStanding?.team;
  return (
    <>
      <section className="stack" aria-labelledby="team-results-heading" data-testid="team-results">
        <h2 id="team-results-heading" className="center">
          {t("teams.standings.heading")}
        </h2>
        <Podium standings={asStandingRows(state.teamStandings)} label={t("teams.podium")} />
        {own ? <OwnTeamLine team={own} final /> : null}
        <TeamStandingsList standings={state.teamStandings} label={t("teams.allTeams")} own={own} />
      </section>
      <h2 className="center">{t("teams.standings.players")}</h2>
    </>
  );
}

/** The lobby's teams and their sizes, as the room sees them on the projector. */
export function LobbyTeams({ state }: { state: Pick<ClientGameState, "teamMode" | "teams"> }) {
  if (!state.teamMode) return null;
  return <TeamList teams={state.teams} />;
}

export function TeamList({ teams }: { teams: readonly TeamRef[] }) {
  const { t } = useTranslation("game");
  return (
    <section className="card stack" aria-labelledby="lobby-teams-heading" data-testid="lobby-teams">
      <h2 id="lobby-teams-heading">
        {t("teams.standings.heading")} <span className="badge">{teams.length}</span>
      </h2>
      {teams.length === 0 ? (
        <p className="muted">{t("teams.lobby.none")}</p>
      ) : (
        <ul className="player-list team-list" aria-label={t("teams.label")}>
          {teams.map((team) => (
            <li key={team.id}>
              <Avatar nickname={team.name} />
              <span className="player-name">{team.name}</span>
              <span className="badge">{t("teams.members", { count: team.members })}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
