/**
 * Property-based tests of the pure game engine: random games (0-5 questions, random settings)
 * are driven by random command sequences at non-decreasing times, and the engine's invariants
 * are checked after every command. The invariants hold by design; a failure names the step.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  answerProgressView,
  answerToCurrentQuestion,
  createGameState,
  gameOverView,
  isPaused,
  isRejection,
  leaderboardView,
  lobbyView,
  nicknameKey,
  ownStanding,
  playerResultView,
  questionView,
  recentPlayers,
  remainingMsOf,
  restoreGameState,
  resultsHeaderView,
  scoreAnswer,
  snapshotView,
  transition,
  type Actor,
  type AnswerRecord,
  type Command,
  type Effect,
  type EngineQuestion,
  type GameState,
  type PlayerState,
  type TransitionResult,
} from "#app/game/engine/index";
import { readServerMessage } from "#app/game/client/server-message";
import { ServerMessageSchema } from "#app/game/protocol";
import { HOST_NICKNAME, LEADERBOARD_SIZE, LOBBY_RECENT_NAMES } from "#app/game/rules";

const RUNS = 300;
const T0 = 1_700_000_000_000;

// ------------------------------------------------------------------ scenarios

interface Scenario {
  /** The right answer of each question; 0-5 questions. */
  correctAnswers: number[];
  timeLimitSeconds: number;
  resultsDelayMs: number;
  nextQuestionSeconds: number;
  maxPlayers: number;
  steps: Step[];
}

interface Step {
  /** Milliseconds (>= 0) after the previous step. */
  dt: number;
  command: Command;
  /** When set, the command's player becomes the aim-th player in the game at that moment (mod their number). */
  aim: number | null;
}

const HOST: Actor = { role: "host" };
const GUEST: Actor = { role: "guest" };
const asPlayer = (playerId: number): Actor => ({ role: "player", playerId });

/** Few client ids, so rejoins and duplicates are common; one of them is the host's reserved name. */
const CLIENT_IDS = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", HOST_NICKNAME];
/** Names that collide once trimmed and lower-cased ("İz" lower-cases to "i̇z"), and the reserved one. */
const NICKNAMES = ["Ann", "ann", " ANN ", "Bob", "bob\t", "Cat", "Dan", "Éva", "éva", "İz", "i̇z", HOST_NICKNAME, "__host__", " __Host__ ", ""];

const playerIdArb = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 1, max: 3 }) },
  { weight: 4, arbitrary: fc.integer({ min: 4, max: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 2.5, Number.NaN, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY) },
);
const answerIndexArb = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 4, 7, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY) },
);
/** Who sends a host command: mostly the host, sometimes a guest or a player. */
const commanderArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(HOST) },
  { weight: 1, arbitrary: fc.constant(GUEST) },
  { weight: 1, arbitrary: playerIdArb.map(asPlayer) },
);

const joinArb = fc
  .record({
    clientId: fc.constantFrom(...CLIENT_IDS),
    nickname: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NICKNAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }),
  })
  .map(({ clientId, nickname }): Command => ({ type: "join", clientId, nickname }));

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: joinArb },
  { weight: 2, arbitrary: playerIdArb.map((playerId): Command => ({ type: "disconnect", playerId })) },
  { weight: 1, arbitrary: playerIdArb.map((playerId): Command => ({ type: "leave", playerId })) },
  { weight: 2, arbitrary: commanderArb.map((actor): Command => ({ type: "start", actor })) },
  {
    weight: 14,
    arbitrary: fc
      .record({
        playerId: playerIdArb,
        answerIndex: answerIndexArb,
        // Mostly the player itself; else the host, a guest, or another player.
        actor: fc.oneof(
          { weight: 10, arbitrary: fc.constant<Actor | "self">("self") },
          { weight: 1, arbitrary: fc.constantFrom<Actor>(HOST, GUEST) },
          { weight: 1, arbitrary: playerIdArb.map(asPlayer) },
        ),
      })
      .map(({ playerId, answerIndex, actor }): Command => ({
        type: "answer",
        actor: actor === "self" ? asPlayer(playerId) : actor,
        playerId,
        answerIndex,
      })),
  },
  { weight: 3, arbitrary: commanderArb.map((actor): Command => ({ type: "next", actor })) },
  { weight: 2, arbitrary: commanderArb.map((actor): Command => ({ type: "playAgain", actor })) },
  { weight: 5, arbitrary: fc.constant<Command>({ type: "tick" }) },
  {
    weight: 1,
    arbitrary: fc.record({ actor: commanderArb, playerId: playerIdArb }).map(({ actor, playerId }): Command => ({ type: "kick", actor, playerId })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ actor: commanderArb, locked: fc.boolean() }).map(({ actor, locked }): Command => ({ type: "lock", actor, locked })),
  },
  { weight: 3, arbitrary: commanderArb.map((actor): Command => ({ type: "pause", actor })) },
  { weight: 3, arbitrary: commanderArb.map((actor): Command => ({ type: "resume", actor })) },
);

const aimArb = fc.oneof({ weight: 3, arbitrary: fc.nat(7) }, { weight: 1, arbitrary: fc.constant(null) });

/** Mostly quick successions, sometimes long enough to pass a question's or a phase's deadline. */
const dtArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 400 }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 6000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 40_000 }) },
);

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  correctAnswers: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 5 }),
  timeLimitSeconds: fc.integer({ min: 1, max: 30 }),
  resultsDelayMs: fc.integer({ min: 0, max: 5000 }),
  nextQuestionSeconds: fc.integer({ min: 0, max: 10 }),
  maxPlayers: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(10_000)),
  // A few joins first, so that most games start with players, then anything in any order.
  steps: fc
    .tuple(
      fc.array(fc.record({ dt: fc.integer({ min: 0, max: 100 }), command: joinArb, aim: fc.constant(null) }), { maxLength: 6 }),
      fc.array(fc.record({ dt: dtArb, command: commandArb, aim: aimArb }), { maxLength: 100, size: "max" }),
    )
    .map(([joins, rest]) => [...joins, ...rest]),
});

function newGame(scenario: Scenario): GameState {
  const questions: EngineQuestion[] = scenario.correctAnswers.map((correctAnswerIndex, i) => ({
    id: 500 + i,
    kind: "choice" as const,
    text: `Question ${i + 1}`,
    answers: ["W", "X", "Y", "Z"],
    correctAnswerIndex,
  }));
  return createGameState({
    gameCode: "ABC234",
    title: "Properties",
    timeLimitSeconds: scenario.timeLimitSeconds,
    questions,
    settings: {
      resultsDelayMs: scenario.resultsDelayMs,
      nextQuestionSeconds: scenario.nextQuestionSeconds,
      lobbyGraceMs: 60_000,
      maxPlayers: scenario.maxPlayers,
    },
  });
}

/** Points an aimed command at a player of the game as it is now; the actor of a self-answer follows. */
function aimAt(state: GameState, { command, aim }: Step): Command {
  if (aim === null || state.players.size === 0) return command;
  const ids = [...state.players.keys()];
  const playerId = ids[aim % ids.length];
  switch (command.type) {
    case "answer": {
      const self = command.actor.role === "player" && command.actor.playerId === command.playerId;
      return { ...command, playerId, actor: self ? asPlayer(playerId) : command.actor };
    }
    case "disconnect":
    case "leave":
    case "kick":
      return { ...command, playerId };
    default:
      return command;
  }
}

/**
 * The scenario's commands at their absolute, non-decreasing times. Lazy: each command is aimed
 * at the game as the previous ones left it, so apply each one before asking for the next.
 */
function* commands(state: GameState, scenario: Scenario): Generator<{ index: number; command: Command; now: number }> {
  let now = T0;
  for (const [index, step] of scenario.steps.entries()) {
    now += step.dt;
    yield { index, command: aimAt(state, step), now };
  }
}

function describeStep(index: number, command: Command, now: number): string {
  const fields = Object.entries(command).map(([key, value]) => `${key}=${typeof value === "object" ? JSON.stringify(value) : String(value)}`);
  return `step ${index} at T0+${now - T0}: ${fields.join(" ")}`;
}

// ------------------------------------------------------------------ helpers

function isPlayer(value: object): value is PlayerState {
  return "joinedBefore" in value && "clientId" in value;
}

/**
 * A structural copy of a state (or of anything inside it, effects included): maps and sets as
 * arrays in their order, players with their join-order links as ids. New state fields are
 * picked up by themselves.
 */
function plain(value: unknown): unknown {
  if (value instanceof Map) return [...value].map(([key, item]) => [key, plain(item)]);
  if (value instanceof Set) return [...value];
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== "object") return value;
  if (isPlayer(value)) {
    const { joinedBefore, joinedAfter, lastAnswer, ...rest } = value;
    return { ...rest, lastAnswer: lastAnswer && { ...lastAnswer }, joinedBefore: joinedBefore?.id ?? null, joinedAfter: joinedAfter?.id ?? null };
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
}

const effectTypes = (result: TransitionResult) => (isRejection(result) ? [] : result.effects.map((effect) => effect.type));

function effectsOf<T extends Effect["type"]>(result: TransitionResult, type: T): Extract<Effect, { type: T }>[] {
  return isRejection(result) ? [] : (result.effects.filter((effect) => effect.type === type) as Extract<Effect, { type: T }>[]);
}

/** Commands that the engine accepts without any effect and must leave the state exactly as it was. */
function isNoOp(state: GameState, command: Command, now: number): boolean {
  switch (command.type) {
    case "tick":
      return state.deadline === null || now < state.deadline;
    case "leave":
      return state.phase !== "lobby" || !state.players.has(command.playerId);
    case "disconnect":
      return !state.players.get(command.playerId)?.connected;
    case "lock":
      return command.actor.role === "host" && state.locked === command.locked;
    default:
      return false;
  }
}

// ------------------------------------------------------------------ invariants

/** Every broken invariant of `state`, as readable sentences; empty when all hold. */
function violations(state: GameState): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, problem: () => string) => {
    if (!ok) problems.push(problem());
  };
  const players = [...state.players.values()];

  // The three indexes agree, and nicknames are unique ignoring case.
  check(state.playersByClientId.size === players.length, () => `playersByClientId has ${state.playersByClientId.size} entries for ${players.length} players`);
  check(state.playersByNickname.size === players.length, () => `playersByNickname has ${state.playersByNickname.size} entries for ${players.length} players`);
  // Checked with a lower-casing of its own, not the engine's nicknameKey.
  const lowered = players.map((p) => p.nickname.toLocaleLowerCase("en-US"));
  check(new Set(lowered).size === players.length, () => `two players share a nickname ignoring case: ${JSON.stringify(lowered)}`);
  for (const [id, player] of state.players) {
    check(player.id === id, () => `players[${id}] holds player ${player.id}`);
    check(state.playersByClientId.get(player.clientId) === player, () => `playersByClientId does not map ${player.clientId} to player ${id}`);
    check(
      state.playersByNickname.get(nicknameKey(player.nickname)) === player,
      () => `playersByNickname does not map ${JSON.stringify(player.nickname)} to player ${id}`,
    );
    check(player.nickname === player.nickname.trim(), () => `player ${id}'s nickname ${JSON.stringify(player.nickname)} is not trimmed`);
    check(player.nickname.toLowerCase() !== HOST_NICKNAME.toLowerCase(), () => `player ${id} took the host's reserved nickname`);
    check(Number.isInteger(id) && id >= 1 && id < state.nextPlayerId, () => `player id ${id} is not below nextPlayerId ${state.nextPlayerId}`);
    check(!state.kickedClientIds.has(player.clientId), () => `kicked client ${player.clientId} is a player`);
    check(player.score >= 0 && player.streak >= 0 && player.correctCount >= 0, () => `player ${id} has a negative score, streak or correct count`);
    check(player.streak <= player.correctCount, () => `player ${id} has a streak of ${player.streak} with ${player.correctCount} correct answers`);
  }
  check(players.length <= state.settings.maxPlayers, () => `${players.length} players exceed maxPlayers ${state.settings.maxPlayers}`);

  // Join order: ids increase, and the linked list from the newest player walks back through everyone.
  const ids = [...state.players.keys()];
  check(
    ids.every((id, i) => i === 0 || ids[i - 1] < id),
    () => `players are not in join (id) order: ${ids.join(",")}`,
  );
  const walked: number[] = [];
  for (let player = state.newestPlayer, after: PlayerState | null = null; player && walked.length <= ids.length; after = player, player = player.joinedBefore) {
    check(player.joinedAfter === after, () => `player ${player.id}.joinedAfter is not ${after?.id ?? null}`);
    walked.unshift(player.id);
  }
  check(JSON.stringify(walked) === JSON.stringify(ids), () => `the join-order list walks ${walked.join(",")} but the players are ${ids.join(",")}`);
  const recent = recentPlayers(state).map((p) => p.id);
  check(JSON.stringify(recent) === JSON.stringify(ids.slice(-LOBBY_RECENT_NAMES)), () => `recentPlayers is ${recent.join(",")}`);

  const connected = players.filter((p) => p.connected).length;
  check(state.connectedCount === connected, () => `connectedCount is ${state.connectedCount} but ${connected} players are connected`);

  // Answer counters.
  const answered = players.filter((p) => answerToCurrentQuestion(state, p));
  const counts = [0, 1, 2, 3].map((index) => answered.filter((p) => p.lastAnswer!.answerIndex === index).length);
  const sum = state.answerCounts.reduce((total, count) => total + count, 0);
  check(
    state.answerCounts.length === (state.phase === "lobby" ? 0 : 4) && state.answerCounts.every((count) => count >= 0),
    () => `answerCounts is ${JSON.stringify(state.answerCounts)}`,
  );
  check(sum === state.answeredCount, () => `answerCounts ${JSON.stringify(state.answerCounts)} sum to ${sum}, answeredCount is ${state.answeredCount}`);
  for (const player of players) {
    const answer = player.lastAnswer;
    check(
      !answer || (answer.playerId === player.id && answer.questionIndex <= state.questionIndex),
      () => `player ${player.id} holds a foreign or future answer`,
    );
  }

  // Phase by phase.
  const lastIndex = state.questions.length - 1;
  switch (state.phase) {
    case "lobby":
      check(state.questionIndex === -1, () => `questionIndex is ${state.questionIndex} in the lobby`);
      check(state.deadline === null, () => "the lobby has a deadline");
      check(state.ranking.length === 0, () => "the lobby has a ranking");
      check(state.answeredCount === 0 && state.pendingAnswers === 0 && sum === 0, () => "the lobby has answer counters");
      for (const player of players) {
        check(
          player.score === 0 && player.streak === 0 && player.correctCount === 0 && player.rank === 0 && player.lastAnswer === null,
          () => `player ${player.id} carries round data into the lobby: ${JSON.stringify(plain(player))}`,
        );
      }
      break;
    case "question": {
      check(state.questionIndex >= 0 && state.questionIndex <= lastIndex, () => `questionIndex ${state.questionIndex} out of range`);
      // Its end moves by each finished pause; while a pause lasts, nothing can close it by time.
      const pauses = state.questionPauses;
      const pausedMs = pauses.reduce((total, pause) => total + (pause.to === null ? 0 : pause.to - pause.from), 0);
      check(state.questionEndsAt === state.questionStartedAt + state.timeLimitMs + pausedMs, () => "questionEndsAt is not start + time limit + paused time");
      check(
        pauses.every(
          (pause, i) => pause.from >= state.questionStartedAt && (pause.to ?? pause.from) >= pause.from && (i === 0 || pause.from >= pauses[i - 1].to!),
        ),
        () => `the pauses overlap or run backwards: ${JSON.stringify(pauses)}`,
      );
      check(
        pauses.slice(0, -1).every((pause) => pause.to !== null),
        () => "a pause other than the last is still on",
      );
      const paused = pauses.length > 0 && pauses[pauses.length - 1].to === null;
      check(isPaused(state) === paused, () => "isPaused disagrees with the pauses");
      check(
        state.deadline === (paused ? null : state.questionEndsAt),
        () => `the deadline ${state.deadline} is not the question's end ${state.questionEndsAt} (paused: ${paused})`,
      );
      const pending = players.filter((p) => p.connected && !answerToCurrentQuestion(state, p)).length;
      check(state.pendingAnswers === pending, () => `pendingAnswers is ${state.pendingAnswers} but ${pending} connected players have not answered`);
      check(state.answeredCount === answered.length, () => `answeredCount is ${state.answeredCount} but ${answered.length} players answered`);
      check(
        JSON.stringify(state.answerCounts) === JSON.stringify(counts),
        () => `answerCounts is ${JSON.stringify(state.answerCounts)}, the answers say ${JSON.stringify(counts)}`,
      );
      // An open question with every connected player answered would have closed at once.
      check(!(pending === 0 && answered.length > 0), () => "every connected player answered but the question is still open");
      break;
    }
    case "results":
    case "leaderboard":
      check(!isPaused(state), () => `${state.phase} is paused`);
      check(state.questionIndex >= 0 && state.questionIndex <= lastIndex, () => `questionIndex ${state.questionIndex} out of range`);
      check(state.deadline !== null, () => `${state.phase} has no deadline`);
      break;
    case "finished":
      check(state.questionIndex === lastIndex, () => `finished at question index ${state.questionIndex} of ${lastIndex}`);
      check(state.deadline === null, () => "a finished game has a deadline");
      break;
  }

  if (state.phase !== "lobby") {
    const ranked = state.ranking.map((p) => p.id).sort((a, b) => a - b);
    check(JSON.stringify(ranked) === JSON.stringify(ids), () => `the ranking holds ${ranked.join(",")} but the players are ${ids.join(",")}`);
  }
  if (state.phase === "results" || state.phase === "leaderboard" || state.phase === "finished") {
    // Sorted by score, with competition ranks ("1, 2, 2, 4").
    state.ranking.forEach((player, index) => {
      const previous = state.ranking[index - 1];
      const expected = previous && previous.score === player.score ? previous.rank : index + 1;
      check(!previous || previous.score >= player.score, () => `the ranking lists ${previous.id} (${previous.score}) above ${player.id} (${player.score})`);
      check(player.rank === expected, () => `player ${player.id} at position ${index + 1} has rank ${player.rank}, expected ${expected}`);
    });
  }
  return problems;
}

// ------------------------------------------------------------------ the round's answers, as the effects report them

/** What the effects have told about the current round: every accepted answer and each player's streak. */
class RoundModel {
  round = 0;
  readonly answers = new Map<number, AnswerRecord[]>();
  readonly streaks = new Map<number, number>();
  readonly scores = new Map<number, number>();
  /** `round:player:question` of every accepted answer, to catch a second answer to one question. */
  readonly seen = new Set<string>();
  /** The open question's pauses as the effects announced them: [from, to], `to` null while on. */
  pauses: [number, number | null][] = [];
  /** Time paused between `from` and `to`, counted the plain way, one pause at a time. */
  pausedBetween(from: number, to: number): number {
    let total = 0;
    for (const [start, end] of this.pauses) total += Math.max(0, Math.min(end ?? to, to) - Math.max(start, from));
    return total;
  }

  /** Applies one accepted command's effects; returns what contradicts the engine's rules. */
  apply(state: GameState, effects: Effect[], now: number): string[] {
    const problems: string[] = [];
    for (const effect of effects) {
      switch (effect.type) {
        case "answerAccepted": {
          const { player, answer } = effect;
          const key = `${this.round}:${player.id}:${answer.questionIndex}`;
          if (this.seen.has(key)) problems.push(`player ${player.id} answered question ${answer.questionIndex} twice in round ${this.round}`);
          this.seen.add(key);
          const question = state.questions[answer.questionIndex];
          const sentAt = Math.max(state.questionStartedAt, player.joinedAt);
          if (this.pauses.some(([, end]) => end === null)) problems.push(`an answer at ${now} was accepted while the question was paused`);
          // Nobody gains or loses by a pause: only the question's running time counts.
          const responseTimeMs = Math.min(Math.max(now - sentAt - this.pausedBetween(sentAt, now), 0), state.timeLimitMs);
          const correct = answer.answerIndex === question?.correctAnswerIndex;
          const streak = correct ? (this.streaks.get(player.id) ?? 0) + 1 : 0;
          const expected: AnswerRecord = {
            playerId: player.id,
            questionId: question?.id,
            questionIndex: state.questionIndex,
            value: null,
            answerIndex: answer.answerIndex,
            responseTimeMs,
            correct,
            points: scoreAnswer({ correct, responseTimeMs, timeLimitMs: state.timeLimitMs, streak }),
            answeredAt: now,
          };
          if (!isDeepStrictEqual(answer, expected)) {
            problems.push(`answer ${JSON.stringify(answer)} should be ${JSON.stringify(expected)}`);
          }
          if (!(state.questionStartedAt <= now && now < state.questionEndsAt)) problems.push(`an answer at ${now} was accepted outside its question's time`);
          this.streaks.set(player.id, streak);
          this.answers.set(player.id, [...(this.answers.get(player.id) ?? []), answer]);
          break;
        }
        case "questionClosed": {
          // Those who answered and those whose streak the missed question broke.
          const expected = [...state.players.values()].filter((p) => answerToCurrentQuestion(state, p) || (this.streaks.get(p.id) ?? 0) !== 0).map((p) => p.id);
          const changed = effect.changedPlayers.map((p) => p.id).sort((a, b) => a - b);
          if (JSON.stringify(changed) !== JSON.stringify(expected))
            problems.push(`questionClosed changed ${changed.join(",")}, expected ${expected.join(",")}`);
          for (const player of state.players.values()) if (!answerToCurrentQuestion(state, player)) this.streaks.set(player.id, 0);
          break;
        }
        case "questionStarted":
          this.pauses = [];
          break;
        case "questionPaused":
          if (this.pauses.some(([, end]) => end === null)) problems.push(`paused twice at ${now}`);
          this.pauses.push([now, null]);
          break;
        case "questionResumed": {
          const last = this.pauses[this.pauses.length - 1];
          if (!last || last[1] !== null) problems.push(`resumed at ${now} without a pause`);
          else last[1] = now;
          break;
        }
        case "gameReset":
          this.round++;
          this.answers.clear();
          this.streaks.clear();
          this.scores.clear();
          break;
        case "playerLeft":
        case "playerKicked":
          this.answers.delete(effect.player.id);
          this.streaks.delete(effect.player.id);
          this.scores.delete(effect.player.id);
          break;
        default:
          break;
      }
    }
    return problems;
  }

  /** Scores are the sum of the round's accepted answers and never go down within the round. */
  check(state: GameState): string[] {
    const problems: string[] = [];
    if (state.round !== this.round) problems.push(`round is ${state.round}, the effects say ${this.round}`);
    for (const player of state.players.values()) {
      const answers = this.answers.get(player.id) ?? [];
      const score = answers.reduce((total, answer) => total + answer.points, 0);
      const correct = answers.filter((answer) => answer.correct).length;
      const streak = this.streaks.get(player.id) ?? 0;
      const previous = this.scores.get(player.id) ?? 0;
      if (player.score !== score) problems.push(`player ${player.id} has ${player.score} points; its accepted answers total ${score}`);
      if (player.correctCount !== correct) problems.push(`player ${player.id} has ${player.correctCount} correct; its answers say ${correct}`);
      if (player.streak !== streak) problems.push(`player ${player.id} has streak ${player.streak}, expected ${streak}`);
      if (player.score < previous) problems.push(`player ${player.id}'s score went down from ${previous} to ${player.score}`);
      this.scores.set(player.id, player.score);
    }
    return problems;
  }
}

// ------------------------------------------------------------------ phase edges

/** The only phase changes, and the commands that may cause each. */
const MOVES: Record<string, Command["type"][]> = {
  "lobby->question": ["start"],
  "question->results": ["answer", "disconnect", "kick", "next", "tick"],
  "results->leaderboard": ["next", "tick"],
  "leaderboard->question": ["next", "tick"],
  "leaderboard->finished": ["next", "tick"],
  "finished->lobby": ["playAgain"],
};

/** The effects that announce each phase change; no other command emits them. */
const MOVE_EFFECTS: Record<string, Effect["type"][]> = {
  "lobby->question": ["gameStarted", "questionStarted"],
  "question->results": ["questionClosed"],
  "results->leaderboard": ["leaderboardShown"],
  "leaderboard->question": ["questionStarted"],
  "leaderboard->finished": ["gameOver"],
  "finished->lobby": ["gameReset"],
};
const PHASE_EFFECTS: Effect["type"][] = ["questionStarted", "questionClosed", "leaderboardShown", "gameOver", "gameReset"];

// ------------------------------------------------------------------ views

/** Every message the views would build for the current phase, as the room sends them. */
function views(state: GameState, now: number): { type: string; payload: unknown }[] {
  const players = [...state.players.values()];
  const messages: { type: string; payload: unknown }[] = [
    { type: "GAME_SNAPSHOT", payload: snapshotView(state, { role: "host" }) },
    ...players.map((player) => ({ type: "GAME_SNAPSHOT", payload: snapshotView(state, { role: "player", player }) })),
  ];
  switch (state.phase) {
    case "lobby":
      messages.push({ type: "LOBBY_UPDATE", payload: lobbyView(state) });
      break;
    case "question":
      messages.push({ type: "QUESTION_STARTED", payload: questionView(state, now) });
      messages.push({ type: "ANSWER_PROGRESS", payload: answerProgressView(state) });
      break;
    case "results":
      messages.push({
        type: "ANSWER_RESULTS",
        payload: { ...resultsHeaderView(state), playerResults: state.ranking.map((player) => playerResultView(state, player)) },
      });
      break;
    case "leaderboard":
      messages.push({ type: "LEADERBOARD_UPDATE", payload: leaderboardView(state) });
      for (const player of players) messages.push({ type: "LEADERBOARD_UPDATE", payload: { ...leaderboardView(state), you: ownStanding(state, player) } });
      break;
    case "finished":
      messages.push({ type: "GAME_OVER", payload: { ...gameOverView(state), you: players[0] && ownStanding(state, players[0]) } });
      break;
  }
  return messages;
}

// ------------------------------------------------------------------ properties

describe("engine properties over random command sequences", () => {
  it("keeps the player indexes, counters and phase fields consistent after every command", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const state = newGame(scenario);
        expect(violations(state)).toEqual([]);
        for (const { index, command, now } of commands(state, scenario)) {
          transition(state, command, now);
          expect(violations(state), describeStep(index, command, now)).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("leaves the state untouched when it rejects a command (or accepts a no-op)", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const state = newGame(scenario);
        for (const { index, command, now } of commands(state, scenario)) {
          const before = plain(state);
          const noOp = isNoOp(state, command, now);
          const result = transition(state, command, now);
          const label = describeStep(index, command, now);
          if (isRejection(result)) {
            expect(result.error.message.length, label).toBeGreaterThan(0);
            expect(plain(state), `${label} was rejected with ${result.error.code} but changed the state`).toEqual(before);
          } else if (noOp) {
            expect(result.effects, label).toEqual([]);
            expect(plain(state), `${label} is a no-op but changed the state`).toEqual(before);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("scores each player the sum of its accepted answers in the round, once per question, never going down", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const state = newGame(scenario);
        const model = new RoundModel();
        for (const { index, command, now } of commands(state, scenario)) {
          const result = transition(state, command, now);
          const label = describeStep(index, command, now);
          if (!isRejection(result)) expect(model.apply(state, result.effects, now), label).toEqual([]);
          expect(model.check(state), label).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("moves only along the game's edges, announcing each move with its effects", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const state = newGame(scenario);
        for (const { index, command, now } of commands(state, scenario)) {
          const from = { phase: state.phase, questionIndex: state.questionIndex, round: state.round, deadline: state.deadline };
          const result = transition(state, command, now);
          const label = describeStep(index, command, now);
          const move = `${from.phase}->${state.phase}`;
          const types = effectTypes(result);
          if (from.phase === state.phase) {
            expect(
              types.filter((type) => PHASE_EFFECTS.includes(type)),
              label,
            ).toEqual([]);
            expect(state.questionIndex, label).toBe(from.questionIndex);
            expect(state.round, label).toBe(from.round);
            // A tick at or after a deadline always moves on.
            if (command.type === "tick") expect(from.deadline === null || now < from.deadline, `${label}: a due tick did not move`).toBe(true);
            // The only gameStarted without a move is the quiz without questions.
            for (const started of effectsOf(result, "gameStarted")) expect(started.questionCount, label).toBe(0);
            continue;
          }
          expect(MOVES[move], `${label}: illegal move ${move}`).toBeDefined();
          expect(MOVES[move], `${label}: ${command.type} caused ${move}`).toContain(command.type);
          expect(isRejection(result), label).toBe(false);
          // Why it moved: a due tick, the host, a first round's start... or, for a question, nobody left to wait for.
          if (command.type === "tick") expect(from.deadline !== null && now >= from.deadline, `${label}: an early tick moved`).toBe(true);
          if (command.type === "next" || command.type === "start" || command.type === "playAgain") expect(command.actor, label).toEqual(HOST);
          if (move === "question->results" && command.type !== "tick" && command.type !== "next") {
            const players = [...state.players.values()];
            expect(
              players.filter((p) => p.connected && !answerToCurrentQuestion(state, p)).map((p) => p.id),
              `${label}: closed with players pending`,
            ).toEqual([]);
            expect(
              players.some((p) => answerToCurrentQuestion(state, p)),
              `${label}: closed with no answer`,
            ).toBe(true);
          }
          for (const type of MOVE_EFFECTS[move]) expect(types, `${label}: ${move} without ${type}`).toContain(type);
          expect(
            types.filter((type) => PHASE_EFFECTS.includes(type) && !MOVE_EFFECTS[move].includes(type)),
            label,
          ).toEqual([]);
          const expectedIndex =
            move === "lobby->question" ? 0 : move === "leaderboard->question" ? from.questionIndex + 1 : move === "finished->lobby" ? -1 : from.questionIndex;
          expect(state.questionIndex, label).toBe(expectedIndex);
          expect(state.round, label).toBe(from.round + (move === "finished->lobby" ? 1 : 0));
          if (move === "lobby->question") expect(effectsOf(result, "gameStarted")[0].questionCount, label).toBe(state.questions.length);
          if (state.phase === "question") expect(state.questionStartedAt, label).toBe(now);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("builds views that match the protocol (and the browser's check) and never show the right answer before the reveal", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const state = newGame(scenario);
        for (const { index, command, now } of commands(state, scenario)) {
          transition(state, command, now);
          const label = describeStep(index, command, now);
          for (const message of views(state, now)) {
            const parsed = ServerMessageSchema.safeParse(message);
            expect(parsed.success, `${label}: ${message.type} ${JSON.stringify(message.payload)}: ${parsed.error?.message}`).toBe(true);
            // The browser's own check, without zod, takes it too.
            expect(readServerMessage(JSON.parse(JSON.stringify(message))), `${label}: ${message.type}`).toMatchObject({ ok: true });
            if (message.type === "QUESTION_STARTED" || message.type === "ANSWER_PROGRESS") {
              expect(JSON.stringify(message.payload), label).not.toContain("correct");
            }
            const payload = message.payload as { players?: unknown[]; playerCount?: number };
            if (payload.playerCount !== undefined) expect(payload.playerCount, label).toBe(state.players.size);
            if (message.type === "LOBBY_UPDATE") expect(payload.players!.length, label).toBeLessThanOrEqual(LOBBY_RECENT_NAMES);
            if (message.type === "LEADERBOARD_UPDATE" || message.type === "GAME_OVER") {
              expect(payload.players!.length, label).toBe(Math.min(state.players.size, LEADERBOARD_SIZE));
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("is deterministic: the same commands at the same times give the same effects and state", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const run = () => {
          const state = newGame(scenario);
          const results = [...commands(state, scenario)].map(({ command, now }) => plain(transition(state, command, now)));
          return { results, state: plain(state) };
        };
        expect(run()).toEqual(run());
      }),
      { numRuns: RUNS },
    );
  });

  it("restores from its stored players and answers to the same scores, streaks and standings", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const state = newGame(scenario);
        const model = new RoundModel();
        for (const { index, command, now } of commands(state, scenario)) {
          const result = transition(state, command, now);
          if (isRejection(result)) continue;
          model.apply(state, result.effects, now);
          const label = describeStep(index, command, now);
          // What the room's group commits hold: the players, the round's answers and the progress.
          const restored = restoreGameState(
            {
              gameCode: state.gameCode,
              title: state.title,
              timeLimitSeconds: state.timeLimitMs / 1000,
              questions: state.questions,
              settings: state.settings,
            },
            {
              phase: state.phase,
              round: state.round,
              questionIndex: state.questionIndex,
              questionStartedAt: state.questionIndex >= 0 ? state.questionStartedAt : null,
              questionPauses: state.questionPauses.map((pause): [number, number | null] => [pause.from, pause.to]),
            },
            [...state.players.values()].map(({ id, nickname, clientId, joinedAt }) => ({ id, nickname, clientId, joinedAt })),
            [...model.answers.values()].flat(),
            now,
          );
          expect({ phase: restored.phase, round: restored.round, questionIndex: restored.questionIndex }, label).toEqual({
            phase: state.phase,
            round: state.round,
            questionIndex: state.questionIndex,
          });
          const ranked = state.phase === "results" || state.phase === "leaderboard" || state.phase === "finished";
          const standing = (s: GameState) =>
            [...s.players.values()].map((player) => ({
              id: player.id,
              nickname: player.nickname,
              score: player.score,
              streak: player.streak,
              correctCount: player.correctCount,
              answer: answerToCurrentQuestion(s, player),
              ...(ranked ? { rank: player.rank } : {}),
            }));
          expect(standing(restored), label).toEqual(standing(state));
          if (state.phase === "question") {
            expect(
              {
                answeredCount: restored.answeredCount,
                answerCounts: restored.answerCounts,
                deadline: restored.deadline,
                questionEndsAt: restored.questionEndsAt,
                questionPauses: restored.questionPauses,
                remainingMs: remainingMsOf(restored, now),
              },
              label,
            ).toEqual({
              answeredCount: state.answeredCount,
              answerCounts: state.answerCounts,
              deadline: state.deadline,
              questionEndsAt: state.questionEndsAt,
              questionPauses: state.questionPauses,
              remainingMs: remainingMsOf(state, now),
            });
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("generates games that reach every phase and effect often enough for the properties to bite", () => {
    // How many of 300 scenarios (a fixed sample) see each phase, effect and rejection at least once.
    const seen = new Map<string, number>();
    for (const scenario of fc.sample(scenarioArb, { numRuns: 300, seed: 20_240_601 })) {
      const state = newGame(scenario);
      const here = new Set<string>();
      for (const { command, now } of commands(state, scenario)) {
        const result = transition(state, command, now);
        here.add(state.phase);
        if (isRejection(result)) here.add(result.error.code);
        for (const type of effectTypes(result)) here.add(type);
      }
      for (const key of here) seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    const atLeast: Record<string, number> = {
      question: 120,
      answerAccepted: 90,
      questionClosed: 100,
      leaderboardShown: 90,
      gameOver: 40,
      gameReset: 15,
      playerLeft: 20,
      playerKicked: 20,
      NICKNAME_TAKEN: 50,
      NICKNAME_RESERVED: 50,
      NOT_HOST: 30,
      ALREADY_ANSWERED: 20,
      BAD_ANSWER: 10,
      QUESTION_CLOSED: 50,
      NOT_YOUR_PLAYER: 20,
      HOST_CANNOT_ANSWER: 10,
      questionPaused: 35,
      questionResumed: 15,
      PAUSED: 20,
      NOTHING_TO_PAUSE: 20,
      NOT_PAUSED: 20,
    };
    for (const [key, minimum] of Object.entries(atLeast)) expect(seen.get(key) ?? 0, key).toBeGreaterThanOrEqual(minimum);
  });
});

// ------------------------------------------------------------------ minimal reproductions of what the properties found

describe("minimal cases the properties found", () => {
  it("a kick after a question closed leaves the remaining players' ranks without a gap", () => {
    const state = newGame({ correctAnswers: [0, 0], timeLimitSeconds: 20, resultsDelayMs: 3000, nextQuestionSeconds: 5, maxPlayers: 10, steps: [] });
    const run = (command: Command, now: number) => {
      const result = transition(state, command, now);
      expect(isRejection(result), JSON.stringify(command)).toBe(false);
    };
    run({ type: "join", clientId: "c1", nickname: "Ann" }, T0);
    run({ type: "join", clientId: "c2", nickname: "Bob" }, T0);
    run({ type: "start", actor: HOST }, T0 + 1000);
    run({ type: "answer", actor: asPlayer(1), playerId: 1, answerIndex: 0 }, T0 + 1100);
    run({ type: "answer", actor: asPlayer(2), playerId: 2, answerIndex: 1 }, T0 + 1200);
    expect(state.ranking.map((p) => [p.nickname, p.rank])).toEqual([
      ["Ann", 1],
      ["Bob", 2],
    ]);

    run({ type: "kick", actor: HOST, playerId: 1 }, T0 + 1300);
    expect(state.ranking.map((p) => [p.nickname, p.rank])).toEqual([["Bob", 1]]);
    run({ type: "next", actor: HOST }, T0 + 1400);
    expect(leaderboardView(state).players).toEqual([{ rank: 1, id: 2, nickname: "Bob", score: 0 }]);
  });
});
