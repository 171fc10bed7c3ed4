import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { kindOf } from "#app/game/kinds";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { AnswerInput, QUESTION_TEXT_ID } from "#app/components/answer-inputs";
import { ConnectingNotice, Countdown, PointsBadge, QuestionPicture, ScreenHeading, useNow } from "#app/components/game-ui";
import { Page } from "#app/components/layout";
import { RoundLabel } from "#app/components/round-label";
import { useGame } from "#app/game/client/game-provider";
import { timeLeftMs } from "#app/game/client/game-state";
import { appErrorOf } from "#app/i18n/app-error";
import { useSayError } from "#app/i18n/error-text";
import { metaT } from "#app/i18n/meta";
import { requirePlayerScreen } from "#app/http/api.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "game")("meta.play") }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return requirePlayerScreen(context, request, params.code);
}

const KEY_TO_ANSWER: Record<string, number> = { "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, a: 0, b: 1, c: 2, d: 3, e: 4, f: 5 };

export default function PlayQuestion() {
  const { gameCode } = useLoaderData<typeof loader>();
  const { state, submitAnswer } = useGame();
  const { t } = useTranslation("game");
  const sayError = useSayError();
  const now = useNow();
  const question = state.currentQuestion;
  const locked = state.answerStatus === "submitting" || state.answerStatus === "success";
  const secondsLeft = Math.ceil(timeLeftMs(state, now) / 1000);
  const paused = state.isQuestionActive && state.pausedRemainingMs !== null;
  const timeUp = state.isQuestionActive && !paused && secondsLeft === 0;

  const pickOne = question ? kindOf(question.kind).pickOne : false;
  const optionCount = question?.answers.length ?? 0;
  const screenRef = useRef<HTMLDivElement>(null);
  const shown = state.gameCode === gameCode && question !== null;
  useEffect(() => {
    // Keys pick an answer only where one press is one answer; typed kinds need their keys. They work
    // while focus is in the question (its heading has it when it opens), not from the header or footer,
    // so a stray key elsewhere answers nothing (WCAG 2.1.4: a one-key shortcut active only on focus).
    const screen = screenRef.current;
    if (!pickOne || !screen) return;
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const index = KEY_TO_ANSWER[event.key.toLowerCase()];
      if (index !== undefined && index < optionCount) submitAnswer(index);
    }
    screen.addEventListener("keydown", onKey);
    return () => screen.removeEventListener("keydown", onKey);
  }, [submitAnswer, pickOne, optionCount, shown]);

  if (state.gameCode !== gameCode || !question) {
    return (
      <Page narrow>
        <ConnectingNotice gameCode={gameCode} />
      </Page>
    );
  }

  return (
    <Page>
      <div className={paused ? "stack question-paused" : "stack"} ref={screenRef}>
        <RoundLabel round={state.round} />
        <div className="row" style={{ justifyContent: "space-between" }}>
          <ScreenHeading screenKey={state.questionNumber}>{t("questionOf", { number: state.questionNumber, total: state.totalQuestions })}</ScreenHeading>
          <Countdown secondsLeft={secondsLeft} paused={paused} />
        </div>
        <p className="question-text" id={QUESTION_TEXT_ID}>
          {question.text}
        </p>
        <div className="center">
          <PointsBadge points={question.points} />
        </div>
        {question.imageOnPlayers ? <QuestionPicture imageId={question.image} size="small" questionNumber={state.questionNumber} /> : null}
        <AnswerInput
          key={`${state.questionNumber}-${question.id}`}
          question={question}
          disabled={locked || !state.isQuestionActive || timeUp || paused}
          selectedAnswerIndex={locked ? state.selectedAnswerIndex : null}
          submitted={locked ? state.submittedValue : null}
          onAnswer={submitAnswer}
        />
        {/* Seen, not announced: the countdown's live region says the pause once. */}
        {paused ? (
          <p className="status-banner" data-testid="paused-notice">
            {t("play.paused")}
          </p>
        ) : null}
        <div aria-live="polite">
          {state.answerStatus === "submitting" ? <p className="status-banner">{t("play.submitting")}</p> : null}
          {state.answerStatus === "success" ? <p className="status-banner">{t("play.submitted")}</p> : null}
          {state.answerStatus === "error" ? (
            <p className="status-banner form-error" role="alert">
              {state.answerError
                ? sayError(appErrorOf({ code: state.answerErrorKey, values: state.answerErrorValues }), state.answerError)
                : t("play.submitFailed")}
            </p>
          ) : null}
          {state.answerStatus === "idle" && timeUp ? <p className="status-banner">{t("timeUp")}</p> : null}
        </div>
        {pickOne ? <p className="muted center">{t("play.keyTip", { lastNumber: optionCount, lastLetter: "ABCDEF"[optionCount - 1] })}</p> : null}
      </div>
    </Page>
  );
}
