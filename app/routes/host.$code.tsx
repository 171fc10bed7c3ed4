import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "#app/i18n/use-translation";
import { ConnectingNotice, PicturesOnPlayersSwitch, useNow } from "#app/components/game-ui";
import { DisplayLinks } from "#app/components/display-links";
import { Page } from "#app/components/layout";
import { ProjectorControls } from "#app/components/projector/projector-controls";
import { QuestionStage, useRoomSounds } from "#app/components/question-stage";
import { useGame } from "#app/game/client/game-provider";
import { timeLeftMs } from "#app/game/client/game-state";
import { metaT } from "#app/i18n/meta";
import { gameLinks, KEYED_PAGE_HEADERS } from "#app/game-pages/game-links.server";
import { requireHostScreen } from "#app/http/api.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "game")("meta.host") }];

/** The page holds the display's and remote's keys: no cache keeps it. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const screen = await requireHostScreen(context, request, params.code);
  return data({ ...screen, links: await gameLinks(context.db, request, screen.gameCode) }, { headers: KEYED_PAGE_HEADERS });
}

export default function HostQuestion() {
  const { gameCode, links } = useLoaderData<typeof loader>();
  const { state, nextQuestion, pauseQuestion, resumeQuestion, acceptTypedAnswer, setPicturesOnPlayers } = useGame();
  const now = useNow();
  const { t } = useTranslation("game");
  const inGame = state.gameCode === gameCode && state.currentQuestion !== null;
  // The podium's fanfare is played by the results screen.
  useRoomSounds(state, now, inGame && state.phase !== "finished");

  if (!inGame) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }
  const revealed = state.phase === "results" && state.reveal !== null;
  const secondsLeft = Math.ceil(timeLeftMs(state, now) / 1000);
  const paused = state.phase === "question" && state.pausedRemainingMs !== null;

  return (
    <Page>
      <div className="stack">
        <QuestionStage state={state} now={now} controls={<ProjectorControls />} onAccept={(text) => acceptTypedAnswer(state.questionNumber, text)} />
        <div className="row" style={{ justifyContent: "space-between" }}>
          <PicturesOnPlayersSwitch enabled={state.picturesOnPlayers} onChange={setPicturesOnPlayers} />
          <div className="row">
            {revealed ? null : paused ? (
              <button type="button" className="button button-secondary" onClick={resumeQuestion}>
                <span aria-hidden="true">▶</span> {t("host.resume")}
              </button>
            ) : (
              <button type="button" className="button button-secondary" onClick={pauseQuestion} disabled={secondsLeft === 0}>
                <span aria-hidden="true">⏸</span> {t("host.pause")}
              </button>
            )}
            <button type="button" className="button" onClick={nextQuestion}>
              {t(revealed ? "host.next" : "host.skip")}
            </button>
          </div>
        </div>
        <DisplayLinks gameCode={gameCode} links={links} />
      </div>
    </Page>
  );
}
