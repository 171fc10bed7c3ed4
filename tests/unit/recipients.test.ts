/** Who receives what: each effect's messages and their recipients, and what a (re)joining viewer is sent. */
import { describe, expect, it } from "vitest";
import {
  createGameState,
  isRejection,
  joinMessages,
  lobbyUpdate,
  answerProgress,
  recipientsOf,
  transition,
  type Addressed,
  type Audience,
  type Command,
  type EngineQuestion,
  type GameState,
} from "#app/game/engine/index";
import { CloseCode } from "#app/game/protocol";

const T0 = 1_700_000_000_000;
const QUESTIONS: EngineQuestion[] = [
  { id: 101, kind: "choice", text: "Capital of France?", answers: ["Rome", "Paris", "Berlin", "Madrid"], correctAnswerIndex: 1 },
  { id: 102, kind: "choice", text: "2 + 2?", answers: ["3", "5", "4", "22"], correctAnswerIndex: 2 },
];
const HOST = { role: "host" } as const;
const WITH_HOST: Audience = { now: T0, hasHosts: true };

function newGame(): GameState {
  return createGameState({
    gameCode: "ABC234",
    title: "T",
    timeLimitSeconds: 20,
    questions: QUESTIONS,
    settings: { resultsDelayMs: 3000, nextQuestionSeconds: 5, lobbyGraceMs: 60_000 },
  });
}

/** Applies an accepted command; its effects' messages as "recipients: TYPE" lines. */
function run(state: GameState, command: Command, at = T0, audience: Audience = WITH_HOST): string[] {
  return addressedBy(state, command, at, audience).map(describe_);
}

function addressedBy(state: GameState, command: Command, at = T0, audience: Audience = WITH_HOST): Addressed[] {
  const result = transition(state, command, at);
  if (isRejection(result)) throw new Error(`rejected: ${result.error.code}`);
  return result.effects.flatMap((effect) => recipientsOf(state, effect, { ...audience, now: at }));
}

function describe_(addressed: Addressed): string {
  return addressed.to === "player" ? `player ${addressed.playerId}: ${addressed.type}` : `${addressed.to}: ${addressed.type}`;
}

/** A personal message as the player it is for would see its payload. */
function personalPayload(addressed: Addressed, playerId: number): any {
  if (addressed.to !== "eachPlayer") throw new Error(`not personal: ${describe_(addressed)}`);
  return { ...addressed.shared, [addressed.key]: addressed.each(playerId) };
}

function lobbyOfTwo(): GameState {
  const state = newGame();
  run(state, { type: "join", clientId: "c1", nickname: "Ann" });
  run(state, { type: "join", clientId: "c2", nickname: "Bob" });
  return state;
}

describe("who receives each effect's messages", () => {
  it("follows a whole game, in order", () => {
    const state = newGame();
    const steps: [Command, string[]][] = [
      [{ type: "join", clientId: "c1", nickname: "Ann" }, ["hosts: PLAYER_JOINED"]],
      [{ type: "join", clientId: "c2", nickname: "Bob" }, ["hosts: PLAYER_JOINED"]],
      // A player coming back is told by its join reply, not by a broadcast.
      [{ type: "join", clientId: "c1", nickname: "Ann" }, []],
      [{ type: "lock", actor: HOST, locked: true }, ["everyone: LOBBY_LOCKED"]],
      [{ type: "start", actor: HOST }, ["everyone: GAME_STARTED", "everyone: QUESTION_STARTED"]],
      [{ type: "answer", actor: { role: "player", playerId: 1 }, playerId: 1, answerIndex: 1 }, ["player 1: ANSWER_ACCEPTED"]],
      [{ type: "next", actor: HOST }, ["hosts: ANSWER_RESULTS", "displays: ANSWER_RESULTS", "eachPlayer: ANSWER_RESULTS"]],
      [{ type: "next", actor: HOST }, ["screens: LEADERBOARD_UPDATE", "eachPlayer: LEADERBOARD_UPDATE"]],
      [{ type: "next", actor: HOST }, ["everyone: QUESTION_STARTED"]],
      [{ type: "next", actor: HOST }, ["hosts: ANSWER_RESULTS", "displays: ANSWER_RESULTS", "eachPlayer: ANSWER_RESULTS"]],
      [{ type: "next", actor: HOST }, ["screens: LEADERBOARD_UPDATE", "eachPlayer: LEADERBOARD_UPDATE"]],
      [{ type: "next", actor: HOST }, ["screens: GAME_OVER", "eachPlayer: GAME_OVER"]],
      [{ type: "playAgain", actor: HOST }, ["hosts: GAME_SNAPSHOT", "displays: GAME_SNAPSHOT", "eachPlayer: GAME_SNAPSHOT"]],
    ];
    steps.forEach(([command, expected], i) => expect(run(state, command), `step ${i}: ${command.type}`).toEqual(expected));
  });

  it("times each player's answer from the question's own broadcast", () => {
    const state = lobbyOfTwo();
    const [, question] = addressedBy(state, { type: "start", actor: HOST });
    expect(question).toMatchObject({ to: "everyone", type: "QUESTION_STARTED", opensQuestion: true });
  });

  it("never shows players the correct answer while the question is open", () => {
    const state = lobbyOfTwo();
    const [, question] = addressedBy(state, { type: "start", actor: HOST });
    expect(JSON.stringify(question)).not.toContain("correctAnswerIndex");
  });

  it("gives each player only its own result, and hosts everyone's", () => {
    const state = lobbyOfTwo();
    run(state, { type: "start", actor: HOST });
    run(state, { type: "answer", actor: { role: "player", playerId: 1 }, playerId: 1, answerIndex: 1 });
    const [forHosts, , forPlayers] = addressedBy(state, { type: "next", actor: HOST });
    expect(forHosts.to === "hosts" && forHosts.type === "ANSWER_RESULTS" && forHosts.payload.playerResults.map((result) => result.playerId)).toEqual([1, 2]);
    expect(personalPayload(forPlayers, 2).playerResults).toEqual([expect.objectContaining({ playerId: 2, correct: false })]);
    expect(personalPayload(forPlayers, 1).playerResults).toEqual([expect.objectContaining({ playerId: 1, correct: true })]);
  });

  it("builds the hosts' full results only when a host is there to see them", () => {
    const state = lobbyOfTwo();
    run(state, { type: "start", actor: HOST });
    expect(run(state, { type: "next", actor: HOST }, T0, { now: T0, hasHosts: false })).toEqual(["displays: ANSWER_RESULTS", "eachPlayer: ANSWER_RESULTS"]);
  });

  it("tells each player its own standing with the leaderboard", () => {
    const state = lobbyOfTwo();
    run(state, { type: "start", actor: HOST });
    run(state, { type: "answer", actor: { role: "player", playerId: 2 }, playerId: 2, answerIndex: 1 });
    run(state, { type: "next", actor: HOST });
    const [, forPlayers] = addressedBy(state, { type: "next", actor: HOST });
    expect(personalPayload(forPlayers, 2).you).toMatchObject({ rank: 1 });
    expect(personalPayload(forPlayers, 1).you).toMatchObject({ rank: 2, score: 0 });
  });

  it("tells the kicked player why and closes its connection; the hosts see it leave", () => {
    const state = lobbyOfTwo();
    expect(addressedBy(state, { type: "kick", actor: HOST, playerId: 2 })).toEqual([
      { to: "hosts", type: "PLAYER_LEFT", payload: { playerId: 2 } },
      {
        to: "player",
        playerId: 2,
        type: "ERROR",
        payload: { message: expect.any(String), code: "KICKED", key: "KICKED" },
        close: { code: CloseCode.KICKED, reason: "Removed by the host" },
      },
    ]);
  });

  it("sends lobby updates to players and displays in the lobby only, and answer counts to hosts and displays while a question is open", () => {
    const state = lobbyOfTwo();
    expect(lobbyUpdate(state)).toMatchObject({ to: "viewers", type: "LOBBY_UPDATE", payload: { playerCount: 2 } });
    expect(answerProgress(state)).toEqual([]);
    run(state, { type: "start", actor: HOST });
    expect(lobbyUpdate(state)).toBeNull();
    expect(answerProgress(state).map(describe_)).toEqual(["hosts: ANSWER_PROGRESS", "displays: ANSWER_PROGRESS"]);
  });
});

describe("the lobby's names (issue 17: a display holds no player id)", () => {
  it("names the newest players without their ids to players and displays, in one message for all of them", () => {
    const state = lobbyOfTwo();
    expect(lobbyUpdate(state)).toEqual({
      to: "viewers",
      type: "LOBBY_UPDATE",
      payload: { playerCount: 2, players: [{ nickname: "Ann" }, { nickname: "Bob" }] },
    });
    const bob = state.players.get(2)!;
    const [, snapshot] = joinMessages(state, { role: "player", player: bob }, T0);
    expect(snapshot.type === "GAME_SNAPSHOT" && snapshot.payload.players).toEqual([{ nickname: "Ann" }, { nickname: "Bob" }]);
    // A player still learns its own id, from its join reply and its snapshot.
    expect(snapshot.type === "GAME_SNAPSHOT" && snapshot.payload.playerId).toBe(2);
    const [display] = joinMessages(state, { role: "display" }, T0);
    expect(display.type === "GAME_SNAPSHOT" && display.payload.players).toEqual([{ nickname: "Ann" }, { nickname: "Bob" }]);
  });

  it("keeps every player with its id for hosts, who remove players by it", () => {
    const state = lobbyOfTwo();
    const [snapshot] = joinMessages(state, HOST, T0);
    expect(snapshot.type === "GAME_SNAPSHOT" && snapshot.payload.players).toEqual([
      { id: 1, nickname: "Ann" },
      { id: 2, nickname: "Bob" },
    ]);
    expect(run(state, { type: "join", clientId: "c3", nickname: "Cat" })).toEqual(["hosts: PLAYER_JOINED"]);
  });

  it("sends Play Again's snapshot without ids to displays and players, with them to hosts", () => {
    const state = lobbyOfTwo();
    run(state, { type: "start", actor: HOST });
    run(state, { type: "end", actor: HOST });
    const [forHosts, forDisplays, forPlayers] = addressedBy(state, { type: "playAgain", actor: HOST });
    expect(forHosts.to === "hosts" && forHosts.type === "GAME_SNAPSHOT" && forHosts.payload.players.map((entry) => entry.id)).toEqual([1, 2]);
    expect(forDisplays.to === "displays" && forDisplays.type === "GAME_SNAPSHOT" && forDisplays.payload.players).toEqual([
      { nickname: "Ann" },
      { nickname: "Bob" },
    ]);
    expect(personalPayload(forPlayers, 1)).toMatchObject({ playerId: 1, players: [{ nickname: "Ann" }, { nickname: "Bob" }] });
    expect(personalPayload(forPlayers, 1).players[0]).not.toHaveProperty("id");
  });
});

describe("what a (re)joining viewer is sent", () => {
  it("tells a host of every player, then the current phase with the answer counts", () => {
    const state = lobbyOfTwo();
    run(state, { type: "start", actor: HOST });
    expect(joinMessages(state, HOST, T0).map((message) => message.type)).toEqual([
      "GAME_SNAPSHOT",
      "PLAYER_JOINED",
      "PLAYER_JOINED",
      "QUESTION_STARTED",
      "ANSWER_PROGRESS",
    ]);
  });

  it("tells a player of itself, then the question and its own answer already given", () => {
    const state = lobbyOfTwo();
    run(state, { type: "start", actor: HOST });
    run(state, { type: "answer", actor: { role: "player", playerId: 1 }, playerId: 1, answerIndex: 3 });
    const ann = state.players.get(1)!;
    const messages = joinMessages(state, { role: "player", player: ann }, T0);
    expect(messages.map((message) => message.type)).toEqual(["PLAYER_JOINED", "GAME_SNAPSHOT", "QUESTION_STARTED", "ANSWER_ACCEPTED"]);
    expect(messages[3].payload).toEqual({ questionNumber: 1, answerIndex: 3 });
  });

  it("shows a player only its own result in the results phase, with the question", () => {
    const state = lobbyOfTwo();
    run(state, { type: "start", actor: HOST });
    run(state, { type: "next", actor: HOST });
    const [, , results] = joinMessages(state, { role: "player", player: state.players.get(2)! }, T0);
    expect(results.type === "ANSWER_RESULTS" && results.payload.playerResults.map((result) => result.playerId)).toEqual([2]);
    expect(results.type === "ANSWER_RESULTS" && results.payload.question?.text).toBe("Capital of France?");
  });

  it("sends nothing past the snapshot in the lobby", () => {
    const state = lobbyOfTwo();
    expect(joinMessages(state, { role: "player", player: state.players.get(1)! }, T0).map((message) => message.type)).toEqual([
      "PLAYER_JOINED",
      "GAME_SNAPSHOT",
    ]);
  });
});
