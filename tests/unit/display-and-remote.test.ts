/**
 * Display and remote (issue 17, docs/decisions/0032-display-and-remote.md) in the engine: what a
 * display is sent and never sent, that a display can never act, and the host's End game.
 */
import { describe, expect, it } from "vitest";
import {
  AUDIENCES,
  createGameState,
  isRejection,
  joinMessages,
  lobbyUpdate,
  answerProgress,
  recipientsOf,
  teamsUpdate,
  transition,
  type Actor,
  type Addressed,
  type Command,
  type EngineQuestion,
  type GameState,
  type Message,
} from "#app/game/engine/index";
import { gameReducer, initialGameState, screenFor } from "#app/game/client/game-state";
import type { ServerMessage } from "#app/game/protocol";
import { LOBBY_RECENT_NAMES } from "#app/game/rules";

const T0 = 1_700_000_000_000;
const HOST = { role: "host" } as const;
const DISPLAY = { role: "display" } as const;
const QUESTIONS: EngineQuestion[] = [
  { id: 1, kind: "choice", text: "Capital of France?", answers: ["Rome", "Paris", "Berlin", "Madrid"], correctAnswerIndex: 1 },
  { id: 2, kind: "typeAnswer", text: "Largest ocean?", answers: [], correctAnswerIndex: -1, acceptedAnswers: ["Pacific"] },
  { id: 3, kind: "closestNumber", text: "Moon landing year?", answers: [], correctAnswerIndex: -1, correctNumber: 1969 },
];

function newGame(players = 2): GameState {
  const state = createGameState({
    gameCode: "ABC234",
    title: "T",
    timeLimitSeconds: 20,
    questions: QUESTIONS,
    settings: { resultsDelayMs: 3000, nextQuestionSeconds: 5, lobbyGraceMs: 60_000 },
  });
  for (let i = 1; i <= players; i++) apply(state, { type: "join", clientId: `client-${i}`, nickname: `Player ${i}` });
  return state;
}

function apply(state: GameState, command: Command, at = T0): Addressed[] {
  const result = transition(state, command, at);
  if (isRejection(result)) throw new Error(`rejected: ${result.error.code}`);
  return result.effects.flatMap((effect) => recipientsOf(state, effect, { now: at, hasHosts: true }));
}

/** The messages of `addressed` a display receives, as it would receive them. */
function forDisplays(addressed: Addressed[]): Message[] {
  return addressed.flatMap((entry) => (entry.to !== "player" && entry.to !== "eachPlayer" && AUDIENCES[entry.to].displays ? [entry as Message] : []));
}

/** What a display must never hold: a browser's client id, a player's own result, the typed answers, the picks before the reveal. */
function expectNothingPrivate(messages: Message[]): void {
  for (const message of messages) {
    const text = JSON.stringify(message.payload);
    expect(text, message.type).not.toContain("client-");
    expect(text, message.type).not.toContain("clientId");
    expect(text, message.type).not.toContain("typedAnswers");
    expect(text, message.type).not.toContain('"you"');
    if (message.type === "ANSWER_RESULTS") expect(message.payload.playerResults).toEqual([]);
    if (message.type === "ANSWER_PROGRESS") expect(message.payload.answerCounts).toEqual([]);
    if (message.type === "GAME_SNAPSHOT") {
      expect(message.payload.role).toBe("display");
      expect(message.payload.playerId).toBeNull();
      expect(message.payload.players.length).toBeLessThanOrEqual(LOBBY_RECENT_NAMES);
    }
  }
}

describe("what a display receives", () => {
  it("follows a whole game with what the projector shows: the question, the reveal, the standings and the podium", () => {
    const state = newGame();
    const seen: string[] = [];
    const record = (addressed: Addressed[]) => {
      const messages = forDisplays(addressed);
      expectNothingPrivate(messages);
      seen.push(...messages.map((message) => message.type));
    };
    record(apply(state, { type: "lock", actor: HOST, locked: true }));
    record(apply(state, { type: "start", actor: HOST }));
    record(apply(state, { type: "answer", actor: { role: "player", playerId: 1 }, playerId: 1, answerIndex: 1 }));
    record(answerProgress(state));
    record(apply(state, { type: "pause", actor: HOST }, T0 + 1000));
    record(apply(state, { type: "resume", actor: HOST }, T0 + 2000));
    record(apply(state, { type: "next", actor: HOST }, T0 + 3000));
    record(apply(state, { type: "next", actor: HOST }, T0 + 4000));
    record(apply(state, { type: "next", actor: HOST }, T0 + 5000));
    record(apply(state, { type: "answer", actor: { role: "player", playerId: 1 }, playerId: 1, text: "Atlantic" }, T0 + 6000));
    record(apply(state, { type: "next", actor: HOST }, T0 + 7000));
    record(apply(state, { type: "acceptTypedAnswer", actor: HOST, questionNumber: 2, text: "Atlantic" }, T0 + 7500));
    record(apply(state, { type: "next", actor: HOST }, T0 + 8000));
    record(apply(state, { type: "next", actor: HOST }, T0 + 9000));
    record(apply(state, { type: "answer", actor: { role: "player", playerId: 2 }, playerId: 2, number: 1970 }, T0 + 9500));
    record(apply(state, { type: "next", actor: HOST }, T0 + 10_000));
    record(apply(state, { type: "next", actor: HOST }, T0 + 11_000));
    record(apply(state, { type: "next", actor: HOST }, T0 + 12_000));
    record(apply(state, { type: "playAgain", actor: HOST }, T0 + 13_000));
    expect(seen).toEqual([
      "LOBBY_LOCKED",
      "GAME_STARTED",
      "QUESTION_STARTED",
      "ANSWER_PROGRESS",
      "QUESTION_PAUSED",
      "QUESTION_RESUMED",
      "ANSWER_RESULTS",
      "LEADERBOARD_UPDATE",
      "QUESTION_STARTED",
      "ANSWER_RESULTS",
      // The host accepted a typed answer: the reveal again, with the new figures.
      "ANSWER_RESULTS",
      "LEADERBOARD_UPDATE",
      "QUESTION_STARTED",
      "ANSWER_RESULTS",
      "LEADERBOARD_UPDATE",
      "GAME_OVER",
      "GAME_SNAPSHOT",
    ]);
  });

  it("gets the reveal with the distribution, but no player's result and no typed answer for acceptance", () => {
    const state = newGame();
    apply(state, { type: "start", actor: HOST });
    apply(state, { type: "answer", actor: { role: "player", playerId: 1 }, playerId: 1, answerIndex: 1 });
    const [reveal] = forDisplays(apply(state, { type: "next", actor: HOST }));
    expect(reveal).toMatchObject({
      type: "ANSWER_RESULTS",
      payload: { correctAnswerIndex: 1, answerCounts: [0, 1, 0, 0], answeredCount: 1, playerResults: [] },
    });
    apply(state, { type: "next", actor: HOST });
    apply(state, { type: "next", actor: HOST });
    apply(state, { type: "answer", actor: { role: "player", playerId: 2 }, playerId: 2, text: "pacific" });
    const [typed] = forDisplays(apply(state, { type: "next", actor: HOST }));
    expect(typed.type === "ANSWER_RESULTS" && typed.payload).toMatchObject({ kind: "typeAnswer", acceptedAnswers: ["Pacific"], playerResults: [] });
    expect(typed.payload).not.toHaveProperty("typedAnswers");
  });

  it("sees the lobby's newest names and the count, never every player: its messages do not grow with the game", () => {
    const state = newGame(LOBBY_RECENT_NAMES + 30);
    // Each join is the host's news alone; the display gets the throttled update of the newest names.
    expect(forDisplays(apply(state, { type: "join", clientId: "client-late", nickname: "Late" }))).toEqual([]);
    const [update] = forDisplays([lobbyUpdate(state)!]);
    expect(lobbyUpdate(state)!.to).toBe("viewers");
    expect(update.type === "LOBBY_UPDATE" && update.payload.players.length).toBe(LOBBY_RECENT_NAMES);
    expect(update.type === "LOBBY_UPDATE" && update.payload.playerCount).toBe(LOBBY_RECENT_NAMES + 31);
    const [snapshot] = joinMessages(state, DISPLAY, T0);
    expectNothingPrivate([snapshot]);
    expect(snapshot.type === "GAME_SNAPSHOT" && snapshot.payload.playerCount).toBe(LOBBY_RECENT_NAMES + 31);
  });

  it("comes back to the current screen on a rejoin, in every phase, with nothing private", () => {
    const state = newGame();
    const types = () => joinMessages(state, DISPLAY, T0 + 500).map((message) => message.type);
    expect(types()).toEqual(["GAME_SNAPSHOT"]);
    apply(state, { type: "start", actor: HOST });
    apply(state, { type: "answer", actor: { role: "player", playerId: 1 }, playerId: 1, answerIndex: 0 });
    expect(types()).toEqual(["GAME_SNAPSHOT", "QUESTION_STARTED", "ANSWER_PROGRESS"]);
    expect(joinMessages(state, DISPLAY, T0)[2].payload).toMatchObject({ answeredCount: 1, answerCounts: [] });
    apply(state, { type: "next", actor: HOST });
    expect(types()).toEqual(["GAME_SNAPSHOT", "ANSWER_RESULTS"]);
    expect(joinMessages(state, DISPLAY, T0)[1].payload).toMatchObject({ question: { text: "Capital of France?" }, playerResults: [] });
    apply(state, { type: "next", actor: HOST });
    expect(types()).toEqual(["GAME_SNAPSHOT", "LEADERBOARD_UPDATE"]);
    apply(state, { type: "end", actor: HOST });
    expect(types()).toEqual(["GAME_SNAPSHOT", "GAME_OVER"]);
    expectNothingPrivate(joinMessages(state, DISPLAY, T0));
  });
});

/**
 * Every field of a payload that holds an id, as "TYPE path" ("LOBBY_UPDATE players[].id"): `id` and
 * any `...Id`/`...Ids`. A null one (a display's snapshot says `playerId: null`) names nobody.
 */
function idFields(message: Message): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, `${path}[]`);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (/^id$|Ids?$/.test(key) && inner !== null) found.push(`${message.type} ${at}`);
        walk(inner, at);
      }
    }
  };
  walk(message.payload, "");
  return found;
}

/** The ids a display may hold: the standings' entries (leaderboard, break, rounds, podium), a team's own id, the question's. */
const IDS_A_DISPLAY_MAY_HOLD = [
  /^(LEADERBOARD_UPDATE|ROUND_OVER|GAME_OVER) (rounds\[\]\.)?(players|teams)\[\]\.id$/,
  // A team's id names one of at most 50 teams, never a player.
  /^(GAME_SNAPSHOT|TEAMS_UPDATE) teams\[\]\.id$/,
  /^(QUESTION_STARTED|ANSWER_RESULTS) question\.id$/,
];

describe("a display never holds a player's id outside the standings (issue 17)", () => {
  it("over a whole night in teams: the lobby with joins, team changes, a leave and a kick, the questions, reveals, leaderboards, the break and the podium", () => {
    const state = createGameState({
      gameCode: "ABC234",
      title: "Friday night",
      timeLimitSeconds: 20,
      questions: [QUESTIONS[0]],
      firstRoundTitle: "Round one",
      laterRounds: [{ title: "Round two", timeLimitMs: 20_000, questions: [QUESTIONS[1], QUESTIONS[2]] }],
      settings: { resultsDelayMs: 3000, nextQuestionSeconds: 5, lobbyGraceMs: 60_000 },
    });
    const received: Message[] = [];
    let now = T0;
    /** A command's messages for displays, then what the room sends them between commands, and what a display opening now gets. */
    const step = (command: Command | null): Addressed[] => {
      now += 500;
      const addressed = command ? apply(state, command, now) : [];
      received.push(...forDisplays(addressed));
      received.push(...forDisplays([lobbyUpdate(state), teamsUpdate(state)].filter((entry) => entry !== null)));
      received.push(...forDisplays(answerProgress(state)));
      received.push(...joinMessages(state, DISPLAY, now));
      return addressed;
    };
    const join = (nickname: string, team?: string): number => {
      step({ type: "join", clientId: `client-${nickname}`, nickname, team });
      return state.players.size === 0 ? 0 : [...state.players.values()].find((player) => player.nickname === nickname)!.id;
    };
    const player = (playerId: number) => ({ role: "player", playerId }) as const;

    step(null);
    step({ type: "teamMode", actor: HOST, enabled: true });
    step({ type: "addTeam", actor: HOST, name: "Owls" });
    step({ type: "addTeam", actor: HOST, name: "Empty" });
    const ann = join("Ann", "Owls");
    const bob = join("Bob", "Foxes");
    const cat = join("Cat");
    const dan = join("Dan", "Owls");
    const eve = join("Eve", "Foxes");
    step({ type: "chooseTeam", actor: player(cat), playerId: cat, team: "Foxes" });
    step({ type: "removeTeam", actor: HOST, teamId: state.teamsByName.get("empty")!.id });
    step({ type: "leave", playerId: eve });
    step({ type: "kick", actor: HOST, playerId: dan });
    step({ type: "lock", actor: HOST, locked: true });
    const lobbyNames = received.filter((message) => message.type === "LOBBY_UPDATE").at(-1)!;
    expect(lobbyNames.payload).toEqual({ playerCount: 3, players: [{ nickname: "Ann" }, { nickname: "Bob" }, { nickname: "Cat" }] });

    step({ type: "start", actor: HOST });
    step({ type: "answer", actor: player(ann), playerId: ann, answerIndex: 1 });
    step({ type: "pause", actor: HOST });
    step({ type: "resume", actor: HOST });
    step({ type: "answer", actor: player(bob), playerId: bob, answerIndex: 0 });
    step({ type: "next", actor: HOST }); // the reveal
    step({ type: "next", actor: HOST }); // the leaderboard
    step({ type: "next", actor: HOST }); // the break
    expect(state.phase).toBe("break");
    step({ type: "breakTimer", actor: HOST, minutes: 5 });
    step({ type: "next", actor: HOST }); // round two
    step({ type: "answer", actor: player(cat), playerId: cat, text: "Atlantic" });
    step({ type: "next", actor: HOST });
    step({ type: "acceptTypedAnswer", actor: HOST, questionNumber: 1, text: "Atlantic" });
    step({ type: "next", actor: HOST });
    step({ type: "next", actor: HOST });
    step({ type: "answer", actor: player(ann), playerId: ann, number: 1969 });
    step({ type: "end", actor: HOST });
    expect(state.phase).toBe("finished");

    expect(new Set(received.map((message) => message.type))).toEqual(
      new Set([
        "GAME_SNAPSHOT",
        "LOBBY_UPDATE",
        "TEAMS_UPDATE",
        "LOBBY_LOCKED",
        "GAME_STARTED",
        "QUESTION_STARTED",
        "ANSWER_PROGRESS",
        "QUESTION_PAUSED",
        "QUESTION_RESUMED",
        "ANSWER_RESULTS",
        "LEADERBOARD_UPDATE",
        "ROUND_OVER",
        "BREAK_TIMER",
        "GAME_OVER",
      ]),
    );
    expectNothingPrivate(received);
    const held = received.flatMap(idFields);
    expect(held.filter((field) => !IDS_A_DISPLAY_MAY_HOLD.some((allowed) => allowed.test(field)))).toEqual([]);
    // The standings do name their players: the allowance above is used, not idle.
    expect(held).toContain("GAME_OVER players[].id");
    expect(held).toContain("ROUND_OVER rounds[].teams[].id");
  });

  it("gets the lobby's names as one message for every display and player, however many play", () => {
    const state = newGame(LOBBY_RECENT_NAMES + 5);
    expect(lobbyUpdate(state)!.to).toBe("viewers");
    const [update] = forDisplays([lobbyUpdate(state)!]);
    expect(update.type === "LOBBY_UPDATE" && update.payload.players).toEqual(
      [...state.players.values()].slice(-LOBBY_RECENT_NAMES).map((entry) => ({ nickname: entry.nickname })),
    );
    const [snapshot] = joinMessages(state, DISPLAY, T0);
    expect(snapshot.type === "GAME_SNAPSHOT" && snapshot.payload.players).toEqual(
      [...state.players.values()].slice(-LOBBY_RECENT_NAMES).map((entry) => ({ nickname: entry.nickname })),
    );
  });
});

describe("a display can never act", () => {
  const hostCommands: Command[] = [
    { type: "start", actor: DISPLAY },
    { type: "next", actor: DISPLAY },
    { type: "pause", actor: DISPLAY },
    { type: "resume", actor: DISPLAY },
    { type: "end", actor: DISPLAY },
    { type: "kick", actor: DISPLAY, playerId: 1 },
    { type: "lock", actor: DISPLAY, locked: true },
    { type: "acceptTypedAnswer", actor: DISPLAY, questionNumber: 1, text: "x" },
    { type: "picturesOnPlayers", actor: DISPLAY, enabled: true },
    { type: "playAgain", actor: DISPLAY },
  ];

  it.each(hostCommands.map((command) => [command.type, command] as const))("refuses %s from a display with NOT_HOST and changes nothing", (_, command) => {
    for (const phase of ["lobby", "question", "finished"] as const) {
      const state = newGame();
      if (phase !== "lobby") apply(state, { type: "start", actor: HOST });
      if (phase === "finished") apply(state, { type: "end", actor: HOST });
      const before = JSON.stringify({ phase: state.phase, locked: state.locked, players: state.players.size, index: state.questionIndex });
      const result = transition(state, command, T0 + 100);
      expect(isRejection(result) && result.error.code, `${command.type} in ${phase}`).toBe("NOT_HOST");
      expect(JSON.stringify({ phase: state.phase, locked: state.locked, players: state.players.size, index: state.questionIndex })).toBe(before);
    }
  });

  it("refuses an answer from a display", () => {
    const state = newGame();
    apply(state, { type: "start", actor: HOST });
    const result = transition(state, { type: "answer", actor: DISPLAY, playerId: 1, answerIndex: 1 }, T0 + 100);
    expect(isRejection(result)).toBe(true);
    expect(state.answeredCount).toBe(0);
  });
});

describe("End game", () => {
  const refusals: [string, (state: GameState) => void, Actor, string][] = [
    ["in the lobby", () => {}, HOST, "NOT_STARTED"],
    ["after the podium", (state) => apply(state, { type: "end", actor: HOST }), HOST, "GAME_OVER"],
    ["from a player", () => {}, { role: "player", playerId: 1 }, "NOT_HOST"],
    ["from a guest", () => {}, { role: "guest" }, "NOT_HOST"],
  ];

  it.each(refusals)("is refused %s", (_, setUp, actor, code) => {
    const state = newGame();
    if (code !== "NOT_STARTED") apply(state, { type: "start", actor: HOST });
    setUp(state);
    const result = transition(state, { type: "end", actor }, T0 + 100);
    expect(isRejection(result) && result.error.code).toBe(code);
  });

  it("closes and scores the open question, then goes straight to the podium without a reveal", () => {
    const state = newGame();
    apply(state, { type: "start", actor: HOST });
    apply(state, { type: "answer", actor: { role: "player", playerId: 2 }, playerId: 2, answerIndex: 1 }, T0 + 200);
    const result = transition(state, { type: "end", actor: HOST }, T0 + 1000);
    if (isRejection(result)) throw new Error(result.error.code);
    expect(result.effects.map((effect) => effect.type)).toEqual(["questionClosed", "gameOver"]);
    expect(result.effects[1]).toEqual({ type: "gameOver", endedEarly: true });
    expect(state.phase).toBe("finished");
    expect(state.deadline).toBeNull();
    expect(state.players.get(2)!.score).toBe(1000);
    expect(state.ranking.map((player) => player.id)).toEqual([2, 1]);
    const messages = result.effects.flatMap((effect) => recipientsOf(state, effect, { now: T0 + 1000, hasHosts: true }));
    expect(messages.map((entry) => `${entry.to}: ${entry.type}`)).toEqual(["screens: GAME_OVER", "eachPlayer: GAME_OVER"]);
  });

  it.each([
    ["results", 1],
    ["leaderboard", 2],
  ] as const)("ends from the %s too, and Play Again starts over", (phase, nexts) => {
    const state = newGame();
    apply(state, { type: "start", actor: HOST });
    for (let i = 0; i < nexts; i++) apply(state, { type: "next", actor: HOST });
    expect(state.phase).toBe(phase);
    expect(apply(state, { type: "end", actor: HOST }).map((entry) => `${entry.to}: ${entry.type}`)).toEqual(["screens: GAME_OVER", "eachPlayer: GAME_OVER"]);
    expect(state.phase).toBe("finished");
    // A tick after the end finds nothing to do.
    expect(apply(state, { type: "tick" }, T0 + 60_000)).toEqual([]);
    apply(state, { type: "playAgain", actor: HOST });
    expect(state.phase).toBe("lobby");
  });
});

describe("the browser's state of a display and a remote", () => {
  const snapshot = (role: "host" | "display", phase: "lobby" | "question"): ServerMessage => ({
    type: "GAME_SNAPSHOT",
    payload: { gameCode: "ABC234", title: "T", role, playerId: null, phase, questionNumber: 1, totalQuestions: 3, timeLimit: 20, playerCount: 2, players: [] },
  });

  it("keeps the display and the remote on their own page in every phase", () => {
    for (const [surface, role] of [
      ["display", "display"],
      ["remote", "host"],
    ] as const) {
      let state = gameReducer(initialGameState, { type: "joining", gameCode: "ABC234", nickname: "", isHost: role === "host", surface });
      for (const phase of ["lobby", "question"] as const) {
        state = gameReducer(state, { type: "server", message: snapshot(role, phase), receivedAt: T0 });
        expect(screenFor(state)).toBe(`/${surface}/ABC234`);
      }
      expect(state.isDisplay).toBe(role === "display");
      expect(state.isHost).toBe(role === "host");
    }
    // The host's own screens still follow the phase.
    const host = gameReducer(gameReducer(initialGameState, { type: "joining", gameCode: "ABC234", nickname: "__HOST__", isHost: true }), {
      type: "server",
      message: snapshot("host", "question"),
      receivedAt: T0,
    });
    expect(screenFor(host)).toBe("/host/ABC234");
  });

  it("leaves the game when the host made new links, and keeps the reason to show on its page", () => {
    for (const [surface, role] of [
      ["display", "display"],
      ["remote", "host"],
    ] as const) {
      let state = gameReducer(initialGameState, { type: "joining", gameCode: "ABC234", nickname: "", isHost: role === "host", surface });
      state = gameReducer(state, { type: "server", message: snapshot(role, "question"), receivedAt: T0 });
      const message = "The host made new links for this game, so this one no longer works. Ask the host for the new link.";
      state = gameReducer(state, { type: "server", message: { type: "ERROR", payload: { message, code: "LINK_REPLACED" } }, receivedAt: T0 });
      expect(state).toMatchObject({ gameCode: null, isHost: false, isDisplay: false, joinError: message, joinErrorCode: "LINK_REPLACED" });
      expect(screenFor(state)).toBeNull();
    }
  });
});
