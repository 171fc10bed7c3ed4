import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { BreakScreen } from "#app/components/break-screen";
import { ConnectingNotice } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { useGame } from "#app/game/client/game-provider";
import type { ClientGameState } from "#app/game/client/game-state";
import { metaT } from "#app/i18n/meta";
import { loadGameScreen } from "#app/http/api.server";

/**
 * The break between two rounds of a night (docs/decisions/0034-a-night-of-rounds.md), for the host
 * and every player: the running total, each round's standings and the countdown; the host starts
 * the next round from here.
 */
export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "game")("night.meta.break") }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadGameScreen(context, request, params.code);
}

export default function Break() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, nextQuestion, setBreakTimer, endGame } = useGame();
  // The break as it last was: the moment the next round starts, it stays up until the question's screen opens.
  const shown = useRef<ClientGameState | null>(null);
  if (state.gameCode === gameCode && state.phase === "break" && state.round !== null) shown.current = state;
  const onBreak = shown.current;
  if (!onBreak) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  return (
    <Page narrow>
      <BreakScreen state={onBreak} actions={onBreak.isHost ? { startNextRound: nextQuestion, setBreakTimer, endNight: endGame } : null} />
    </Page>
  );
}
