import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Trans, useTranslation } from "react-i18next";
import { z } from "zod";
import { FieldError, FormError } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { metaT } from "#app/i18n/meta";
import { useOnline } from "#app/pwa/online";
import { useGame } from "#app/game/client/game-provider";
import { NICKNAME_MAX_LENGTH } from "#app/game/rules";
import { findLiveGame, hostNewGame, listGameSessions, type GameSession } from "#app/models/game.server";
import { requesterWithClientId } from "#app/utils/session.server";
import { FormIdSchema, JoinFormSchema } from "#app/utils/form-schemas";
import { GAME_NOT_FOUND, HOST_CONNECTION_FAILED, QUIZ_NOT_FOUND, QUIZ_NOT_HOSTABLE } from "#app/utils/game-messages";
import { parseForm, parseIntent, type FieldErrors } from "#app/utils/forms";
import { GAME_CODE_MESSAGE, GAME_CODE_PATTERN, NICKNAME_PATTERN, NICKNAME_REQUIRED_MESSAGE, normalizeGameCode } from "#app/utils/field-rules";
import { retryAfterHeaders } from "#app/utils/api.server";
import { checkLimits } from "#app/utils/rate-limits.server";
import { logGameCreated } from "#app/utils/game-log.server";
import { retryAfterFromAction } from "#app/utils/route-headers";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches)("join.metaTitle") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const code = normalizeGameCode(new URL(request.url).searchParams.get("code") ?? "");
  let sessions: GameSession[] | null;
  try {
    sessions = await listGameSessions(context.db);
  } catch (error) {
    // The join form works without the list, so a failed listing does not take the page down.
    context.logger.error({ event: "game_list_failed", err: error }, "could not list game sessions");
    sessions = null;
  }
  return { code, sessions };
}

/** A listed game's Start Game button: the quiz to start a new game of. */
const StartGameSchema = z.object({ quizId: FormIdSchema });

interface JoinActionData {
  values?: { gameCode: string; nickname: string };
  errors?: FieldErrors;
  /** Why Start Game failed. */
  startError?: string;
}

function reply(body: JoinActionData, status: number, headers?: HeadersInit) {
  return data(body, { status, headers });
}

/**
 * Joining without JavaScript checks the code here and hands over to the lobby; with JavaScript
 * the page joins over the socket instead. Start Game always lands here: it starts a new game of
 * the session's quiz with this browser as host, never taking over the listed game.
 */
/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  if (parseIntent(formData, ["start"]) === "start") {
    const start = parseForm(formData, StartGameSchema);
    if (start.status !== "success") return reply({ startError: QUIZ_NOT_FOUND }, 400);
    const { quizId } = start.value;
    const allowed = await checkLimits(context, [{ name: "game" }]);
    if (!allowed.ok) return reply({ startError: allowed.message }, 429, retryAfterHeaders(allowed.retryAfterSeconds));
    const { requester, headers } = await requesterWithClientId(context, request);
    const hosted = await hostNewGame(context.db, quizId, requester);
    if (hosted.status !== "ok") {
      return reply({ startError: hosted.status === "forbidden" ? QUIZ_NOT_HOSTABLE : QUIZ_NOT_FOUND }, hosted.status === "forbidden" ? 403 : 404);
    }
    logGameCreated(context.logger, hosted.value, quizId, "start game");
    return redirect(`/waiting/${hosted.value.gameCode}?hosted=1`, { headers });
  }

  const submission = parseForm(formData, JoinFormSchema);
  const values = { gameCode: submission.values.gameCode, nickname: submission.values.nickname };
  if (submission.status !== "success") return reply({ values, errors: submission.errors }, 400);
  const { gameCode, nickname } = submission.value;
  if (!(await findLiveGame(context.db, gameCode))) return reply({ values, errors: { gameCode: GAME_NOT_FOUND } }, 404);
  return redirect(`/waiting/${gameCode}?${new URLSearchParams({ nickname })}`);
}

/** Start Game posts here with JavaScript too; a post that never reached the server gets the hosting message. */
export async function clientAction({ serverAction }: ClientActionFunctionArgs): Promise<JoinActionData> {
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { startError: HOST_CONNECTION_FAILED };
  }
}

/** After an unreachable server, reloading the list would only fail too and replace the page with an error. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult?.startError === HOST_CONNECTION_FAILED ? false : defaultShouldRevalidate;

/** False in the server's HTML, so nothing is disabled for a browser that never runs the page's script. */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The browser's own check found a field wrong: its message from docs/product.md#validation, in place of the browser's. */
const INVALID_MESSAGES: Record<string, string> = { gameCode: GAME_CODE_MESSAGE, nickname: NICKNAME_REQUIRED_MESSAGE };

/**
 * The join form checks its fields with the browser's own constraints (pattern, required,
 * maxLength), so a player's phone needs no form library: docs/decisions/0025-player-download.md.
 * The server reads a post with the shared schema (the action above) and its messages show beside
 * the fields, with or without JavaScript.
 */
export default function Join() {
  const { code, sessions } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const actionData = useActionData<typeof clientAction>();
  const { state, joinGame } = useGame();
  const hydrated = useHydrated();
  const online = useOnline();
  const [gameCode, setGameCode] = useState(() => normalizeGameCode(actionData?.values?.gameCode ?? code));
  const [nickname, setNickname] = useState(actionData?.values?.nickname ?? "");
  const [submitted, setSubmitted] = useState(false);
  // The server's messages (a post made before the page's script ran), then the browser's; a field's goes once it changes.
  const [errors, setErrors] = useState<FieldErrors>(actionData?.errors ?? {});
  const [reply, setReply] = useState(actionData);
  if (reply !== actionData) {
    setReply(actionData);
    setErrors(actionData?.errors ?? {});
  }
  const nicknameRef = useRef<HTMLInputElement>(null);
  const filled = gameCode !== "" && nickname.trim() !== "";
  const gameCodeError = errors.gameCode;
  const nicknameError = errors.nickname;

  // A session's Join Game link lands here with ?code=: take the code and move on to the nickname.
  useEffect(() => {
    if (!code) return;
    setGameCode(code);
    nicknameRef.current?.focus();
  }, [code]);

  const joinError = submitted && !state.joining ? state.joinError : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // With JavaScript the page joins over the socket; the provider moves to the lobby once the server accepts.
    event.preventDefault();
    // docs/product.md#screens (join form): joining does nothing while either field is empty.
    if (!filled || state.joining) return;
    setSubmitted(true);
    joinGame(gameCode, nickname.trim());
  }

  /** Shows the spec's message beside a field the browser refused, instead of its bubble, and focuses the first such field. */
  function onInvalid(event: FormEvent<HTMLInputElement>) {
    event.preventDefault();
    const input = event.currentTarget;
    setErrors((current) => ({ ...current, [input.name]: INVALID_MESSAGES[input.name] }));
    const focused = document.activeElement;
    if (!(focused instanceof HTMLInputElement && focused.form === input.form && !focused.validity.valid)) input.focus();
  }

  const clearError = (name: string) => setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));

  return (
    <Page narrow>
      <div className="stack">
        <h1>{t("join.title")}</h1>
        <Form method="post" id="join-form" onSubmit={onSubmit} className="card stack">
          <div className="field">
            <label htmlFor="gameCode">{t("join.gameCode")}</label>
            <input
              id="gameCode"
              name="gameCode"
              className="input code-input"
              value={gameCode}
              placeholder="ABC123"
              required
              pattern={GAME_CODE_PATTERN}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              aria-invalid={gameCodeError ? true : undefined}
              aria-describedby={gameCodeError ? "gameCode-error" : undefined}
              onInvalid={onInvalid}
              onChange={(event) => {
                setGameCode(normalizeGameCode(event.target.value));
                clearError("gameCode");
              }}
            />
            <FieldError id="gameCode-error" message={gameCodeError} />
          </div>
          <div className="field">
            <label htmlFor="nickname">{t("join.nickname")}</label>
            <input
              ref={nicknameRef}
              id="nickname"
              name="nickname"
              className="input"
              value={nickname}
              required
              pattern={NICKNAME_PATTERN}
              maxLength={NICKNAME_MAX_LENGTH}
              autoComplete="nickname"
              aria-invalid={nicknameError ? true : undefined}
              aria-describedby={nicknameError ? "nickname-error" : undefined}
              onInvalid={onInvalid}
              onChange={(event) => {
                setNickname(event.target.value);
                clearError("nickname");
              }}
            />
            <FieldError id="nickname-error" message={nicknameError} />
          </div>
          <FormError message={joinError} />
          {!online ? (
            <p className="offline-notice" role="status">
              {t("join.offline")}
            </p>
          ) : null}
          <button type="submit" className="button" disabled={hydrated && (!filled || state.joining || !online)}>
            {state.joining ? t("join.connecting") : t("join.joinGame")}
          </button>
        </Form>

        <LiveSessions sessions={sessions} startError={actionData?.startError} />
      </div>
    </Page>
  );
}

function LiveSessions({ sessions, startError }: { sessions: GameSession[] | null; startError?: string }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const startingQuizId = navigation.formData?.get("intent") === "start" ? String(navigation.formData.get("quizId")) : null;
  return (
    <section className="stack" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t("join.sessions.title")}</h2>
      <FormError message={startError} />
      {sessions === null ? (
        <p className="muted">{t("join.sessions.loadFailed")}</p>
      ) : sessions.length === 0 ? (
        <p className="muted">{t("join.sessions.none")}</p>
      ) : (
        <ul className="session-list">
          {sessions.map((session) => (
            <li key={session.id} className="card stack">
              <div className="row">
                <h3 id={`session-${session.id}`}>{session.title}</h3>
                <span className="badge">{t(`gameStatus.${session.status}`)}</span>
              </div>
              {session.description ? <p className="muted">{session.description}</p> : null}
              <p className="muted">
                <Trans i18nKey="join.sessions.details" values={{ seconds: session.timeLimit }} components={{ code: <strong>{session.gameCode}</strong> }} />
              </p>
              <div className="row">
                <Link to={`/join?code=${session.gameCode}`} className="button button-small" aria-describedby={`session-${session.id}`}>
                  {t("join.joinGame")}
                </Link>
                <Form method="post">
                  <input type="hidden" name="intent" value="start" />
                  <input type="hidden" name="quizId" value={session.quizId} />
                  <button
                    type="submit"
                    className="button button-secondary button-small"
                    aria-describedby={`session-${session.id}`}
                    disabled={startingQuizId === String(session.quizId)}
                  >
                    {t("join.sessions.startGame")}
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
