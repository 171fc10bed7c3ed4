import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { appError, appErrorOf, type AppError } from "#app/i18n/app-error";
import { FieldError, FormError } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { JoinTeamFields } from "#app/components/team-join-fields";
import { metaT } from "#app/i18n/meta";
import { useOnline } from "#app/pwa/online";
import { useGame } from "#app/game/client/game-provider";
import { GAME_CODE_LENGTH, NICKNAME_MAX_LENGTH } from "#app/game/rules";
import { findLiveGame, listGameSessions, type GameSession } from "#app/models/game.server";
import { liveGamesHostedBy } from "#app/models/game-host.server";
import { clientIdOf } from "#app/sessions/client-id.server";
import { JoinFormSchema } from "#app/schemas/form-schemas";
import { GAME_NOT_FOUND } from "#app/game-pages/game-messages";
import { parseForm, type FieldCodes, type FieldErrors } from "#app/forms/forms";
import { readForm } from "#app/http/api.server";
import { joinTeamsOf } from "#app/teams/join-teams.server";
import { requesterOf } from "#app/sessions/session.server";
import { chosenTeam, missingNewTeam, TEAM_NAME_REQUIRED_MESSAGE, type JoinTeams } from "#app/teams/team-choice";
import { GAME_CODE_MESSAGE, GAME_CODE_PATTERN, NICKNAME_PATTERN, NICKNAME_REQUIRED_MESSAGE, normalizeGameCode } from "#app/schemas/field-rules";
import { useHydrated } from "#app/components/use-hydrated";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches)("join.metaTitle") }];

/** A listed game, and whether this browser is its host: the server decides who may start it. */
type ListedSession = GameSession & { isHost: boolean };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const code = normalizeGameCode(new URL(request.url).searchParams.get("code") ?? "");
  const clientId = clientIdOf(request);
  let sessions: ListedSession[] | null;
  try {
    const hostedBy = async (clientId: string) => liveGamesHostedBy(context.db, { ...(await requesterOf(context, request)), clientId });
    const [listed, hosted] = await Promise.all([listGameSessions(context.db), clientId ? hostedBy(clientId) : new Set<string>()]);
    sessions = listed.map((session) => ({ ...session, isHost: hosted.has(session.gameCode) }));
  } catch (error) {
    // The join form works without the list, so a failed listing does not take the page down.
    context.logger.error({ event: "game_list_failed", err: error }, "could not list game sessions");
    sessions = null;
  }
  // A game played in teams: the form offers its teams.
  return { code, sessions, teams: await joinTeamsOf(context, code) };
}

interface JoinActionData {
  values?: { gameCode: string; nickname: string; team?: string; newTeam?: string };
  errors?: FieldErrors;
  /** Each message's code and values, which the page says it by (docs/decisions/0047-errors-as-codes.md). */
  codes?: FieldCodes;
  /** The game is played in teams: the form offers them (again). */
  teams?: JoinTeams | null;
}

function reply(body: JoinActionData, status: number) {
  return data(body, { status });
}

/** Joining without JavaScript checks the code here and hands over to the lobby; with JavaScript the page joins over the socket instead. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, "/join");
  const submission = parseForm(formData, JoinFormSchema);
  // The form offered teams when it sent a team choice (its radios always send one).
  const offered = formData.has("team");
  const { gameCode: typedCode, nickname: typedNickname, team, newTeam } = submission.values;
  const values = { gameCode: typedCode, nickname: typedNickname, ...(offered ? { team, newTeam } : {}) };
  if (submission.status !== "success") {
    const teams = await joinTeamsOf(context, normalizeGameCode(typedCode));
    return reply({ values, errors: submission.errors, codes: submission.codes, ...(teams ? { teams } : {}) }, 400);
  }
  const { gameCode, nickname } = submission.value;
  if (!(await findLiveGame(context.db, gameCode)))
    return reply({ values, errors: { gameCode: GAME_NOT_FOUND }, codes: { gameCode: appError("GAME_NOT_FOUND") } }, 404);
  const teams = offered ? null : await joinTeamsOf(context, gameCode);
  // A game played in teams, posted from a form that did not know it: the form comes back with the teams to pick from.
  if (teams) return reply({ values, teams }, 200);
  const query = new URLSearchParams({ nickname });
  if (submission.value.team) query.set("team", submission.value.team);
  return redirect(`/waiting/${gameCode}?${query}`);
}

/** A field's message: its English, and the code and values it is said by. */
type FieldMessage = { message: string; error?: AppError };
type FieldMessages = Partial<Record<string, FieldMessage>>;

/** The browser's own check found a field wrong: its message from docs/product.md#validation, in place of the browser's. */
const INVALID_MESSAGES: Record<string, FieldMessage> = {
  gameCode: { message: GAME_CODE_MESSAGE, error: appError("GAME_CODE_LENGTH") },
  nickname: { message: NICKNAME_REQUIRED_MESSAGE, error: appError("NICKNAME_REQUIRED") },
};

const TEAM_NAME_REQUIRED: FieldMessage = { message: TEAM_NAME_REQUIRED_MESSAGE, error: appError("TEAM_NAME_REQUIRED") };

/** The action's messages with their codes. */
function messagesOf(reply: JoinActionData | undefined): FieldMessages {
  const messages: FieldMessages = {};
  for (const [name, message] of Object.entries(reply?.errors ?? {})) if (message) messages[name] = { message, error: reply?.codes?.[name] };
  return messages;
}

/**
 * The join form checks its fields with the browser's own constraints (pattern, required,
 * maxLength), so a player's phone needs no form library: docs/decisions/0025-player-download.md.
 * The server reads a post with the shared schema (the action above) and its messages show beside
 * the fields, with or without JavaScript.
 */
export default function Join() {
  const { code, sessions, teams: codeTeams } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const { state, joinGame } = useGame();
  const hydrated = useHydrated();
  const online = useOnline();
  const [gameCode, setGameCode] = useState(() => normalizeGameCode(actionData?.values?.gameCode ?? code));
  const [nickname, setNickname] = useState(actionData?.values?.nickname ?? "");
  const [submitted, setSubmitted] = useState(false);
  // The server's messages (a post made before the page's script ran), then the browser's; a field's goes once it changes.
  const [errors, setErrors] = useState<FieldMessages>(() => messagesOf(actionData));
  const [reply, setReply] = useState(actionData);
  if (reply !== actionData) {
    setReply(actionData);
    setErrors(messagesOf(actionData));
  }
  const nicknameRef = useRef<HTMLInputElement>(null);
  // The teams of a game played in teams, once its code is known: from the link, the last post, or asked for as the code is typed.
  const [typedTeams, setTypedTeams] = useState<JoinTeams | null>(null);
  const teams = [codeTeams, actionData?.teams, typedTeams].find((offered) => offered?.gameCode === gameCode) ?? null;
  useEffect(() => {
    if (gameCode.length < GAME_CODE_LENGTH || gameCode === code) return;
    fetch(`/api/games/${gameCode}/teams`)
      .then((response) => response.json())
      // Only a game in teams answers with its teams; which code they belong to, `teams` above checks.
      .then(
        (found: JoinTeams | null) => found && setTypedTeams(found),
        () => undefined,
      );
  }, [gameCode, code]);
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
    const form = new FormData(event.currentTarget);
    const [choice, newTeam] = [form.get("team"), form.get("newTeam")];
    if (missingNewTeam(choice, newTeam)) {
      setErrors((current) => ({ ...current, newTeam: TEAM_NAME_REQUIRED }));
      const input = event.currentTarget.elements.namedItem("newTeam");
      if (input instanceof HTMLInputElement) input.focus();
      return;
    }
    setSubmitted(true);
    joinGame(gameCode, nickname.trim(), chosenTeam(choice, newTeam));
  }

  /** Shows our own message (docs/product.md) beside a field the browser refused, instead of its bubble, and focuses the first such field. */
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
            <FieldError id="gameCode-error" message={gameCodeError?.message} error={gameCodeError?.error} />
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
            <FieldError id="nickname-error" message={nicknameError?.message} error={nicknameError?.error} />
          </div>
          {teams ? (
            <JoinTeamFields
              offered={teams}
              values={actionData?.values}
              error={(errors.newTeam ?? errors.team)?.message}
              errorCode={(errors.newTeam ?? errors.team)?.error}
              onChange={() => clearError("newTeam")}
            />
          ) : null}
          <FormError message={joinError} error={appErrorOf({ code: state.joinErrorKey, values: state.joinErrorValues })} />
          {!online ? (
            <p className="offline-notice" role="status">
              {t("join.offline")}
            </p>
          ) : null}
          <button type="submit" className="button" disabled={hydrated && (!filled || state.joining || !online)}>
            {state.joining ? t("join.connecting") : t("join.joinGame")}
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
  const { t } = useTranslation();
  return (
    <section className="stack" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t("join.sessions.title")}</h2>
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
                {session.isHost ? (
                  <Link to={`/waiting/${session.gameCode}`} className="button button-secondary button-small" aria-describedby={`session-${session.id}`}>
                    {session.status === "waiting" ? t("join.sessions.startGame") : t("join.sessions.openHostScreen")}
                  </Link>
                ) : (
                  <span className="hint">{t("join.sessions.onlyHost")}</span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
