import { useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { useToast } from "#app/components/toaster";
import { appErrorOf } from "#app/i18n/app-error";
import { useSayError } from "#app/i18n/error-text";
import type { ServerMessage } from "../protocol";
import { GAME_URL_PARAM, WS_PATH } from "../protocol-constants";

/** One answer: exactly one of these, as the question's kind needs. */
export type SubmittedAnswer = { answerIndex?: number; answerIndexes?: number[]; text?: string; number?: number };
import { HOST_NICKNAME } from "../rules";
import { FINAL_ERROR_TITLES, gameReducer, initialGameState, isFinalError, screenFor, type ClientGameState, type Surface } from "./game-state";
import { GameSocket, type ConnectionState } from "./socket";
import { clearGameSessions, getClientId, loadHostSession, loadPlayerSession, saveHostSession, savePlayerSession } from "./storage";

export interface GameContextValue {
  state: ClientGameState;
  connection: ConnectionState;
  /** `team`: in team mode, the team picked or typed on the join form (made if new). */
  joinGame(gameCode: string, nickname: string, team?: string): void;
  hostGame(gameCode: string, title: string, hostName: string): void;
  /** The projector's display: watches the game with its display key (docs/decisions/0032-display-and-remote.md). */
  watchGame(gameCode: string, key: string): void;
  /** The host's phone: a host seat by the game's remote key. */
  remoteGame(gameCode: string, key: string): void;
  /** Host: straight to the podium. */
  endGame(): void;
  startGame(): void;
  nextQuestion(): void;
  /** Host: stops the open question's countdown, or runs it again with the time it had left. */
  pauseQuestion(): void;
  resumeQuestion(): void;
  /** An option's index, or for the other kinds the picks, the text or the number. */
  submitAnswer(answer: number | SubmittedAnswer): void;
  /** Host, after a typed question closed: count a typed answer as right. */
  acceptTypedAnswer(questionNumber: number, text: string): void;
  /** Host: show questions' pictures on players' devices too. */
  setPicturesOnPlayers(enabled: boolean): void;
  playAgain(): void;
  /** Host: removes a player for good. */
  kickPlayer(playerId: number): void;
  /** Host: closes the game to new players, or opens it again. */
  lockGame(locked: boolean): void;
  /** Host, in the lobby: team mode on or off, and the teams players can pick (docs/decisions/0033-team-scoring.md). */
  setTeamMode(enabled: boolean): void;
  addTeam(name: string): void;
  removeTeam(teamId: number): void;
  /** Player: plays for the team of that name (made if new); in the lobby, or later while it has none. */
  chooseTeam(team: string): void;
  /** Host, during a night's break: "Back in N minutes" (0 takes the countdown away). */
  setBreakTimer(minutes: number): void;
  /** Home: leaves the game and clears it from this browser. */
  leaveGame(): void;
  reconnect(): void;
}

const GameContext = createContext<GameContextValue | null>(null);

export function useGame(): GameContextValue {
  const value = useContext(GameContext);
  if (!value) throw new Error("useGame must be used inside <GameProvider>");
  return value;
}

/** What this page joins: a player, the host, or with a key a display or a remote (which keep no session in this browser). */
interface Target {
  gameCode: string;
  nickname: string;
  isHost: boolean;
  key?: string;
  surface?: Surface;
  /** The team picked on the join form; sent with the join until the game lets this browser in. */
  team?: string;
}

function joinMessage(target: Target): Parameters<GameSocket["send"]>[0] {
  const { gameCode, nickname, key, surface, team } = target;
  if (surface === "display" && key) return { type: "WATCH_GAME", payload: { gameCode, key } };
  return { type: "JOIN_GAME", payload: { gameCode, nickname, ...(key ? { key } : {}), ...(team ? { team } : {}) } };
}

/**
 * The socket's URL: its browser, and the game it is in when it knows one, which a balancer in
 * front of several nodes sends every socket of a game to one node by (issue 28, docs/deploy/).
 */
export function socketUrl(clientId: string, gameCode: string | null): string {
  const protocol = window.location.protocol === "https:" ? "wss" : "ws";
  const game = gameCode ? `&${GAME_URL_PARAM}=${encodeURIComponent(gameCode)}` : "";
  return `${protocol}://${window.location.host}${WS_PATH}?clientId=${encodeURIComponent(clientId)}${game}`;
}

/** The game this browser is in when the page itself has not said: the host's first, as the socket rejoins it. */
function storedTarget(): Target | null {
  const host = loadHostSession();
  if (host) return { gameCode: host.gameCode, nickname: HOST_NICKNAME, isHost: true };
  const player = loadPlayerSession();
  return player ? { gameCode: player.gameCode, nickname: player.nickname, isHost: false } : null;
}

/** Owns the app's one game socket, the client game state, and the screen changes it drives. */
export function GameProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(gameReducer, initialGameState);
  const [connection, setConnection] = useState<ConnectionState>("closed");
  const socketRef = useRef<GameSocket | null>(null);
  /** The game this browser wants to be in; joined on every (re)open of the socket. */
  const targetRef = useRef<Target | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const toast = useToast();
  const toastRef = useRef(toast);
  toastRef.current = toast;
  // The socket's handlers outlive renders: they read the words through refs, as they do the toaster.
  const { t } = useTranslation("game");
  const sayError = useSayError();
  const wordsRef = useRef({ t, sayError });
  wordsRef.current = { t, sayError };
  const navigate = useNavigate();
  const location = useLocation();
  const pathnameRef = useRef(location.pathname);
  pathnameRef.current = location.pathname;

  useEffect(() => {
    let everOpened = false;
    let warnedOnce = false;
    const onMessage = (message: ServerMessage) => {
      dispatch({ type: "server", message, receivedAt: Date.now() });
      // In: the join form's team has done its part, and a rejoin must not undo a team picked since.
      if (message.type === "GAME_SNAPSHOT" && targetRef.current?.team) targetRef.current = { ...targetRef.current, team: undefined };
      const { t, sayError } = wordsRef.current;
      // Removed while in the game, the game is gone, or a display's or remote's link replaced: out, and home. (A removed browser trying to join again just sees the refusal.)
      if (message.type === "ERROR" && isFinalError(message.payload.code) && !stateRef.current.joining) {
        const { message: text, code, key, values } = message.payload;
        // Said from its catalog key (docs/decisions/0047-errors-as-codes.md); the English as sent from a server without keys.
        toastRef.current({ title: t(FINAL_ERROR_TITLES[code!]), description: sayError(appErrorOf({ code: key, values }), text), variant: "destructive" });
        const keyed = Boolean(targetRef.current?.key);
        targetRef.current = null;
        // A display or a remote stays on its page, which says why, and keeps this browser's own game (it may be the host's laptop).
        if (!keyed) {
          clearGameSessions();
          navigate("/");
        }
      } else if (message.type === "ERROR") {
        const { message: text, key, values } = message.payload;
        toastRef.current({ title: t("toasts.gameError"), description: sayError(appErrorOf({ code: key, values }), text), variant: "destructive" });
        if (stateRef.current.joining) {
          // A display or a remote refused keeps this browser's own game (it may be the host's laptop).
          if (!targetRef.current?.key) clearGameSessions();
          targetRef.current = null;
        }
      } else if (message.type === "GAME_STARTED" && message.payload.questionCount === 0) {
        toastRef.current({ title: t("toasts.quizError"), description: t("toasts.noQuestions"), variant: "destructive" });
      }
    };
    // Read for every socket opened: the game the page joins, or the one this browser was in.
    const url = () => socketUrl(getClientId(), (targetRef.current ?? storedTarget())?.gameCode ?? null);
    const socket = new GameSocket(url, {
      onMessage,
      onStateChange: (next) => {
        setConnection(next);
        if (next === "closed" && !everOpened && !warnedOnce) {
          warnedOnce = true;
          const { t } = wordsRef.current;
          toastRef.current({ title: t("toasts.connectionError"), description: t("toasts.connectFailedTryAgain"), variant: "destructive" });
        }
      },
      onOpen: () => {
        everOpened = true;
        // (Re)join whatever game this browser is in, so a refresh or a dropped socket lands back in it.
        let target = targetRef.current;
        if (!target) {
          target = storedTarget();
          if (target) {
            targetRef.current = target;
            dispatch({ type: "joining", ...target });
          }
        }
        if (target) socket.send(joinMessage(target));
      },
      // Not in a game (a socket reopened after a sign-in, say): nothing to tell.
      onReconnected: () => {
        if (targetRef.current) toastRef.current({ title: wordsRef.current.t("toasts.reconnected"), description: wordsRef.current.t("toasts.backInGame") });
      },
      onGiveUp: () => {
        const { t } = wordsRef.current;
        toastRef.current({ title: t("toasts.reconnectionFailed"), description: t("toasts.reconnectFailed"), variant: "destructive" });
        if (pathnameRef.current.startsWith("/waiting/")) navigate("/");
      },
    });
    socketRef.current = socket;
    socket.start();
    // A venue's Wi-Fi drops and comes back: follow the browser's view of the network.
    const onOffline = () => socket.suspend();
    const onOnline = () => socket.reconnect();
    window.addEventListener("offline", onOffline);
    window.addEventListener("online", onOnline);
    return () => {
      window.removeEventListener("offline", onOffline);
      window.removeEventListener("online", onOnline);
      socket.stop();
    };
    // The socket lives as long as the app; navigate is stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Server messages move everyone to the screen of the game's phase (docs/product.md#screens), compared
  // with where the app is going, not where it is: the pathname changes only once a navigation's loaders
  // are done, so a screen that came back while another still loaded (the leaderboard and then the next
  // question in one burst on a venue's slow Wi-Fi) looked "already there", and the stale screen won.
  // The router's state reaches renders in a transition, a render or so after navigate(): until it moves,
  // the screen last asked for here is the destination. The effect runs only when the screen changes, so
  // a player's own way elsewhere (home, My Games) stands until the game moves on.
  const navigation = useNavigation();
  const routedRef = useRef(location.pathname);
  routedRef.current = navigation.location?.pathname ?? location.pathname;
  const askedRef = useRef<{ screen: string; routed: string } | null>(null);
  const screen = screenFor(state);
  useEffect(() => {
    const routed = routedRef.current;
    const asked = askedRef.current;
    const destination = asked && asked.routed === routed ? asked.screen : routed;
    if (screen && screen !== destination) {
      askedRef.current = { screen, routed };
      navigate(screen);
    }
  }, [screen, navigate]);

  const send = useCallback((message: Parameters<GameSocket["send"]>[0]) => socketRef.current?.send(message), []);

  /**
   * Joins now when connected to a socket whose URL names this game; otherwise the next open joins:
   * that of a socket for this game, opened beside the current one when its URL names another (or
   * none, the home page's), or the socket's next open after a drop.
   */
  const enter = useCallback((gameCode: string, nickname: string, isHost: boolean, keyed: { key: string; surface: Surface } | null = null, team?: string) => {
    const target: Target = { gameCode, nickname, isHost, ...keyed, ...(team ? { team } : {}) };
    targetRef.current = target;
    dispatch({ type: "joining", gameCode, nickname, isHost, surface: keyed?.surface });
    const socket = socketRef.current;
    if (socket && !socket.follow() && socket.state === "open") socket.send(joinMessage(target));
  }, []);

  const value = useMemo<GameContextValue>(
    () => ({
      state,
      connection,
      joinGame(gameCode, nickname, team) {
        savePlayerSession({ gameCode, nickname });
        enter(gameCode, nickname, false, null, team);
      },
      hostGame(gameCode, title, hostName) {
        saveHostSession({ gameCode, title, hostName });
        enter(gameCode, HOST_NICKNAME, true);
      },
      watchGame(gameCode, key) {
        enter(gameCode, "", false, { key, surface: "display" });
      },
      remoteGame(gameCode, key) {
        enter(gameCode, HOST_NICKNAME, true, { key, surface: "remote" });
      },
      endGame() {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "END_GAME", payload: { gameCode } });
      },
      startGame() {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "START_GAME", payload: { gameCode } });
      },
      nextQuestion() {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "NEXT_QUESTION", payload: { gameCode } });
      },
      pauseQuestion() {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "PAUSE_QUESTION", payload: { gameCode } });
      },
      resumeQuestion() {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "RESUME_QUESTION", payload: { gameCode } });
      },
      submitAnswer(answer) {
        const { gameCode, playerId, isHost, isQuestionActive, answerStatus, pausedRemainingMs } = stateRef.current;
        // docs/product.md#client-state: silently refused without a code, a player id, as host, with no open question, or while it is paused.
        if (!gameCode || playerId === null || isHost || !isQuestionActive || pausedRemainingMs !== null) return;
        if (answerStatus === "submitting" || answerStatus === "success") return;
        const parts = typeof answer === "number" ? { answerIndex: answer } : answer;
        const value = parts.answerIndexes ?? parts.text ?? parts.number ?? null;
        dispatch({ type: "answerSubmitting", answerIndex: parts.answerIndex ?? null, value });
        send({ type: "SUBMIT_ANSWER", payload: { gameCode, playerId, ...parts, time: 0 } });
      },
      acceptTypedAnswer(questionNumber, text) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "ACCEPT_ANSWER", payload: { gameCode, questionNumber, text } });
      },
      setPicturesOnPlayers(enabled) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "SET_PICTURES_ON_PLAYERS", payload: { gameCode, enabled } });
      },
      playAgain() {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "PLAY_AGAIN", payload: { gameCode } });
      },
      kickPlayer(playerId) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "KICK_PLAYER", payload: { gameCode, playerId } });
      },
      lockGame(locked) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "LOCK_GAME", payload: { gameCode, locked } });
      },
      setTeamMode(enabled) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "SET_TEAM_MODE", payload: { gameCode, enabled } });
      },
      addTeam(name) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "ADD_TEAM", payload: { gameCode, name } });
      },
      removeTeam(teamId) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "REMOVE_TEAM", payload: { gameCode, teamId } });
      },
      chooseTeam(team) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && !isHost) send({ type: "CHOOSE_TEAM", payload: { gameCode, team } });
      },
      setBreakTimer(minutes) {
        const { gameCode, isHost } = stateRef.current;
        if (gameCode && isHost) send({ type: "SET_BREAK_TIMER", payload: { gameCode, minutes } });
      },
      leaveGame() {
        const { gameCode } = stateRef.current;
        if (gameCode) send({ type: "LEAVE_GAME", payload: { gameCode } });
        targetRef.current = null;
        clearGameSessions();
        dispatch({ type: "reset" });
      },
      reconnect() {
        socketRef.current?.reconnect();
      },
    }),
    [state, connection, send, enter],
  );

  return <GameContext.Provider value={value}>{children}</GameContext.Provider>;
}
