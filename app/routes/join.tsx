import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FieldError } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { useOnline } from "#app/pwa/online";
import { useGame } from "#app/game/client/game-provider";
import { NICKNAME_MAX_LENGTH } from "#app/game/rules";
import { findLiveGame, listGameSessions, liveGamesHostedBy, type GameSession } from "#app/models/game.server";
import { clientIdOf } from "#app/utils/client-id.server";
import { GAME_NOT_FOUND, JoinFormSchema } from "#app/utils/form-schemas";
import { fieldError, getFormProps, parseForm, useSchemaForm, type FieldErrors } from "#app/utils/forms";
import { normalizeGameCode } from "#app/utils/validation";

export const meta: MetaFunction = () => [{ title: "Join a Game - Quiz Night" }];

/** A listed game, and whether this browser is its host: the server decides who may start it. */
type ListedSession = GameSession & { isHost: boolean };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const code = normalizeGameCode(new URL(request.url).searchParams.get("code") ?? "");
  const clientId = clientIdOf(request);
  let sessions: ListedSession[] | null;
  try {
    const [listed, hosted] = await Promise.all([listGameSessions(context.db), clientId ? liveGamesHostedBy(context.db, clientId) : new Set<string>()]);
    sessions = listed.map((session) => ({ ...session, isHost: hosted.has(session.gameCode) }));
  } catch (error) {
    // The join form works without the list, so a failed listing does not take the page down.
    context.logger.error({ event: "game_list_failed", err: error }, "could not list game sessions");
    sessions = null;
  }
  return { code, sessions };
}

interface JoinActionData {
  values?: { gameCode: string; nickname: string };
  errors?: FieldErrors;
}

function reply(body: JoinActionData, status: number) {
  return data(body, { status });
}

/** Joining without JavaScript checks the code here and hands over to the lobby; with JavaScript the page joins over the socket instead. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseForm(formData, JoinFormSchema);
  const values = { gameCode: submission.values.gameCode, nickname: submission.values.nickname };
  if (submission.status !== "success") return reply({ values, errors: submission.errors }, 400);
  const { gameCode, nickname } = submission.value;
  if (!(await findLiveGame(context.db, gameCode))) return reply({ values, errors: { gameCode: GAME_NOT_FOUND } }, 404);
  return redirect(`/waiting/${gameCode}?${new URLSearchParams({ nickname })}`);
}

/** False in the server's HTML, so nothing is disabled for a browser that never runs the page's script. */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export default function Join() {
  const { code, sessions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { state, joinGame } = useGame();
  const hydrated = useHydrated();
  const online = useOnline();
  const [gameCode, setGameCode] = useState(() => normalizeGameCode(actionData?.values?.gameCode ?? code));
  const [nickname, setNickname] = useState(actionData?.values?.nickname ?? "");
  const [submitted, setSubmitted] = useState(false);
  const nicknameRef = useRef<HTMLInputElement>(null);
  const filled = gameCode !== "" && nickname.trim() !== "";
  const [form, fields] = useSchemaForm(JoinFormSchema, {
    id: "join-form",
    reply: actionData?.errors ? actionData : undefined,
    onSubmit(event, { submission }) {
      // With JavaScript the page joins over the socket; the provider moves to the lobby once the server accepts.
      event.preventDefault();
      // docs/product.md#screens (join form): joining does nothing while either field is empty.
      if (!filled || state.joining || submission?.status !== "success") return;
      setSubmitted(true);
      joinGame(submission.value.gameCode, submission.value.nickname);
    },
  });
  const gameCodeError = fieldError(fields.gameCode);
  const nicknameError = fieldError(fields.nickname);

  // A session's Join Game link lands here with ?code=: take the code and move on to the nickname.
  useEffect(() => {
    if (!code) return;
    setGameCode(code);
    nicknameRef.current?.focus();
  }, [code]);

  const joinError = submitted && !state.joining ? state.joinError : null;

  return (
    <Page narrow>
      <div className="stack">
        <h1>Join a Game</h1>
        <Form method="post" {...getFormProps(form)} className="card stack">
          <div className="field">
            <label htmlFor="gameCode">Game code</label>
            <input
              id="gameCode"
              name={fields.gameCode.name}
              className="input code-input"
              value={gameCode}
              placeholder="ABC123"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              aria-invalid={gameCodeError ? true : undefined}
              aria-describedby={gameCodeError ? "gameCode-error" : undefined}
              onChange={(event) => setGameCode(normalizeGameCode(event.target.value))}
            />
            <FieldError id="gameCode-error" message={gameCodeError} />
          </div>
          <div className="field">
            <label htmlFor="nickname">Nickname</label>
            <input
              ref={nicknameRef}
              id="nickname"
              name={fields.nickname.name}
              className="input"
              value={nickname}
              maxLength={NICKNAME_MAX_LENGTH}
              autoComplete="nickname"
              aria-invalid={nicknameError ? true : undefined}
              aria-describedby={nicknameError ? "nickname-error" : undefined}
              onChange={(event) => setNickname(event.target.value)}
            />
            <FieldError id="nickname-error" message={nicknameError} />
          </div>
          {joinError ? (
            <p className="form-error" role="alert">
              {joinError}
            </p>
          ) : null}
          {!online ? (
            <p className="offline-notice" role="status">
              You&apos;re offline. Joining a game needs a connection; this form works again as soon as you&apos;re back online.
            </p>
          ) : null}
          <button type="submit" className="button" disabled={hydrated && (!filled || state.joining || !online)}>
            {state.joining ? "Connecting..." : "Join Game"}
          </button>
        </Form>

        <LiveSessions sessions={sessions} />
      </div>
    </Page>
  );
}

/**
 * Live public games. Start Game belongs to a game's host: for the browser that hosts it, a link to
 * its lobby (which follows the game to its current screen); for anyone else, a note that only the
 * host can start it. It never opens a copy of someone's game.
 */
function LiveSessions({ sessions }: { sessions: ListedSession[] | null }) {
  return (
    <section className="stack" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Live games</h2>
      {sessions === null ? (
        <p className="muted">Could not load the live games. You can still join with a code.</p>
      ) : sessions.length === 0 ? (
        <p className="muted">No live games right now.</p>
      ) : (
        <ul className="session-list">
          {sessions.map((session) => (
            <li key={session.id} className="card stack">
              <div className="row">
                <h3 id={`session-${session.id}`}>{session.title}</h3>
                <span className="badge">{session.status === "waiting" ? "Open" : session.status}</span>
              </div>
              {session.description ? <p className="muted">{session.description}</p> : null}
              <p className="muted">
                Code <strong>{session.gameCode}</strong> · {session.timeLimit} s per question
              </p>
              <div className="row">
                <Link to={`/join?code=${session.gameCode}`} className="button button-small" aria-describedby={`session-${session.id}`}>
                  Join Game
                </Link>
                {session.isHost ? (
                  <Link to={`/waiting/${session.gameCode}`} className="button button-secondary button-small" aria-describedby={`session-${session.id}`}>
                    {session.status === "waiting" ? "Start Game" : "Open Host Screen"}
                  </Link>
                ) : (
                  <span className="hint">Only the host can start the game.</span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
