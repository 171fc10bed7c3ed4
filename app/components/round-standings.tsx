/**
 * Each finished round of a night with its own standings, players and (in team mode) teams: on the
 * break screen and under the evening's podium (docs/decisions/0034-a-night-of-rounds.md). A
 * details element per round, so a long night stays short; `open` says which start open.
 */
import { useTranslation } from "#app/i18n/use-translation";
import type { NamedStanding, RoundResultView } from "#app/game/protocol-views";
import { StandingRow } from "./game-ui";
import "#app/styles/night.css";

export function RoundStandings({
  rounds,
  open = "last",
  playerId = null,
}: {
  rounds: readonly RoundResultView[];
  /** "last": the round just played starts open; "all": every round (the projector). */
  open?: "last" | "all";
  /** This player's own rows are marked. */
  playerId?: number | null;
}) {
  const { t } = useTranslation("game");
  if (rounds.length === 0) return null;
  return (
    <section className="round-standings" aria-labelledby="each-round" data-testid="round-standings">
      <h2 id="each-round">{t("night.rounds.heading")}</h2>
      {rounds.map((round, index) => {
        const name = t("night.rounds.round", { number: index + 1, title: round.title });
        return (
          <details key={index} open={open === "all" || index === rounds.length - 1} data-testid={`round-standings-${index + 1}`}>
            <summary>{name}</summary>
            {round.teams.length > 0 ? (
              <>
                <h3>{t("night.rounds.teams")}</h3>
                <Standings entries={round.teams} label={t("night.rounds.teamsOf", { name })} />
                <h3>{t("night.rounds.players")}</h3>
              </>
            ) : null}
            {round.players.length === 0 ? (
              <p className="muted">{t("night.rounds.nobody")}</p>
            ) : (
              <Standings entries={round.players} label={t("night.rounds.playersOf", { name })} playerId={playerId} />
            )}
          </details>
        );
      })}
    </section>
  );
}

/** Named standings (a round's players, or teams) as the leaderboard shows players. */
export function Standings({ entries, label, playerId = null }: { entries: readonly NamedStanding[]; label: string; playerId?: number | null }) {
  return (
    <ol className="leaderboard" aria-label={label}>
      {entries.map((entry) => (
        <StandingRow key={entry.id} rank={entry.rank} nickname={entry.name} score={entry.score} isMe={playerId !== null && entry.id === playerId} />
      ))}
    </ol>
  );
}
