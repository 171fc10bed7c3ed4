import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "#app/i18n/use-translation";
import { ConnectingNotice, ScreenHeading, StandingRow, useNow, usePreloadPicture } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { TeamLeaderboard } from "#app/components/team-standings";
import { leaderboardNext, RoundLabel } from "#app/components/round-label";
import { useGame } from "#app/game/client/game-provider";
import { metaT } from "#app/i18n/meta";
import { loadGameScreen } from "#app/http/api.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "game")("meta.leaderboard") }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadGameScreen(context, request, params.code);
}

export default function Leaderboard() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, nextQuestion } = useGame();
  const now = useNow();
  const { t } = useTranslation("game");
  // The next question's picture loads while the standings are up, so it shows the moment it opens.
  usePreloadPicture(state.nextImage, state.isHost ? "large" : state.picturesOnPlayers ? "small" : null);
  if (state.gameCode !== gameCode || state.leaderboardShownAt === null) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  const elapsed = Math.floor((now - state.leaderboardShownAt) / 1000);
  const secondsLeft = Math.max(0, state.nextQuestionIn - elapsed);
  const me = state.myStanding;
  const meInTop = state.leaderboard.some((entry) => entry.id === state.playerId);

  return (
    <Page narrow>
      <div className="stack">
        <ScreenHeading className="center">{t("leaderboard.heading")}</ScreenHeading>
        <RoundLabel round={state.round} />
        <TeamLeaderboard state={state} />
        <ol className="leaderboard" aria-label={t("leaderboard.heading")}>
          {state.leaderboard.map((entry) => (
            <StandingRow key={entry.id} {...entry} isMe={entry.id === state.playerId} />
          ))}
          {me && !meInTop && state.nickname ? (
            <StandingRow rank={me.rank} nickname={t("leaderboard.you", { name: state.nickname })} score={me.score} isMe testId="own-row" />
          ) : null}
        </ol>
        <p className="center">{t("leaderboard.completed", { number: state.questionNumber, total: state.totalQuestions })}</p>
        <p className="center muted" role="timer">
          {t(leaderboardNext(state).countdown, { count: secondsLeft })}
        </p>
        {state.isHost ? (
          <div className="center">
            <button type="button" className="button" onClick={nextQuestion}>
              {t(leaderboardNext(state).button)}
            </button>
          </div>
        ) : null}
      </div>
    </Page>
  );
}
