/**
 * Teams on the remote, the host's phone (docs/decisions/0032-display-and-remote.md,
 * docs/decisions/0033-team-scoring.md): the team setup in the lobby, the team standings once there
 * are any.
 */
import { useTranslation } from "#app/i18n/use-translation";
import type { ClientGameState } from "#app/game/client/game-state";
import { TeamSetup } from "./team-setup";
import { TeamStandingsList } from "./team-standings";

export function RemoteTeams({ state }: { state: ClientGameState }) {
  const { t } = useTranslation("game");
  if (state.phase === "lobby") return <TeamSetup />;
  if (state.teamStandings.length === 0 || !(state.phase === "leaderboard" || state.phase === "break" || state.phase === "finished")) return null;
  return (
    <section className="card stack" aria-labelledby="remote-teams">
      <h2 id="remote-teams">{t("teams.standings.heading")}</h2>
      <TeamStandingsList standings={state.teamStandings} label={t(state.phase === "finished" ? "teams.allTeams" : "teams.standings.label")} />
    </section>
  );
}
