/** Game constants (docs/product.md#constants). */
export const GAME_CODE_LENGTH = 6;
/** A-Z and 2-9 without the look-alikes 0/O and 1/I, so a code read aloud in a noisy pub is typed right. */
export const GAME_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const NICKNAME_MAX_LENGTH = 15;
export const HOST_NAME_MIN_LENGTH = 2;
export const HOST_NAME_MAX_LENGTH = 15;
/** Reserved nickname the host sends in JOIN_GAME (docs/product.md#client-messages). */
export const HOST_NICKNAME = "__HOST__";
export const DEFAULT_TIME_LIMIT_SECONDS = 20;
export const MIN_TIME_LIMIT_SECONDS = 5;
export const MAX_TIME_LIMIT_SECONDS = 120;
export const CREATE_TIME_LIMIT_OPTIONS = [10, 20, 30, 60, 90] as const;
/** Seconds between a leaderboard and the next question (docs/product.md#game-flow). */
export const DEFAULT_NEXT_QUESTION_SECONDS = 5;
/** How long the per-question results stay up before the leaderboard. */
export const DEFAULT_RESULTS_DELAY_MS = 3000;
/** How long a dropped lobby player is kept before PLAYER_LEFT, so a refresh does not churn the roster. */
export const DEFAULT_LOBBY_GRACE_MS = 60_000;
export const LEADERBOARD_SIZE = 10;
/** How many recent names a lobby update carries to players (the host gets every join). */
export const LOBBY_RECENT_NAMES = 50;
export const LOBBY_UPDATE_INTERVAL_MS = 1000;
export const ANSWER_PROGRESS_INTERVAL_MS = 100;
/** Players one game holds unless MAX_PLAYERS_PER_GAME says otherwise. */
export const DEFAULT_MAX_PLAYERS = 10_000;
/** A host may pause one question this many times: every pause rewrites the question's list of pauses (issue 17). */
export const MAX_PAUSES_PER_QUESTION = 20;
/** Teams one game may have (issue 17): every team's standing goes to every screen, so they stay few. */
export const MAX_TEAMS = 50;
export const TEAM_NAME_MAX_LENGTH = 24;
/** Quizzes one night may chain (issue 17). */
export const MAX_ROUNDS = 10;
/** The longest break countdown a host may set between two rounds, in minutes. */
export const MAX_BREAK_MINUTES = 60;
