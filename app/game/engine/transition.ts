import { MAX_BREAK_MINUTES, TEAM_NAME_MAX_LENGTH } from "../rules";
import type { ErrorCode as CatalogKey } from "#app/i18n/app-error";
import { OFFENSIVE_NICKNAME } from "#app/schemas/validation";
import type { TeamRefusal } from "./teams";
import type { AnswerRecord, GameState, PlayerState } from "./state";
import { join, disconnect, leave, start, kick, lock, picturesOnPlayers } from "./commands/lobby";
import { answer, acceptTypedAnswer, pause, resume } from "./commands/question";
import { end, next, tick } from "./commands/reveal";
import { breakTimer, playAgain } from "./commands/rounds";
import { teamMode, addTeam, removeTeam, chooseTeam } from "./commands/teams";

/**
 * Who sends a command. A display (a screen that watches the game, docs/decisions/0032) is never the
 * host: every host command from one is refused with NOT_HOST, like a player's.
 */
export type Actor = { role: "host" } | { role: "player"; playerId: number } | { role: "display" } | { role: "guest" };

export type Command =
  /** `team`: in team mode, the team to play for, made if it is new (the join form's choice). */
  | { type: "join"; clientId: string; nickname: string; team?: string }
  | { type: "disconnect"; playerId: number }
  | { type: "leave"; playerId: number }
  | { type: "start"; actor: Actor }
  | {
      type: "answer";
      actor: Actor;
      playerId: number;
      /** One of these, as the question's kind needs: an option, several, a text or a number. */
      answerIndex?: number;
      answerIndexes?: number[];
      text?: string;
      number?: number;
      /**
       * When the question was written to this player's socket, if known. A broadcast to thousands of
       * sockets takes a while; the player it reached last is timed from then, not from its start.
       */
      questionDeliveredAt?: number;
    }
  | { type: "next"; actor: Actor }
  | { type: "playAgain"; actor: Actor }
  | { type: "kick"; actor: Actor; playerId: number }
  | { type: "lock"; actor: Actor; locked: boolean }
  /** Host, after a typed question closed: a typed answer marked wrong counts after all. */
  | { type: "acceptTypedAnswer"; actor: Actor; questionNumber: number; text: string }
  | { type: "picturesOnPlayers"; actor: Actor; enabled: boolean }
  /** Host: stops the open question's clock (the projector cable fell out); answers wait for the resume. */
  | { type: "pause"; actor: Actor }
  | { type: "resume"; actor: Actor }
  /** Host: ends the game at once (the night runs late): the open question closes as a Skip would, then the podium. */
  | { type: "end"; actor: Actor }
  /** Host, in the lobby: players play for teams (or no longer do). */
  | { type: "teamMode"; actor: Actor; enabled: boolean }
  /** Host, in the lobby: a team players can pick ("Table 4"). */
  | { type: "addTeam"; actor: Actor; name: string }
  /** Host, in the lobby: a team goes; its members pick another (or are placed at the start). */
  | { type: "removeTeam"; actor: Actor; teamId: number }
  /** Player: plays for the team of that name, made if new; in the lobby, or later while it has none. */
  | { type: "chooseTeam"; actor: Actor; playerId: number; team: string }
  /** Host, during a night's break: "Back in N minutes" (0 takes the countdown away). */
  | { type: "breakTimer"; actor: Actor; minutes: number }
  | { type: "tick" };

export type Effect =
  | { type: "playerJoined"; player: PlayerState; rejoined: boolean }
  | { type: "playerLeft"; player: PlayerState }
  | { type: "gameStarted"; questionCount: number }
  | { type: "questionStarted" }
  | { type: "answerAccepted"; player: PlayerState; answer: AnswerRecord }
  /** `scoredAnswers`: guesses of a closest-number question, whose points are set only now. */
  | { type: "questionClosed"; changedPlayers: PlayerState[]; scoredAnswers: AnswerRecord[] }
  | { type: "leaderboardShown" }
  /** `endedEarly`: the host pressed End game. */
  | { type: "gameOver"; endedEarly?: boolean }
  | { type: "gameReset" }
  | { type: "playerKicked"; player: PlayerState }
  | { type: "lobbyLocked"; locked: boolean }
  | { type: "typedAnswerAccepted"; questionIndex: number; changedPlayers: PlayerState[]; answers: AnswerRecord[] }
  | { type: "picturesOnPlayersChanged"; enabled: boolean }
  | { type: "questionPaused" }
  | { type: "questionResumed" }
  /** Team mode, the teams or who plays for which changed; `players`: those whose team changed. */
  | { type: "teamsChanged"; players: PlayerState[] }
  /** A night's round ended with more to come: the break. */
  | { type: "roundOver" }
  /** The next round of a night begins (its first question follows). */
  | { type: "roundStarted" }
  | { type: "breakTimerSet" };

export type ErrorCode =
  | "NICKNAME_TAKEN"
  | "NICKNAME_RESERVED"
  | "GAME_OVER"
  | "NOT_HOST"
  | "NO_PLAYERS"
  | "ALREADY_STARTED"
  | "NO_QUESTIONS"
  | "NOT_YOUR_PLAYER"
  | "UNKNOWN_PLAYER"
  | "HOST_CANNOT_ANSWER"
  | "QUESTION_CLOSED"
  | "ALREADY_ANSWERED"
  | "BAD_ANSWER"
  | "NOTHING_TO_ADVANCE"
  | "NOT_OVER"
  | "KICKED"
  | "LOBBY_LOCKED"
  | "GAME_FULL"
  | "NICKNAME_NOT_ALLOWED"
  | "NOTHING_TO_ACCEPT"
  | "PAUSED"
  | "NOTHING_TO_PAUSE"
  | "TOO_MANY_PAUSES"
  | "NOT_PAUSED"
  | "NOT_STARTED"
  | TeamRefusal
  | "NO_TEAM_MODE"
  | "TEAMS_FIXED"
  | "UNKNOWN_TEAM"
  | "NOT_IN_BREAK"
  | "BAD_BREAK"
  | "NIGHT_OVER";

/**
 * A refused command: `code` its family, as the protocol's ERROR has always named it (NOT_HOST for
 * every host-only refusal); `key` the exact `errors` catalog key of its text, which a client says
 * in its language; `message` that text in English (docs/decisions/0047-errors-as-codes.md).
 */
export interface Rejection {
  error: { code: ErrorCode; key: CatalogKey; message: string };
}

export interface Accepted {
  effects: Effect[];
}

export type TransitionResult = Accepted | Rejection;

export const MESSAGES = {
  NICKNAME_TAKEN: "Nickname already taken",
  NICKNAME_RESERVED: "Only the host of this game can join as host.",
  GAME_OVER: "This game has already ended.",
  NOT_HOST: "Only the host can start the game.",
  NOT_HOST_NEXT: "Only the host can move to the next question.",
  NO_PLAYERS: "Wait for players to join before starting the game.",
  ALREADY_STARTED: "The game has already started.",
  NOT_YOUR_PLAYER: "You can only answer for your own player.",
  UNKNOWN_PLAYER: "Player ID is missing!",
  HOST_CANNOT_ANSWER: "The host cannot answer questions.",
  QUESTION_CLOSED: "This question is closed.",
  ALREADY_ANSWERED: "Answer already submitted",
  BAD_ANSWER: "Pick one of the four answers.",
  NOT_HOST_ACCEPT: "Only the host can accept an answer.",
  NOTHING_TO_ACCEPT: "There is no typed answer like that to accept on this question.",
  NOT_HOST_PICTURES: "Only the host can choose where pictures are shown.",
  NOTHING_TO_ADVANCE: "There is no question to move on from.",
  NOT_HOST_PLAY_AGAIN: "Only the host can start another round.",
  NOT_OVER: "Play Again is available once the game is over.",
  KICKED: "You were removed from this game by the host.",
  LOBBY_LOCKED: "The host has locked this game, so no new players can join.",
  GAME_FULL: "This game is full. Ask the host to open another one.",
  NOT_HOST_KICK: "Only the host can remove players.",
  NOT_HOST_LOCK: "Only the host can lock or unlock the game.",
  PLAYER_GONE: "That player is no longer in the game.",
  NOT_HOST_PAUSE: "Only the host can pause or resume the question.",
  PAUSED: "The host has paused the question. Answer when it resumes.",
  NOTHING_TO_PAUSE: "There is no running question to pause.",
  TOO_MANY_PAUSES: "This question has been paused too often. Let it run.",
  NOT_PAUSED: "The question is not paused.",
  NOT_HOST_END: "Only the host can end the game.",
  NOT_STARTED: "The game has not started yet.",
  TEAM_NAME: `Give the team a name of 1 to ${TEAM_NAME_MAX_LENGTH} characters.`,
  TEAM_NAME_NOT_ALLOWED: "Please choose a different team name.",
  TOO_MANY_TEAMS: "This game has as many teams as it can take. Join one of them.",
  NOT_HOST_TEAMS: "Only the host can set up the teams.",
  NO_TEAM_MODE: "This game is not played in teams.",
  TEAMS_FIXED: "Teams are fixed once the game has started.",
  UNKNOWN_TEAM: "That team is no longer in the game.",
  NOT_HOST_BREAK: "Only the host can set the break's countdown.",
  NOT_IN_BREAK: "There is no break between rounds right now.",
  BAD_BREAK: `Choose a break of 0 to ${MAX_BREAK_MINUTES} minutes.`,
  NIGHT_OVER: "A night ends with its last round. Plan a new night to play again.",
  NICKNAME_NOT_ALLOWED: OFFENSIVE_NICKNAME,
  BAD_ANSWER_TWO: "Pick one of the two answers.",
  BAD_ANSWER_THREE: "Pick one of the three answers.",
  BAD_ANSWER_FIVE: "Pick one of the five answers.",
  BAD_ANSWER_SIX: "Pick one of the six answers.",
} as const;

/** The name of one of the engine's texts: its `errors` catalog key. */
export type EngineMessage = keyof typeof MESSAGES;

/** "Pick one of the four answers." for a question of `count` options (2 to 6): each a text of its own in the errors catalog. */
const BAD_ANSWER_BY_COUNT: Record<number, EngineMessage> = {
  2: "BAD_ANSWER_TWO",
  3: "BAD_ANSWER_THREE",
  4: "BAD_ANSWER",
  5: "BAD_ANSWER_FIVE",
  6: "BAD_ANSWER_SIX",
};

export function badAnswerKey(count: number): EngineMessage {
  return BAD_ANSWER_BY_COUNT[count] ?? "BAD_ANSWER";
}

export function badAnswerMessage(count: number): string {
  return MESSAGES[badAnswerKey(count)];
}

/**
 * A refusal raised by its code, and by the text it says when the code is a family
 * (`reject("NOT_HOST", "NOT_HOST_KICK")`); a code that is a text of its own says that.
 */
export function reject<Code extends ErrorCode>(code: Code, ...text: Code extends EngineMessage ? [EngineMessage?] : [EngineMessage]): Rejection {
  const message: EngineMessage = text[0] ?? (code as EngineMessage);
  const key: CatalogKey = message;
  return { error: { code, key, message: MESSAGES[message] } };
}

/**
 * An answer a question's kind refuses for a reason of its own (its `refusals`: catalog key and
 * English, app/game/kinds/definition.ts): the wire's family stays BAD_ANSWER.
 */
export function kindRefusal(key: CatalogKey, message: string): Rejection {
  return { error: { code: "BAD_ANSWER", key, message } };
}

export function isRejection(result: TransitionResult): result is Rejection {
  return "error" in result;
}

/**
 * Applies one command at time `now`. Deterministic and free of I/O: the caller owns clocks,
 * sockets and storage. A rejected command changes nothing.
 */
export function transition(state: GameState, command: Command, now: number): TransitionResult {
  switch (command.type) {
    case "join":
      return join(state, command.clientId, command.nickname, now, command.team);
    case "disconnect":
      return disconnect(state, command.playerId, now);
    case "leave":
      return leave(state, command.playerId);
    case "start":
      return start(state, command.actor, now);
    case "answer":
      return answer(state, command, now);
    case "next":
      return next(state, command.actor, now);
    case "playAgain":
      return playAgain(state, command.actor);
    case "kick":
      return kick(state, command.actor, command.playerId, now);
    case "lock":
      return lock(state, command.actor, command.locked);
    case "acceptTypedAnswer":
      return acceptTypedAnswer(state, command);
    case "picturesOnPlayers":
      return picturesOnPlayers(state, command.actor, command.enabled);
    case "pause":
      return pause(state, command.actor, now);
    case "resume":
      return resume(state, command.actor, now);
    case "end":
      return end(state, command.actor, now);
    case "teamMode":
      return teamMode(state, command.actor, command.enabled);
    case "addTeam":
      return addTeam(state, command.actor, command.name);
    case "removeTeam":
      return removeTeam(state, command.actor, command.teamId);
    case "chooseTeam":
      return chooseTeam(state, command);
    case "breakTimer":
      return breakTimer(state, command.actor, command.minutes, now);
    case "tick":
      return tick(state, now);
  }
}
