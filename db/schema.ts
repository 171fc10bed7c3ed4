import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

/** The database as kysely sees it; one interface per table, columns in snake_case as stored. */
export interface Database {
  users: UsersTable;
  quizzes: QuizzesTable;
  questions: QuestionsTable;
  games: GamesTable;
  players: PlayersTable;
  answers: AnswersTable;
  sessions: SessionsTable;
  ai_generations: AiGenerationsTable;
  plans: PlansTable;
  stripe_events: StripeEventsTable;
  subscriptions: SubscriptionsTable;
  game_kicks: GameKicksTable;
  game_questions: GameQuestionsTable;
  game_rounds: GameRoundsTable;
  images: ImagesTable;
  image_uploads: ImageUploadsTable;
}

/** A picture, by the SHA-256 of its large WebP rendition (docs/decisions/0019-pictures.md). */
export interface ImagesTable {
  id: string;
  /** WebP, at most 1600 px on its longer side: for the host's screen. */
  large: Buffer;
  /** WebP, at most 480 px: for players' phones, when the host shows pictures there. */
  small: Buffer;
  width: number;
  height: number;
  created_at: number;
}

/** An owner's upload of a picture: counts against that owner's storage. */
export interface ImageUploadsTable {
  id: Generated<number>;
  image_id: string;
  user_id: number | null;
  client_id: string | null;
  bytes: number;
  created_at: number;
}

/** The questions a game plays, in order, fixed when the game is opened. */
export interface GameQuestionsTable {
  game_id: number;
  position: number;
  question_id: number;
  /** The round of a night the question belongs to; 0 for a single game. */
  round: Generated<number>;
}

/** The quizzes a night chains, in order (docs/decisions/0034-a-night-of-rounds.md); none for a single game. */
export interface GameRoundsTable {
  game_id: number;
  position: number;
  quiz_id: number;
  title: string;
  /** Seconds per question, as the quiz had it when the night was planned. */
  time_limit: number;
}

export interface GameKicksTable {
  game_id: number;
  client_id: string;
  kicked_at: number;
}

/** SQLite stores booleans as 0/1. */
type SqlBoolean = ColumnType<number, 0 | 1, 0 | 1>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string | null;
  display_name: string | null;
  subscription_tier: Generated<string>;
  created_at: number;
  /** argon2id; null for Google-only accounts and guests. */
  password_hash: string | null;
  firebase_uid: string | null;
  is_guest: Generated<number>;
  stripe_customer_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Stripe's status of the best live subscription (active, past_due, canceled, ...). */
  subscription_status: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the tier's cancelled or unpaid subscription ends (ms): the tier is recomputed from `subscriptions` then. */
  subscription_ends_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The system account that owns the demo quizzes; nobody can sign in as it. */
  is_system: Generated<number>;
  /** The interface language the user chose (en, de, es, fr); null: the browser's. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PlansTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  /** Per month, in the currency's smallest unit. */
  price_cents: number;
  currency: Generated<string>;
  ai_quiz_limit: number;
  /** JSON array of strings. */
  features: Generated<string>;
  sort_order: Generated<number>;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: number;
}

/** A Stripe subscription of a user, as its webhooks last told us (decision 0043). */
export interface SubscriptionsTable {
  id: string;
  user_id: number;
  customer_id: string | null;
  /** The tier it sells; null for a price no plan is set up for. */
  tier: string | null;
  status: string;
  /** When its paid tier ends (ms), for one cancelled, unpaid or deleted; null while it renews. */
  ends_at: number | null;
  /** `created` (s) of the last event applied to it, so an older one arriving late is ignored. */
  event_at: number;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface AiGenerationsTable {
  id: Generated<number>;
  user_id: number;
  quiz_id: number | null;
  created_at: number;
}

export interface QuizzesTable {
  id: Generated<number>;
  title: string;
  description: Generated<string>;
  /** Seconds per question. */
  time_limit: number;
  is_public: SqlBoolean;
  creator_id: number | null;
  /** The persisted client id of the browser that created it, before accounts exist. */
  owner_client_id: string | null;
  created_at: number;
  /** Deleted while a game of it was unfinished: hidden now, removed once its games are over. */
  deleted_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface QuestionsTable {
  id: Generated<number>;
  quiz_id: number;
  text: string;
  /** JSON array of the options (2-6); empty for typed and number questions. */
  answers: string;
  /** choice and trueFalse: the right option; -1 for the other kinds. */
  correct_answer_index: number;
  order: number;
  kind: Generated<string>;
  /** JSON array: the right options of a multi-select question. */
  correct_indexes: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON array: the accepted answers of a type-the-answer question. */
  accepted_answers: ColumnType<string | null, string | null | undefined, string | null>;
  correct_number: ColumnType<number | null, number | null | undefined, number | null>;
  /** Seconds; null takes the quiz's. */
  time_limit: ColumnType<number | null, number | null | undefined, number | null>;
  points: Generated<string>;
  image_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Replaced or removed by an edit while a game lists it: kept for that game, gone from the quiz. */
  retired_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export type GameStatus = "waiting" | "active" | "finished";

export interface GamesTable {
  id: Generated<number>;
  quiz_id: number;
  host_id: number | null;
  game_code: string;
  status: ColumnType<GameStatus, GameStatus | undefined, GameStatus>;
  host_client_id: string | null;
  /** The browser that created the game: the only one that may register as its host. */
  creator_client_id: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * A game made signed out: SHA-256 of the secret cookie of the browser that made it (and holds its
   * host seat); cleared when someone signs in or out on that browser. Null for a game made signed
   * in, which belongs to its account (docs/decisions/0044-shared-browsers.md).
   */
  host_secret_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Seconds per question, as the quiz had it when the game was opened. */
  time_limit: ColumnType<number | null, number | null | undefined, number | null>;
  phase: Generated<string>;
  question_index: Generated<number>;
  question_started_at: number | null;
  /** The open question's pauses as JSON `[[from, to], ...]`; `to` is null while the host keeps it paused. */
  question_pauses: Generated<string>;
  round: Generated<number>;
  /** Closed to new players by the host. */
  locked: Generated<number>;
  /** The host shows questions' pictures on players' devices too. */
  pictures_on_players: Generated<number>;
  /** Lets a screen watch the game (`/display/CODE?key=`); null for a game older than the keys until first asked for. */
  display_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** Lets a phone run the game as its host (`/remote/CODE?key=`); null as display_key. */
  remote_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON (StoredEvening in app/game/engine/restore.ts): team mode, teams and their scores, a night's finished rounds, the break's countdown. */
  evening: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
}

export interface PlayersTable {
  game_id: number;
  /** Numbered per game by the engine. */
  id: number;
  nickname: string;
  client_id: string;
  score: Generated<number>;
  streak: Generated<number>;
  correct_count: Generated<number>;
  joined_at: number;
  /** In team mode: the team (an id within the game's `evening` teams). */
  team_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** What the player added to its team's score (docs/decisions/0033-team-scoring.md). */
  team_points: Generated<number>;
}

export interface AnswersTable {
  game_id: number;
  player_id: number;
  round: number;
  question_id: number;
  question_index: number;
  /** The option picked (choice, trueFalse, poll); -1 for the other kinds. */
  answer_index: number;
  /** JSON: the picks of a multi-select answer, the text typed, or the number guessed. */
  answer_value: ColumnType<string | null, string | null | undefined, string | null>;
  response_ms: number;
  correct: SqlBoolean;
  points: number;
  answered_at: number;
}

export type UserRow = Selectable<UsersTable>;
export type PlanRow = Selectable<PlansTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type QuizRow = Selectable<QuizzesTable>;
export type QuestionRow = Selectable<QuestionsTable>;
export type GameRow = Selectable<GamesTable>;
export type NewAnswerRow = Insertable<AnswersTable>;
