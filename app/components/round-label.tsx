/**
 * Where a night is, on its question screens and leaderboards: "Round 2 of 3 · Picture round"
 * (docs/decisions/0034-a-night-of-rounds.md). Nothing for a single game. Small on purpose: the
 * player's question screen carries it.
 */
import { useTranslation } from "#app/i18n/use-translation";
import type { ClientGameState } from "#app/game/client/game-state";

export function RoundLabel({ round }: { round: ClientGameState["round"] }) {
  const { t } = useTranslation("game");
  if (!round) return null;
  return (
    <p className="center">
      <span className="badge" data-testid="round-label">
        {t("night.roundLabel", { number: round.number, total: round.total, title: round.title })}
      </span>
    </p>
  );
}

/** A night's round ends on this leaderboard and the break comes next, not the podium. */
export function breakComesNext(state: Pick<ClientGameState, "isLastLeaderboard" | "round">): boolean {
  return state.isLastLeaderboard && state.round !== null && state.round.number < state.round.total;
}

/** The `game` keys of what comes after a leaderboard: its countdown's words and the host's button. */
export function leaderboardNext(state: Pick<ClientGameState, "isLastLeaderboard" | "round">): { countdown: string; button: string } {
  if (breakComesNext(state)) return { countdown: "night.leaderboard.breakIn", button: "night.leaderboard.goToBreak" };
  if (state.isLastLeaderboard) return { countdown: "leaderboard.finalResultsIn", button: "leaderboard.showFinalResults" };
  return { countdown: "leaderboard.nextQuestionIn", button: "leaderboard.nextQuestion" };
}
