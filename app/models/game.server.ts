import { randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import { inTransaction, type DB } from "#db/connection.server";
import type { GameRow, GameStatus, NewAnswerRow } from "#db/schema";
import { GAME_CODE_ALPHABET, GAME_CODE_LENGTH } from "#app/game/rules";
import type { AnswerRecord, AnswerValue, Phase } from "#app/game/engine/state";
import type { StoredEvening, StoredPause, StoredPlayer } from "#app/game/engine/restore";
import type { RoundPlan } from "#app/game/engine/state";
import { hashHostSecret } from "#app/utils/host-secret.server";
import { findHostableQuiz, toQuestion, type Question, type QuizAccess, type Requester } from "./quiz.server";

export interface GameSummary {
  id: number;
  gameCode: string;
  status: GameStatus;
}

export function generateGameCode(): string {
  let code = "";
  for (let i = 0; i < GAME_CODE_LENGTH; i++) code += GAME_CODE_ALPHABET[randomInt(GAME_CODE_ALPHABET.length)];
  return code;
}

export interface NewGame {
  quizId: number;
  /** The signed-in user who opened it, if any. */
  hostId: number | null;
  /** The browser that opened it: the only one that may take its host seat. */
  creatorClientId: string | null;
  /** Set when the creating browser is the host from the start (the forms); otherwise register-host sets it. */
  hostClientId?: string | null;
  /** A game made signed out: the creating browser's host secret, whose hash binds the game to it (docs/decisions/0044). */
  hostSecret?: string | null;
}

/**
 * Creates a waiting game with a fresh code, drawing again on the rare clash with a live game. The
 * game keeps the quiz's questions and time limit as they are now (docs/decisions/0014).
 */
export async function createGame(db: DB, input: NewGame, now = Date.now()): Promise<GameSummary> {
  return inTransaction(db, async (trx) => {
    const quiz = await trx.selectFrom("quizzes").select("time_limit").where("id", "=", input.quizId).executeTakeFirstOrThrow();
    const values = {
      quiz_id: input.quizId,
      host_id: input.hostId,
      creator_client_id: input.creatorClientId,
      host_client_id: input.hostClientId ?? null,
      host_secret_hash: input.hostId === null && input.hostSecret ? hashHostSecret(input.hostSecret) : null,
      time_limit: quiz.time_limit,
      display_key: newGameKey(),
      remote_key: newGameKey(),
      created_at: now,
    };
    // Inside the transaction nothing else writes between the look and the insert.
    let gameCode = generateGameCode();
    for (let attempt = 0; await findLiveGame(trx, gameCode); attempt++) {
      if (attempt >= 20) throw new Error("Could not draw a free game code.");
      gameCode = generateGameCode();
    }
    const row = await trx
      .insertInto("games")
      .values({ ...values, game_code: gameCode })
      .returning(["id", "game_code", "status"])
      .executeTakeFirstOrThrow();
    await sql`
      insert into game_questions (game_id, position, question_id)
      select ${row.id}, row_number() over (order by "order", id) - 1, id
      from questions where quiz_id = ${input.quizId} and retired_at is null`.execute(trx);
    return { id: row.id, gameCode: row.game_code, status: row.status };
  });
}

/**
 * A capability key of a game (docs/decisions/0032-display-and-remote.md): 18 random bytes (144 bits),
 * base64url so it travels in a URL and a QR code as it is.
 */
export function newGameKey(): string {
  return randomBytes(18).toString("base64url");
}

export interface GameKeys {
  displayKey: string;
  remoteKey: string;
}

/**
 * The game's display and remote keys, drawn now for a game created before they existed. Two callers
 * at once draw twice, but only the first write lands (`where ... is null`) and both read it back.
 */
export async function ensureGameKeys(db: DB, gameId: number): Promise<GameKeys | null> {
  const read = () => db.selectFrom("games").select(["display_key", "remote_key"]).where("id", "=", gameId).executeTakeFirst();
  let row = await read();
  if (!row) return null;
  if (row.display_key === null || row.remote_key === null) {
    await db.updateTable("games").set({ display_key: newGameKey() }).where("id", "=", gameId).where("display_key", "is", null).execute();
    await db.updateTable("games").set({ remote_key: newGameKey() }).where("id", "=", gameId).where("remote_key", "is", null).execute();
    row = await read();
    if (!row) return null;
  }
  return { displayKey: row.display_key!, remoteKey: row.remote_key! };
}

export type RenewGameKeysResult = { status: "ok"; value: GameKeys & { gameId: number } } | { status: "not-found" } | { status: "not-host" };

/**
 * "New links": the live game's display and remote keys drawn again, for its host's browser only,
 * so a link that leaked (a photographed QR code) stops working. The caller tells the game's room,
 * which closes the displays and remotes that came in with the old keys (docs/decisions/0032).
 */
export async function renewGameKeys(db: DB, gameCode: string, requester: Requester): Promise<RenewGameKeysResult> {
  return inTransaction(db, async (trx) => {
    const game = await findLiveGame(trx, gameCode);
    if (!game) return { status: "not-found" };
    if (!isGameHost(game, requester)) return { status: "not-host" };
    const keys = { displayKey: newGameKey(), remoteKey: newGameKey() };
    await trx.updateTable("games").set({ display_key: keys.displayKey, remote_key: keys.remoteKey }).where("id", "=", game.id).execute();
    return { status: "ok", value: { gameId: game.id, ...keys } };
  });
}

/**
 * Whether `given` is the game's key, compared in constant time so the time a refusal takes says
 * nothing about how much of a guess was right. A missing key on either side never matches.
 */
export function gameKeyMatches(expected: string | null | undefined, given: string | null | undefined): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  // Lengths differ only for a wrong key; comparing the expected key with itself keeps the time the same.
  return timingSafeEqual(a, a.length === b.length ? b : a) && a.length === b.length;
}

/** What decides who is a game's host: its host browser, its account, its browser's secret. */
export type GameHostFields = Pick<GameRow, "host_client_id" | "host_id" | "host_secret_hash">;

/**
 * Whether the requester is the game's host (docs/decisions/0044-shared-browsers.md): the browser at
 * its host seat (client id), and besides that, for a game made signed in, that account signed in
 * there now; for a game made signed out, the secret the server set in that browser when the game
 * was made, which signing in or out there clears. The client id alone is never enough.
 */
export function isGameHost(game: GameHostFields, requester: Requester): boolean {
  if (!requester.clientId || game.host_client_id !== requester.clientId) return false;
  if (game.host_id !== null) return requester.userId === game.host_id;
  return game.host_secret_hash !== null && !!requester.hostSecret && hashesEqual(game.host_secret_hash, hashHostSecret(requester.hostSecret));
}

/** Whether the requester made the game: its account, or the browser whose secret it keeps (for register-host). */
function madeGame(game: GameHostFields & Pick<GameRow, "creator_client_id">, requester: Requester & { clientId: string }): boolean {
  if (game.host_id !== null) return requester.userId === game.host_id;
  return (
    game.creator_client_id !== null &&
    requester.clientId === game.creator_client_id &&
    game.host_secret_hash !== null &&
    !!requester.hostSecret &&
    hashesEqual(game.host_secret_hash, hashHostSecret(requester.hostSecret))
  );
}

function hashesEqual(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export async function findLiveGame(db: DB, gameCode: string): Promise<GameRow | undefined> {
  return db.selectFrom("games").selectAll().where("game_code", "=", gameCode).where("status", "!=", "finished").executeTakeFirst();
}

/** The live game with this code, else the most recent finished one (results stay reachable). */
export async function findGameByCode(db: DB, gameCode: string): Promise<GameRow | undefined> {
  return db
    .selectFrom("games")
    .selectAll()
    .where("game_code", "=", gameCode)
    .orderBy((eb) => eb.case().when("status", "!=", "finished").then(0).else(1).end())
    .orderBy("id", "desc")
    .executeTakeFirst();
}

/** A new game of a quiz the requester may host (public or its own), with its browser registered as host. */
export async function hostNewGame(db: DB, quizId: number, requester: Requester & { clientId: string }): Promise<QuizAccess<GameSummary>> {
  return inTransaction(db, async (trx) => {
    const access = await findHostableQuiz(trx, quizId, requester);
    if (access.status !== "ok") return access;
    const game = await createGame(trx, {
      quizId,
      hostId: requester.userId ?? null,
      creatorClientId: requester.clientId,
      hostClientId: requester.clientId,
      hostSecret: requester.hostSecret,
    });
    return { status: "ok", value: game };
  });
}

export interface NightPlan {
  /** The night's own title ("Friday quiz night"). */
  title: string;
  /** The quizzes in the order they are played; a round's title defaults to its quiz's. */
  rounds: { quizId: number; title?: string }[];
}

export type NightResult =
  | { status: "ok"; value: GameSummary }
  /** `round`: the 0-based round whose quiz is missing, not the requester's to host, or has no questions. */
  | { status: "not-found" | "forbidden" | "empty"; round: number };

/**
 * A night (docs/decisions/0034-a-night-of-rounds.md): one game whose rounds are several quizzes the
 * requester may host, each round's questions and time limit frozen now as a game's are, with the
 * requester's browser as its host.
 */
export async function hostNewNight(db: DB, plan: NightPlan, requester: Requester & { clientId: string }, now = Date.now()): Promise<NightResult> {
  return inTransaction(db, async (trx) => {
    const quizzes = [];
    for (const [round, entry] of plan.rounds.entries()) {
      const access = await findHostableQuiz(trx, entry.quizId, requester);
      if (access.status !== "ok") return { status: access.status, round };
      const questions = await trx
        .selectFrom("questions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("quiz_id", "=", entry.quizId)
        .where("retired_at", "is", null)
        .executeTakeFirstOrThrow();
      if (Number(questions.n) === 0) return { status: "empty", round };
      quizzes.push({ quiz: access.value, title: entry.title?.trim() || access.value.title });
    }
    const game = await createGame(
      trx,
      {
        quizId: plan.rounds[0].quizId,
        hostId: requester.userId ?? null,
        creatorClientId: requester.clientId,
        hostClientId: requester.clientId,
        hostSecret: requester.hostSecret,
      },
      now,
    );
    await trx
      .insertInto("game_rounds")
      .values(quizzes.map(({ quiz, title }, position) => ({ game_id: game.id, position, quiz_id: quiz.id, title, time_limit: quiz.timeLimit })))
      .execute();
    // createGame listed the first quiz's questions as round 0; the later rounds follow in position.
    for (const [position, { quiz }] of quizzes.entries()) {
      if (position === 0) continue;
      const listed = await trx
        .selectFrom("game_questions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("game_id", "=", game.id)
        .executeTakeFirstOrThrow();
      await sql`
        insert into game_questions (game_id, position, question_id, round)
        select ${game.id}, ${Number(listed.n)} + row_number() over (order by "order", id) - 1, id, ${position}
        from questions where quiz_id = ${quiz.id} and retired_at is null`.execute(trx);
    }
    const evening: StoredEvening = { title: plan.title.trim(), teamMode: false, teams: [], roundResults: [], breakEndsAt: null };
    await trx
      .updateTable("games")
      .set({ evening: JSON.stringify(evening) })
      .where("id", "=", game.id)
      .execute();
    return { status: "ok", value: game };
  });
}

export type RegisterHostResult = "registered" | "not-found" | "taken" | "not-creator";

/**
 * Binds a browser's client id as the game's host. Only the game's creator may: the account that
 * created it, signed in; for a game created signed out, the browser that created it, by its client
 * id and the host secret the server set there (docs/decisions/0044-shared-browsers.md). The first
 * registration keeps the seat; the host registering again is told it is registered.
 */
export async function registerHost(db: DB, gameCode: string, clientId: string, requester: Requester): Promise<RegisterHostResult> {
  return inTransaction(db, async (trx) => {
    const game = await trx
      .selectFrom("games")
      .select(["id", "host_client_id", "creator_client_id", "host_id", "host_secret_hash"])
      .where("game_code", "=", gameCode)
      .where("status", "!=", "finished")
      .executeTakeFirst();
    if (!game) return "not-found";
    if (game.host_client_id !== null) return isGameHost(game, { ...requester, clientId }) ? "registered" : "taken";
    // The browser being registered is the one asking, or one the creator names (a script's).
    const creator = requester.clientId ?? clientId;
    if (!madeGame(game, { ...requester, clientId: creator }) && !madeGame(game, { ...requester, clientId })) return "not-creator";
    await trx.updateTable("games").set({ host_client_id: clientId }).where("id", "=", game.id).execute();
    return "registered";
  });
}

export interface GameSession {
  id: number;
  quizId: number;
  title: string;
  description: string;
  gameCode: string;
  status: GameStatus;
  timeLimit: number;
}

/** Public games that can still be joined or watched, newest first. */
export async function listGameSessions(db: DB): Promise<GameSession[]> {
  const rows = await db
    .selectFrom("games")
    .innerJoin("quizzes", "quizzes.id", "games.quiz_id")
    .select(["games.id", "games.quiz_id", "quizzes.title", "quizzes.description", "games.game_code", "games.status", "quizzes.time_limit"])
    .where("quizzes.is_public", "=", 1)
    .where("quizzes.deleted_at", "is", null)
    .where("games.status", "in", ["waiting", "active"])
    .orderBy("games.created_at", "desc")
    .orderBy("games.id", "desc")
    .limit(100)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    quizId: row.quiz_id,
    title: row.title,
    description: row.description,
    gameCode: row.game_code,
    status: row.status,
    timeLimit: row.time_limit,
  }));
}

/** The codes of the live games this browser is the host of (the Join page's Start Game goes to their lobbies). */
export async function liveGamesHostedBy(db: DB, requester: Requester & { clientId: string }): Promise<Set<string>> {
  const rows = await db
    .selectFrom("games")
    .select(["game_code", "host_client_id", "host_id", "host_secret_hash"])
    .where("host_client_id", "=", requester.clientId)
    .where("status", "!=", "finished")
    .execute();
  return new Set(rows.filter((row) => isGameHost(row, requester)).map((row) => row.game_code));
}

export interface Standing {
  rank: number;
  id: number;
  nickname: string;
  score: number;
  correctCount: number;
  answeredCount: number;
  /** A team game only: the player's team (null for one without). */
  team?: string | null;
}

export interface GameResults {
  gameCode: string;
  status: GameStatus;
  title: string;
  totalQuestions: number;
  /** Played in teams: each standing names its player's team. */
  teamMode: boolean;
  players: Standing[];
}

export async function getGameResults(db: DB, game: GameRow): Promise<GameResults> {
  const [quiz, questionCount, rounds] = await Promise.all([
    db.selectFrom("quizzes").select("title").where("id", "=", game.quiz_id).executeTakeFirstOrThrow(),
    db
      .selectFrom("game_questions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("game_id", "=", game.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("game_rounds")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("game_id", "=", game.id)
      .executeTakeFirstOrThrow(),
  ]);
  // A night's score is the evening's, so its answers are all its rounds'; a single game's are Play Again's current round's.
  const night = Number(rounds.n) > 1;
  const players = await db
    .selectFrom("players")
    .select(["id", "nickname", "score", "correct_count", "team_id"])
    .select((eb) =>
      eb
        .selectFrom("answers")
        .whereRef("answers.game_id", "=", "players.game_id")
        .whereRef("answers.player_id", "=", "players.id")
        .$if(!night, (query) => query.where("answers.round", "=", game.round))
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .as("answered_count"),
    )
    .where("game_id", "=", game.id)
    .orderBy("score", "desc")
    .orderBy("nickname")
    .orderBy("id")
    .execute();
  const evening = readEvening(game.evening);
  const teamNames = evening?.teamMode && evening.teams.length > 0 ? new Map(evening.teams.map((team) => [team.id, team.name])) : null;
  let previous: Standing | undefined;
  const standings = players.map((player, index) => {
    const rank = previous && previous.score === player.score ? previous.rank : index + 1;
    previous = {
      rank,
      id: player.id,
      nickname: player.nickname,
      score: player.score,
      correctCount: player.correct_count,
      answeredCount: Number(player.answered_count ?? 0),
      ...(teamNames ? { team: (player.team_id !== null ? teamNames.get(player.team_id) : undefined) ?? null } : {}),
    };
    return previous;
  });
  return {
    gameCode: game.game_code,
    status: game.status,
    title: night && evening?.title ? evening.title : quiz.title,
    totalQuestions: Number(questionCount.n),
    teamMode: teamNames !== null,
    players: standings,
  };
}

// ------------------------------------------------------------- what a running game persists

export interface LoadedGame {
  game: GameRow;
  /** The quiz's title; a night's own title. */
  title: string;
  timeLimit: number;
  /** The questions of the first round (of the game, for a single game). */
  questions: Question[];
  /** A night: the first round's title and the rounds after it (docs/decisions/0034-a-night-of-rounds.md). */
  firstRoundTitle?: string;
  laterRounds: RoundPlan[];
  /** Team mode, teams, a night's finished rounds; null for a game that has none of them yet. */
  evening: StoredEvening | null;
  players: StoredPlayer[];
  answers: AnswerRecord[];
  /** Browsers the host removed from this game. */
  kickedClientIds: string[];
  /** The open question's pauses, the last one still on if the host had it paused. */
  questionPauses: StoredPause[];
}

/** The stored pauses of the open question; anything unreadable counts as none. */
export function readQuestionPauses(stored: string): StoredPause[] {
  try {
    const value: unknown = JSON.parse(stored);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (pause): pause is StoredPause =>
        Array.isArray(pause) && pause.length === 2 && Number.isFinite(pause[0]) && (pause[1] === null || Number.isFinite(pause[1])),
    );
  } catch {
    return [];
  }
}

/** The stored evening of a game; anything unreadable counts as none. */
export function readEvening(stored: string | null): StoredEvening | null {
  if (!stored) return null;
  try {
    const value = JSON.parse(stored) as StoredEvening;
    if (typeof value !== "object" || value === null || !Array.isArray(value.teams) || !Array.isArray(value.roundResults)) return null;
    return value;
  } catch {
    return null;
  }
}

export interface NightRound {
  position: number;
  quizId: number;
  title: string;
  timeLimit: number;
}

/** A night's rounds, in order; empty for a single game. */
export async function getGameRounds(db: DB, gameId: number): Promise<NightRound[]> {
  const rows = await db.selectFrom("game_rounds").selectAll().where("game_id", "=", gameId).orderBy("position").execute();
  return rows.map((row) => ({ position: row.position, quizId: row.quiz_id, title: row.title, timeLimit: row.time_limit }));
}

/** Everything needed to run (or resume, after a restart) a live game. */
export async function loadGameForPlay(db: DB, gameCode: string): Promise<LoadedGame | undefined> {
  const found = await findLiveGame(db, gameCode);
  if (!found) return undefined;
  // A game created before the display and remote keys gets them as its room opens.
  const keys = await ensureGameKeys(db, found.id);
  const game = keys ? { ...found, display_key: keys.displayKey, remote_key: keys.remoteKey } : found;
  const [quiz, questions, rounds, players, answers, kicks] = await Promise.all([
    db.selectFrom("quizzes").select(["title", "time_limit"]).where("id", "=", game.quiz_id).executeTakeFirstOrThrow(),
    getGameQuestionsByRound(db, game.id),
    getGameRounds(db, game.id),
    db
      .selectFrom("players")
      .select(["id", "nickname", "client_id", "joined_at", "team_id", "team_points"])
      .where("game_id", "=", game.id)
      .orderBy("joined_at")
      .orderBy("id")
      .execute(),
    db.selectFrom("answers").selectAll().where("game_id", "=", game.id).where("round", "=", game.round).execute(),
    db.selectFrom("game_kicks").select("client_id").where("game_id", "=", game.id).execute(),
  ]);
  const evening = readEvening(game.evening);
  const night = rounds.length > 1;
  // A night's total carries the rounds before the current one (a single game's Play Again starts from 0).
  const earlier = night
    ? await db
        .selectFrom("answers")
        .select(["player_id", (eb) => eb.fn.sum<number>("points").as("points"), (eb) => eb.fn.sum<number>("correct").as("correct")])
        .where("game_id", "=", game.id)
        .where("round", "<", game.round)
        .groupBy("player_id")
        .execute()
    : [];
  const earlierByPlayer = new Map(earlier.map((row) => [row.player_id, { points: Number(row.points), correct: Number(row.correct) }]));
  return {
    game,
    title: night ? (evening?.title ?? quiz.title) : quiz.title,
    timeLimit: night ? rounds[0].timeLimit : (game.time_limit ?? quiz.time_limit),
    questions: questions.get(0) ?? [],
    ...(night
      ? {
          firstRoundTitle: rounds[0].title,
          laterRounds: rounds.slice(1).map((round) => ({
            title: round.title,
            timeLimitMs: round.timeLimit * 1000,
            questions: questions.get(round.position) ?? [],
          })),
        }
      : { laterRounds: [] }),
    evening,
    players: players.map((row) => ({
      id: row.id,
      nickname: row.nickname,
      clientId: row.client_id,
      joinedAt: row.joined_at,
      teamId: row.team_id,
      teamPoints: row.team_points,
      earlierRoundsScore: earlierByPlayer.get(row.id)?.points ?? 0,
      earlierRoundsCorrect: earlierByPlayer.get(row.id)?.correct ?? 0,
    })),
    answers: answers.map((row) => ({
      playerId: row.player_id,
      questionId: row.question_id,
      questionIndex: row.question_index,
      answerIndex: row.answer_index,
      value: row.answer_value === null ? null : (JSON.parse(row.answer_value) as AnswerValue),
      responseTimeMs: row.response_ms,
      correct: row.correct === 1,
      points: row.points,
      answeredAt: row.answered_at,
    })),
    kickedClientIds: kicks.map((row) => row.client_id),
    questionPauses: readQuestionPauses(game.question_pauses),
  };
}

/** Closes games that are still waiting (idle lobbies): their codes no longer find them. */
export async function expireWaitingGames(db: DB, gameIds: number[], now = Date.now()): Promise<void> {
  for (const ids of chunks(gameIds)) {
    await db.updateTable("games").set({ status: "finished", ended_at: now }).where("id", "in", ids).where("status", "=", "waiting").execute();
  }
}

/** Closes waiting games created before `createdBefore` that are not open in memory; returns how many. */
export async function expireUnopenedGames(db: DB, createdBefore: number, open: Set<number>, now = Date.now()): Promise<number> {
  const candidates = await db.selectFrom("games").select("id").where("status", "=", "waiting").where("created_at", "<", createdBefore).execute();
  const stale = candidates.map((row) => row.id).filter((id) => !open.has(id));
  await expireWaitingGames(db, stale, now);
  return stale.length;
}

/** A game's questions per round of a night (all in round 0 for a single game), each in its order. */
export async function getGameQuestionsByRound(db: DB, gameId: number): Promise<Map<number, Question[]>> {
  const rows = await db
    .selectFrom("game_questions")
    .innerJoin("questions", "questions.id", "game_questions.question_id")
    .selectAll("questions")
    .select("game_questions.round as game_round")
    .where("game_questions.game_id", "=", gameId)
    .orderBy("game_questions.position")
    .execute();
  const byRound = new Map<number, Question[]>();
  for (const row of rows) {
    let list = byRound.get(row.game_round);
    if (!list) byRound.set(row.game_round, (list = []));
    list.push(toQuestion(row));
  }
  return byRound;
}

/** The questions a game plays, in its order, whatever has become of its quiz since. */
export async function getGameQuestions(db: DB, gameId: number): Promise<Question[]> {
  const rows = await db
    .selectFrom("game_questions")
    .innerJoin("questions", "questions.id", "game_questions.question_id")
    .selectAll("questions")
    .where("game_questions.game_id", "=", gameId)
    .orderBy("game_questions.position")
    .execute();
  return rows.map(toQuestion);
}

/** Whether the requester is the game's host now (`isGameHost`), read afresh: for a socket asking for the host seat. */
export async function isGameHostById(db: DB, gameId: number, requester: Requester): Promise<boolean> {
  const row = await db.selectFrom("games").select(["host_client_id", "host_id", "host_secret_hash"]).where("id", "=", gameId).executeTakeFirst();
  return row !== undefined && isGameHost(row, requester);
}

export interface PlayerWrite {
  id: number;
  nickname: string;
  clientId: string;
  joinedAt: number;
}

export interface ScoreWrite {
  id: number;
  score: number;
  streak: number;
  correctCount: number;
  /** What the player added to its team's score. */
  teamPoints?: number;
}

export interface AnswerRescore {
  playerId: number;
  round: number;
  questionIndex: number;
  correct: boolean;
  points: number;
}

export interface ProgressWrite {
  phase: Phase;
  round: number;
  questionIndex: number;
  questionStartedAt: number | null;
  /** The open question's pauses; empty outside a question. */
  questionPauses: StoredPause[];
  status: GameStatus;
  startedAt?: number;
  endedAt?: number;
}

/** One group commit of a running game: everything that happened since the last one. */
export interface GameWriteBatch {
  joined: PlayerWrite[];
  /** Browsers the host removed (their players are in `left`). */
  kicked: string[];
  /** The host locked (true) or unlocked (false) the game; null when unchanged. */
  locked: boolean | null;
  /** The host turned pictures on players' devices on or off; null when unchanged. */
  picturesOnPlayers?: boolean | null;
  /** Answers judged again after they were stored: closest-number guesses scored at the close, typed answers the host accepted. */
  rescored?: AnswerRescore[];
  /** Play Again: every player's score of the previous round is cleared first. */
  resetScores: boolean;
  left: number[];
  answers: NewAnswerRow[];
  scores: ScoreWrite[];
  progress: ProgressWrite | null;
  /** Players whose team changed (after `joined` are inserted). */
  teamAssignments?: { id: number; teamId: number | null }[];
  /** Team mode, teams and their scores, a night's rounds: the latest, replacing what is stored. */
  evening?: StoredEvening | null;
}

const INSERT_CHUNK = 500;

function chunks<T>(items: T[], size = INSERT_CHUNK): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

export type CommitOutcome = "stored" | "game-gone";

/**
 * Writes a batch in one transaction, in an order that keeps foreign keys satisfied; "game-gone"
 * (and nothing written) when the game's row no longer exists.
 */
export async function commitGameBatch(db: DB, gameId: number, batch: GameWriteBatch): Promise<CommitOutcome> {
  return db.transaction().execute((trx) => writeGameBatch(trx, gameId, batch));
}

/**
 * A batch's writes inside a transaction the caller holds (the process's shared writer puts every
 * game's batch of a tick into one, each in a savepoint: server/game-writer.ts).
 */
export async function writeGameBatch(trx: DB, gameId: number, batch: GameWriteBatch): Promise<CommitOutcome> {
  if (!(await trx.selectFrom("games").select("id").where("id", "=", gameId).executeTakeFirst())) return "game-gone";
  if (batch.left.length > 0) {
    for (const ids of chunks(batch.left)) {
      await trx.deleteFrom("players").where("game_id", "=", gameId).where("id", "in", ids).execute();
    }
  }
  if (batch.resetScores) {
    await trx.updateTable("players").set({ score: 0, streak: 0, correct_count: 0, team_points: 0 }).where("game_id", "=", gameId).execute();
  }
  for (const rows of chunks(batch.joined)) {
    await trx
      .insertInto("players")
      .values(
        rows.map((player) => ({
          game_id: gameId,
          id: player.id,
          nickname: player.nickname,
          client_id: player.clientId,
          joined_at: player.joinedAt,
        })),
      )
      .execute();
  }
  for (const rows of chunks(batch.answers)) {
    await trx.insertInto("answers").values(rows).execute();
  }
  for (const rows of chunks(batch.rescored ?? [])) {
    const changed = sql.join(rows.map((row) => sql`(${row.playerId}, ${row.round}, ${row.questionIndex}, ${row.correct ? 1 : 0}, ${row.points})`));
    await sql`
      update answers set correct = changed.column4, points = changed.column5
      from (values ${changed}) as changed
      where answers.game_id = ${gameId} and answers.player_id = changed.column1
        and answers.round = changed.column2 and answers.question_index = changed.column3`.execute(trx);
  }
  // A question's close changes every player's score: one statement per chunk, not one per player.
  for (const rows of chunks(batch.scores)) {
    const changed = sql.join(rows.map((row) => sql`(${row.id}, ${row.score}, ${row.streak}, ${row.correctCount}, ${row.teamPoints ?? 0})`));
    await sql`
      update players set score = changed.column2, streak = changed.column3, correct_count = changed.column4, team_points = changed.column5
      from (values ${changed}) as changed
      where players.game_id = ${gameId} and players.id = changed.column1`.execute(trx);
  }
  for (const rows of chunks(batch.teamAssignments ?? [])) {
    const changed = sql.join(rows.map((row) => sql`(${row.id}, ${row.teamId})`));
    await sql`
      update players set team_id = changed.column2
      from (values ${changed}) as changed
      where players.game_id = ${gameId} and players.id = changed.column1`.execute(trx);
  }
  if (batch.evening) {
    await trx
      .updateTable("games")
      .set({ evening: JSON.stringify(batch.evening) })
      .where("id", "=", gameId)
      .execute();
  }
  if (batch.kicked.length > 0) {
    const kickedAt = Date.now();
    await trx
      .insertInto("game_kicks")
      .values(batch.kicked.map((clientId) => ({ game_id: gameId, client_id: clientId, kicked_at: kickedAt })))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
  if (batch.locked !== null) {
    await trx
      .updateTable("games")
      .set({ locked: batch.locked ? 1 : 0 })
      .where("id", "=", gameId)
      .execute();
  }
  if (batch.picturesOnPlayers != null) {
    await trx
      .updateTable("games")
      .set({ pictures_on_players: batch.picturesOnPlayers ? 1 : 0 })
      .where("id", "=", gameId)
      .execute();
  }
  if (batch.progress) {
    const { progress } = batch;
    await trx
      .updateTable("games")
      .set({
        phase: progress.phase,
        round: progress.round,
        question_index: progress.questionIndex,
        question_started_at: progress.questionStartedAt,
        question_pauses: JSON.stringify(progress.questionPauses),
        status: progress.status,
        ...(progress.startedAt !== undefined ? { started_at: progress.startedAt } : {}),
        ...(progress.endedAt !== undefined ? { ended_at: progress.endedAt } : {}),
      })
      .where("id", "=", gameId)
      .execute();
  }
  return "stored";
}
