/**
 * Who receives what: for each effect of a transition, the messages it causes and their recipients,
 * named by role ("every host", "each player") rather than by socket, so the rules of who may hear
 * what sit beside the views that redact it and are tested like the engine. The room binds the roles
 * to its connections; the outbox encodes each message once per audience.
 *
 * Three roles watch a game: hosts (the laptop's host screen and any remote: the controls and the
 * private data, every player and every result), displays (the projector: only what it shows, never
 * O(players) data, no result of one player beyond the standings; docs/decisions/0032) and players.
 */
import { kindOf } from "../kinds";
import { CloseCode, type ServerMessageType, type ServerPayload } from "../protocol";
import { MESSAGES, type Effect } from "./transition";
import { answerToCurrentQuestion, type AnswerRecord, type GameState } from "./state";
import {
  answerProgressView,
  gameOverView,
  leaderboardView,
  lobbyView,
  ownStanding,
  playerRef,
  playerResultView,
  questionPausedView,
  questionResumedView,
  questionView,
  resultsHeaderView,
  snapshotView,
  typedAnswersView,
  displayProgressView,
  roundOverView,
  breakTimerView,
  teamsView,
  type Viewer,
} from "./view";

/** One server message with its payload, typed together. */
export type Message = { [T in ServerMessageType]: { type: T; payload: ServerPayload<T> } }[ServerMessageType];

/**
 * An audience, by role: `hosts` (controls and private data), `displays`, `screens` (hosts and
 * displays: what the projector shows), `players`, `viewers` (displays and players: what anyone in the
 * room may see, such as the lobby's newest names) and `everyone`.
 */
export type Broadcast = "hosts" | "displays" | "screens" | "players" | "viewers" | "everyone";

/** Which roles each audience reaches. */
export const AUDIENCES: Record<Broadcast, { hosts: boolean; displays: boolean; players: boolean }> = {
  hosts: { hosts: true, displays: false, players: false },
  displays: { hosts: false, displays: true, players: false },
  screens: { hosts: true, displays: true, players: false },
  players: { hosts: false, displays: false, players: true },
  viewers: { hosts: false, displays: true, players: true },
  everyone: { hosts: true, displays: true, players: true },
};

export type Addressed =
  /** The same message to an audience. `opensQuestion`: each player's answer is timed from when it reached them. */
  | (Message & { to: Broadcast; opensQuestion?: boolean })
  /** To one player, if connected; `close` then ends its connection. */
  | (Message & { to: "player"; playerId: number; close?: { code: number; reason: string } })
  /**
   * One message per player, `shared` with everyone and under `key` what `each(playerId)` gives that
   * player: thousands of players cost one serialisation of `shared` and one small one each.
   */
  | { to: "eachPlayer"; type: ServerMessageType; shared: object; key: string; each: (playerId: number) => unknown };

export interface Audience {
  now: number;
  /** Whether any host is connected: the hosts' full results are built only for someone to see. */
  hasHosts: boolean;
}

function message<T extends ServerMessageType>(type: T, payload: ServerPayload<T>): Message {
  return { type, payload } as Message;
}

/** ANSWER_ACCEPTED echoes what was stored: the option, or the picks, text or number. */
export function acceptedPayload(answer: AnswerRecord): ServerPayload<"ANSWER_ACCEPTED"> {
  const questionNumber = answer.questionIndex + 1;
  return answer.answerIndex >= 0 ? { questionNumber, answerIndex: answer.answerIndex } : { questionNumber, value: answer.value };
}

/** The messages an effect causes, in the order they are to be sent. */
export function recipientsOf(state: GameState, effect: Effect, audience: Audience): Addressed[] {
  switch (effect.type) {
    case "playerJoined":
      return effect.rejoined ? [] : [{ to: "hosts", ...message("PLAYER_JOINED", { player: playerRef(effect.player) }) }];
    case "playerLeft":
      return [{ to: "hosts", ...message("PLAYER_LEFT", { playerId: effect.player.id }) }];
    case "playerKicked":
      return [
        { to: "hosts", ...message("PLAYER_LEFT", { playerId: effect.player.id }) },
        {
          to: "player",
          playerId: effect.player.id,
          ...message("ERROR", { message: MESSAGES.KICKED, code: "KICKED", key: "KICKED" }),
          close: { code: CloseCode.KICKED, reason: "Removed by the host" },
        },
      ];
    case "lobbyLocked":
      return [{ to: "everyone", ...message("LOBBY_LOCKED", { locked: effect.locked }) }];
    case "gameStarted":
      return [{ to: "everyone", ...message("GAME_STARTED", { questionCount: effect.questionCount }) }];
    case "questionStarted":
      return [{ to: "everyone", ...message("QUESTION_STARTED", questionView(state, audience.now)), opensQuestion: true }];
    case "questionPaused":
      return [{ to: "everyone", ...message("QUESTION_PAUSED", questionPausedView(state)) }];
    case "questionResumed":
      return [{ to: "everyone", ...message("QUESTION_RESUMED", questionResumedView(state)) }];
    case "answerAccepted":
      return [{ to: "player", playerId: effect.player.id, ...message("ANSWER_ACCEPTED", acceptedPayload(effect.answer)) }];
    case "questionClosed":
      // Closed by End game: the podium follows at once, and a reveal would only flash by.
      if (state.phase === "finished") return [];
      return results(state, audience);
    case "typedAnswerAccepted":
      // Everyone's standing changed: each viewer gets the current screen again with the new scores.
      if (state.phase === "results") return results(state, audience);
      if (state.phase === "leaderboard") return standings("LEADERBOARD_UPDATE", state, leaderboardView(state));
      return standings("GAME_OVER", state, gameOverView(state));
    case "picturesOnPlayersChanged":
      return [{ to: "everyone", ...message("PICTURES_ON_PLAYERS", { enabled: effect.enabled }) }];
    case "leaderboardShown":
      return standings("LEADERBOARD_UPDATE", state, leaderboardView(state));
    case "gameOver":
      return standings("GAME_OVER", state, gameOverView(state));
    case "teamsChanged": {
      // Each player whose team changed hears it; the teams themselves go out with the lobby's
      // updates (at most once a second, however many join), or at once once the game runs.
      const personal: Addressed[] = effect.players.map((player) => ({
        to: "player" as const,
        playerId: player.id,
        ...message("TEAM_CHOSEN", { teamId: player.teamId }),
      }));
      return state.phase === "lobby" ? personal : [{ to: "everyone", ...message("TEAMS_UPDATE", teamsView(state)) }, ...personal];
    }
    case "roundOver":
      return standings("ROUND_OVER", state, roundOverView(state, audience.now));
    case "roundStarted":
      return [];
    case "breakTimerSet":
      return [{ to: "everyone", ...message("BREAK_TIMER", breakTimerView(state, audience.now)) }];
    case "gameReset": {
      const forHost = snapshotView(state, { role: "host" });
      const { playerId: _, ...shared } = forHost;
      return [
        { to: "hosts", ...message("GAME_SNAPSHOT", forHost) },
        { to: "displays", ...message("GAME_SNAPSHOT", snapshotView(state, { role: "display" })) },
        {
          to: "eachPlayer",
          type: "GAME_SNAPSHOT",
          shared: { ...shared, role: "player", players: lobbyView(state).players },
          key: "playerId",
          each: (playerId) => playerId,
        },
      ];
    }
  }
}

/**
 * ANSWER_RESULTS: hosts get every player's result (and the typed answers); each player its own;
 * displays the reveal and the distribution alone.
 */
function results(state: GameState, { hasHosts }: Audience): Addressed[] {
  const header = resultsHeaderView(state);
  const each = (playerId: number) => [playerResultView(state, state.players.get(playerId)!)];
  const forPlayers: Addressed = { to: "eachPlayer", type: "ANSWER_RESULTS", shared: header, key: "playerResults", each };
  const forDisplays: Addressed = { to: "displays", ...message("ANSWER_RESULTS", { ...header, playerResults: [] }) };
  if (!hasHosts) return [forDisplays, forPlayers];
  const playerResults = state.ranking.map((player) => playerResultView(state, player));
  return [{ to: "hosts", ...message("ANSWER_RESULTS", { ...hostResultsHeader(state, header), playerResults }) }, forDisplays, forPlayers];
}

function hostResultsHeader(state: GameState, header: ReturnType<typeof resultsHeaderView>): ReturnType<typeof resultsHeaderView> {
  return kindOf(header.kind).typed ? { ...header, typedAnswers: typedAnswersView(state) } : header;
}

/** The leaderboard or the final standings: the same to hosts and displays, and each player also its own place. */
function standings<T extends "LEADERBOARD_UPDATE" | "GAME_OVER" | "ROUND_OVER">(type: T, state: GameState, shared: ServerPayload<T>): Addressed[] {
  return [
    { to: "screens", ...message(type, shared) },
    { to: "eachPlayer", type, shared, key: "you", each: (playerId) => ownStanding(state, state.players.get(playerId)!) },
  ];
}

/** The lobby's newest names, to players and displays while the game waits in its lobby (hosts hear of every join). */
export function lobbyUpdate(state: GameState): Addressed | null {
  return state.phase === "lobby" ? { to: "viewers", ...message("LOBBY_UPDATE", lobbyView(state)) } : null;
}

/** The teams and their sizes, to everyone, while the game waits in its lobby (coalesced like the lobby's names). */
export function teamsUpdate(state: GameState): Addressed | null {
  return state.phase === "lobby" ? { to: "everyone", ...message("TEAMS_UPDATE", teamsView(state)) } : null;
}

/** The live count of answers while a question is open: with the picks so far for hosts, without for displays. */
export function answerProgress(state: GameState): Addressed[] {
  if (state.phase !== "question") return [];
  return [
    { to: "hosts", ...message("ANSWER_PROGRESS", answerProgressView(state)) },
    { to: "displays", ...message("ANSWER_PROGRESS", displayProgressView(state)) },
  ];
}

/**
 * What a viewer (re)opening the game is sent, in order: a host hears of every player as if it had
 * been there all along; a player of itself; a display gets the snapshot alone (the newest names);
 * then each the current phase as it stands, as its role sees it.
 */
export function joinMessages(state: GameState, viewer: Viewer, now: number): Message[] {
  const opening =
    viewer.role === "host"
      ? [
          message("GAME_SNAPSHOT", snapshotView(state, viewer)),
          ...[...state.players.values()].map((player) => message("PLAYER_JOINED", { player: playerRef(player) })),
        ]
      : viewer.role === "display"
        ? [message("GAME_SNAPSHOT", snapshotView(state, viewer))]
        : [message("PLAYER_JOINED", { player: playerRef(viewer.player) }), message("GAME_SNAPSHOT", snapshotView(state, viewer))];
  return [...opening, ...catchUp(state, viewer, now)];
}

function catchUp(state: GameState, viewer: Viewer, now: number): Message[] {
  const player = viewer.role === "player" ? viewer.player : null;
  switch (state.phase) {
    case "lobby":
      return [];
    case "question": {
      const answer = player && answerToCurrentQuestion(state, player);
      const progress = viewer.role === "host" ? answerProgressView(state) : viewer.role === "display" ? displayProgressView(state) : null;
      return [
        message("QUESTION_STARTED", questionView(state, now)),
        ...(answer ? [message("ANSWER_ACCEPTED", acceptedPayload(answer))] : []),
        ...(progress ? [message("ANSWER_PROGRESS", progress)] : []),
      ];
    }
    case "results": {
      const header = resultsHeaderView(state);
      const question = questionView(state, now).question;
      if (viewer.role === "display") return [message("ANSWER_RESULTS", { ...header, playerResults: [], question })];
      return [
        message("ANSWER_RESULTS", {
          ...(player ? header : hostResultsHeader(state, header)),
          playerResults: (player ? [player] : state.ranking).map((entry) => playerResultView(state, entry)),
          question,
        }),
      ];
    }
    case "leaderboard":
      return [message("LEADERBOARD_UPDATE", { ...leaderboardView(state), ...(player ? { you: ownStanding(state, player) } : {}) })];
    case "break":
      return [message("ROUND_OVER", { ...roundOverView(state, now), ...(player ? { you: ownStanding(state, player) } : {}) })];
    case "finished":
      return [message("GAME_OVER", { ...gameOverView(state), ...(player ? { you: ownStanding(state, player) } : {}) })];
  }
}
