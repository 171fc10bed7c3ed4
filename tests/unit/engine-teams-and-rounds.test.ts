/**
 * Teams and a night of rounds in the engine (issue 17; docs/decisions/0033-team-scoring.md,
 * docs/decisions/0034-a-night-of-rounds.md): a team scores the average of its members' points per
 * question, whatever its size; a night chains rounds with a break and a running total; both
 * survive a restart.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createGameState,
  eveningToStored,
  gameOverView,
  isRejection,
  joinMessages,
  leaderboardView,
  ownStanding,
  recipientsOf,
  restoreGameState,
  roundOverView,
  transition,
  type Actor,
  type AnswerRecord,
  type Command,
  type Effect,
  type EngineQuestion,
  type ErrorCode,
  type GameState,
  type RoundPlan,
} from "#app/game/engine/index";
import { ServerMessageSchema } from "#app/game/protocol";
import { MAX_TEAMS } from "#app/game/rules";

const T0 = 1_700_000_000_000;
const LIMIT_MS = 20_000;
const HOST: Actor = { role: "host" };
const asPlayer = (playerId: number): Actor => ({ role: "player", playerId });
const TICK: Command = { type: "tick" };
const NEXT: Command = { type: "next", actor: HOST };

const choice = (id: number, correct = 1): EngineQuestion => ({
  id,
  kind: "choice",
  text: `Q${id}`,
  answers: ["a", "b", "c", "d"],
  correctAnswerIndex: correct,
});
const answerCmd = (playerId: number, answerIndex: number): Command => ({ type: "answer", actor: asPlayer(playerId), playerId, answerIndex });

function ok(state: GameState, command: Command, now: number): Effect[] {
  const result = transition(state, command, now);
  if (isRejection(result)) throw new Error(`unexpected rejection ${result.error.code}: ${result.error.message}`);
  return result.effects;
}

function refused(state: GameState, command: Command, now: number): ErrorCode {
  const result = transition(state, command, now);
  if (!isRejection(result)) throw new Error(`expected a rejection, got ${JSON.stringify(result.effects.map((effect) => effect.type))}`);
  return result.error.code;
}

function accepted(effects: Effect[]): AnswerRecord {
  const effect = effects.find((candidate) => candidate.type === "answerAccepted");
  if (!effect || effect.type !== "answerAccepted") throw new Error("no answer accepted");
  return effect.answer;
}

function teamGame(questions = [choice(1), choice(2)], laterRounds?: RoundPlan[]): GameState {
  return createGameState({
    gameCode: "TEAM42",
    title: "Friday night",
    timeLimitSeconds: LIMIT_MS / 1000,
    questions,
    laterRounds,
    firstRoundTitle: laterRounds ? "Round one" : undefined,
    settings: { resultsDelayMs: 3000, nextQuestionSeconds: 5 },
  });
}

function join(state: GameState, nickname: string, team?: string, now = T0): number {
  const effects = ok(state, { type: "join", clientId: `client-${nickname}`, nickname, team }, now);
  const joined = effects[0];
  if (joined.type !== "playerJoined") throw new Error("no join");
  return joined.player.id;
}

/** Walks a closed question's results and leaderboard to the next phase. */
function throughLeaderboard(state: GameState, now: number): number {
  ok(state, TICK, (now += 3000));
  ok(state, TICK, (now += 5000));
  return now;
}

describe("team mode in the lobby", () => {
  it("lets the host turn it on and name teams, and players join a team by name, any case, made if new", () => {
    const state = teamGame();
    expect(refused(state, { type: "addTeam", actor: HOST, name: "Table 1" }, T0)).toBe("NO_TEAM_MODE");
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    ok(state, { type: "addTeam", actor: HOST, name: "Table 1" }, T0);
    const ann = join(state, "Ann", "table 1");
    const bob = join(state, "Bob", "  Table   4 ");
    expect(state.teams.size).toBe(2);
    expect(state.players.get(ann)!.teamId).toBe(state.teamsByName.get("table 1")!.id);
    expect(state.teamsByName.get("table 4")!.name).toBe("Table 4");
    expect(state.teamsByName.get("table 4")!.members).toBe(1);
    // A player changes its mind in the lobby.
    ok(state, { type: "chooseTeam", actor: asPlayer(bob), playerId: bob, team: "Table 1" }, T0);
    expect(state.teamsByName.get("table 1")!.members).toBe(2);
    expect(state.teamsByName.get("table 4")!.members).toBe(0);
    // Nobody chooses for someone else, and a player is not the host.
    expect(refused(state, { type: "chooseTeam", actor: asPlayer(ann), playerId: bob, team: "X" }, T0)).toBe("NOT_YOUR_PLAYER");
    expect(refused(state, { type: "addTeam", actor: asPlayer(ann), name: "Mine" }, T0)).toBe("NOT_HOST");
    expect(refused(state, { type: "teamMode", actor: { role: "display" }, enabled: false }, T0)).toBe("NOT_HOST");
  });

  it("refuses a bad, offensive or one-too-many team name and keeps the player out of the game", () => {
    const state = teamGame();
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    expect(refused(state, { type: "join", clientId: "c1", nickname: "Ann", team: "x".repeat(25) }, T0)).toBe("TEAM_NAME");
    expect(refused(state, { type: "join", clientId: "c1", nickname: "Ann", team: "fuck" }, T0)).toBe("TEAM_NAME_NOT_ALLOWED");
    expect(state.players.size).toBe(0);
    for (let index = 0; index < MAX_TEAMS; index++) ok(state, { type: "addTeam", actor: HOST, name: `Table ${index}` }, T0);
    expect(refused(state, { type: "addTeam", actor: HOST, name: "One more" }, T0)).toBe("TOO_MANY_TEAMS");
    // An existing team can still be joined.
    join(state, "Ann", "TABLE 7");
    expect(state.teamsByName.get("table 7")!.members).toBe(1);
  });

  it("removes a team and its players pick again; at the start the teamless go to the smallest team", () => {
    const state = teamGame();
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    const ann = join(state, "Ann", "Red");
    const bob = join(state, "Bob", "Red");
    join(state, "Cat", "Blue");
    const dan = join(state, "Dan", "Green");
    const green = state.teamsByName.get("green")!;
    const effects = ok(state, { type: "removeTeam", actor: HOST, teamId: green.id }, T0);
    expect(effects).toEqual([{ type: "teamsChanged", players: [state.players.get(dan)] }]);
    expect(state.players.get(dan)!.teamId).toBeNull();
    ok(state, { type: "start", actor: HOST }, T0);
    expect(state.teamsByName.get("blue")!.members).toBe(2);
    expect(state.players.get(dan)!.teamId).toBe(state.teamsByName.get("blue")!.id);
    expect([ann, bob].map((id) => state.players.get(id)!.teamId)).toEqual([state.teamsByName.get("red")!.id, state.teamsByName.get("red")!.id]);
    // Fixed now.
    expect(refused(state, { type: "chooseTeam", actor: asPlayer(ann), playerId: ann, team: "Blue" }, T0)).toBe("TEAMS_FIXED");
    expect(refused(state, { type: "addTeam", actor: HOST, name: "Late" }, T0)).toBe("TEAMS_FIXED");
  });

  it("gives each player a team of its own when nobody made one (one phone per table), and a late joiner the smallest team", () => {
    const state = teamGame();
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    join(state, "Table 4");
    join(state, "Table 5");
    ok(state, { type: "start", actor: HOST }, T0);
    expect([...state.teams.values()].map((team) => [team.name, team.members])).toEqual([
      ["Table 4", 1],
      ["Table 5", 1],
    ]);
    const late = join(state, "Late", undefined, T0 + 1000);
    expect(state.players.get(late)!.teamId).not.toBeNull();
    expect([...state.teams.values()].reduce((sum, team) => sum + team.members, 0)).toBe(3);
  });
});

describe("team scoring", () => {
  it("scores the average of the members' points per question, so a team of one is not beaten by a team of three for being smaller", () => {
    const state = teamGame([choice(1)]);
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    const solo = join(state, "Solo", "Solo");
    const [a, b, c] = ["A", "B", "C"].map((name) => join(state, name, "Trio"));
    ok(state, { type: "start", actor: HOST }, T0);
    // Everyone answers at once, in full-points time; one of the trio is wrong.
    const points = [solo, a, b].map((id) => accepted(ok(state, answerCmd(id, 1), T0 + 100)).points);
    expect(points).toEqual([1000, 1000, 1000]);
    ok(state, answerCmd(c, 0), T0 + 100);
    expect(state.phase).toBe("results");
    const soloTeam = state.teamsByName.get("solo")!;
    const trio = state.teamsByName.get("trio")!;
    expect(soloTeam.score).toBe(1000);
    expect(trio.score).toBeCloseTo(2000 / 3);
    expect([soloTeam.rank, trio.rank]).toEqual([1, 2]);
    // Each member's contribution is its share of the average; together they make the team's score.
    expect(state.players.get(a)!.teamPoints).toBeCloseTo(1000 / 3);
    expect(ownStanding(state, state.players.get(a)!).team).toEqual({ id: trio.id, name: "Trio", rank: 2, score: 667, contribution: 333 });
    expect(leaderboardView(state).teams).toEqual([
      { rank: 1, id: soloTeam.id, name: "Solo", score: 1000 },
      { rank: 2, id: trio.id, name: "Trio", score: 667 },
    ]);
  });

  it("counts a member who dropped out before answering as not playing that question, and one who stayed but did not answer as 0", () => {
    const state = teamGame([choice(1)]);
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    const [a, b, c] = ["A", "B", "C"].map((name) => join(state, name, "Trio"));
    ok(state, { type: "start", actor: HOST }, T0);
    ok(state, { type: "disconnect", playerId: c }, T0 + 50);
    ok(state, answerCmd(a, 1), T0 + 100);
    ok(state, TICK, T0 + LIMIT_MS);
    expect(state.phase).toBe("results");
    // A answered (1000), B stayed and did not (0), C was gone: (1000 + 0) / 2.
    expect(state.teamsByName.get("trio")!.score).toBe(500);
    void b;
  });

  it("adds an accepted typed answer's points to the team as its share of that question", () => {
    const typed: EngineQuestion = { id: 9, kind: "typeAnswer", text: "Capital of Peru?", answers: [], correctAnswerIndex: -1, acceptedAnswers: ["Lima"] };
    const state = teamGame([typed]);
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    const [a, b] = ["A", "B"].map((name) => join(state, name, "Duo"));
    ok(state, { type: "start", actor: HOST }, T0);
    ok(state, { type: "answer", actor: asPlayer(a), playerId: a, text: "Lima" }, T0 + 100);
    ok(state, { type: "answer", actor: asPlayer(b), playerId: b, text: "Lima, Peru" }, T0 + 100);
    const duo = state.teamsByName.get("duo")!;
    expect(duo.score).toBe(500);
    ok(state, { type: "acceptTypedAnswer", actor: HOST, questionNumber: 1, text: "lima peru" }, T0 + 2000);
    expect(duo.score).toBe(1000);
    expect(state.players.get(b)!.teamPoints).toBe(500);
  });

  it("keeps team scores equal to the sum of per-question member averages over random games (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 2, maxLength: 8 }),
        fc.array(fc.array(fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }), { minLength: 8, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        (teamOfPlayer, answersPerQuestion) => {
          const questions = answersPerQuestion.map((_, index) => choice(index + 1, 2));
          const state = teamGame(questions);
          ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
          const ids = teamOfPlayer.map((team, index) => join(state, `P${index}`, `Team ${team}`));
          ok(state, { type: "start", actor: HOST }, T0);
          let now = T0;
          const expected = new Map<string, number>();
          for (const [questionIndex, answers] of answersPerQuestion.entries()) {
            const byTeam = new Map<string, number[]>();
            for (const [index, id] of ids.entries()) {
              const pick = answers[index];
              const points = pick === null || pick === undefined ? 0 : accepted(ok(state, answerCmd(id, pick), now + 100 + index)).points;
              const team = `Team ${teamOfPlayer[index]}`;
              byTeam.set(team, [...(byTeam.get(team) ?? []), points]);
            }
            if (state.phase === "question") ok(state, TICK, now + LIMIT_MS);
            for (const [team, points] of byTeam) expected.set(team, (expected.get(team) ?? 0) + points.reduce((sum, p) => sum + p, 0) / points.length);
            if (questionIndex < questions.length - 1) now = throughLeaderboard(state, now + LIMIT_MS);
          }
          for (const [name, score] of expected) expect(state.teamsByName.get(name.toLowerCase())!.score).toBeCloseTo(score, 6);
          // Members' contributions add up to their team's score.
          for (const team of state.teams.values()) {
            const contributions = [...state.players.values()].filter((player) => player.teamId === team.id).reduce((sum, player) => sum + player.teamPoints, 0);
            expect(contributions).toBeCloseTo(team.score, 6);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("restores teams, members, scores and contributions after a restart", () => {
    const state = teamGame([choice(1), choice(2)]);
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    const ids = [join(state, "A", "Red"), join(state, "B", "Red"), join(state, "C", "Blue")];
    ok(state, { type: "start", actor: HOST }, T0);
    for (const id of ids) ok(state, answerCmd(id, 1), T0 + 100);
    const restored = restore(state, T0 + 60_000);
    expect(restored.teamMode).toBe(true);
    expect([...restored.teams.values()].map(({ name, members, score, rank }) => ({ name, members, score, rank }))).toEqual(
      [...state.teams.values()].map(({ name, members, score, rank }) => ({ name, members, score, rank })),
    );
    expect(ownStanding(restored, restored.players.get(ids[0])!)).toEqual(ownStanding(state, state.players.get(ids[0])!));
  });
});

function restore(state: GameState, now: number): GameState {
  const [first, ...later] = state.rounds;
  return restoreGameState(
    {
      gameCode: state.gameCode,
      title: state.title,
      timeLimitSeconds: first.timeLimitMs / 1000,
      questions: first.questions,
      firstRoundTitle: state.rounds.length > 1 ? first.title : undefined,
      laterRounds: later,
      settings: state.settings,
    },
    { phase: state.phase, round: state.round, questionIndex: state.questionIndex, questionStartedAt: state.questionStartedAt, evening: eveningToStored(state) },
    [...state.players.values()].map(({ id, nickname, clientId, joinedAt, teamId, teamPoints, score, roundScore }) => ({
      id,
      nickname,
      clientId,
      joinedAt,
      teamId,
      teamPoints,
      earlierRoundsScore: score - roundScore,
    })),
    [...state.players.values()].flatMap((player) => (player.lastAnswer && player.lastAnswer.questionIndex <= state.questionIndex ? [player.lastAnswer] : [])),
    now,
  );
}

describe("a night of rounds", () => {
  const night = () => teamGame([choice(1)], [{ title: "Picture round", timeLimitMs: 10_000, questions: [choice(11, 2), choice(12, 3)] }]);

  it("breaks after a round with the running total, starts the next round on the host's Next, and ends on the evening's total", () => {
    const state = night();
    const ann = join(state, "Ann");
    const bob = join(state, "Bob");
    ok(state, { type: "start", actor: HOST }, T0);
    ok(state, answerCmd(ann, 1), T0 + 100);
    ok(state, answerCmd(bob, 0), T0 + 100);
    const effects = throughLeaderboard(state, T0 + 100);
    expect(state.phase).toBe("break");
    void effects;
    const view = roundOverView(state, T0 + 9000);
    expect(view.round).toEqual({ number: 1, total: 2, title: "Round one" });
    expect(view.nextRoundTitle).toBe("Picture round");
    expect(view.players.map((entry) => [entry.nickname, entry.score])).toEqual([
      ["Ann", 1000],
      ["Bob", 0],
    ]);
    expect(view.rounds).toEqual([
      { title: "Round one", players: [expect.objectContaining({ name: "Ann", score: 1000 }), expect.objectContaining({ name: "Bob", score: 0 })], teams: [] },
    ]);
    expect(ServerMessageSchema.safeParse({ type: "ROUND_OVER", payload: view }).success).toBe(true);
    // The break waits for the host: no tick moves it, and its countdown only tells the room.
    expect(state.deadline).toBeNull();
    ok(state, TICK, T0 + 3_600_000);
    expect(state.phase).toBe("break");
    expect(refused(state, { type: "breakTimer", actor: asPlayer(ann), minutes: 10 }, T0 + 10_000)).toBe("NOT_HOST");
    expect(refused(state, { type: "breakTimer", actor: HOST, minutes: 61 }, T0 + 10_000)).toBe("BAD_BREAK");
    ok(state, { type: "breakTimer", actor: HOST, minutes: 10 }, T0 + 10_000);
    expect(state.breakEndsAt).toBe(T0 + 10_000 + 600_000);
    expect(refused(state, { type: "answer", actor: asPlayer(ann), playerId: ann, answerIndex: 1 }, T0 + 11_000)).toBe("QUESTION_CLOSED");

    const next = ok(state, NEXT, T0 + 20_000);
    expect(next.map((effect) => effect.type)).toEqual(["roundStarted", "questionStarted"]);
    expect(state.round).toBe(1);
    expect(state.questions.map((question) => question.id)).toEqual([11, 12]);
    expect(state.timeLimitMs).toBe(10_000);
    expect(state.breakEndsAt).toBeNull();
    // Bob wins this round; Ann keeps her lead on the evening.
    ok(state, answerCmd(bob, 2), T0 + 20_100);
    ok(state, answerCmd(ann, 0), T0 + 20_100);
    let now = throughLeaderboard(state, T0 + 20_100);
    ok(state, answerCmd(bob, 0), now + 100);
    ok(state, answerCmd(ann, 3), now + 100);
    now = throughLeaderboard(state, now + 100);
    expect(state.phase).toBe("finished");
    const over = gameOverView(state);
    expect(over.players.map((entry) => [entry.nickname, entry.score])).toEqual([
      ["Ann", 2000],
      ["Bob", 1000],
    ]);
    expect(over.rounds!.map((round) => [round.title, round.players.map((entry) => `${entry.name} ${entry.score}`)])).toEqual([
      ["Round one", ["Ann 1000", "Bob 0"]],
      ["Picture round", ["Ann 1000", "Bob 1000"]],
    ]);
    expect(ServerMessageSchema.safeParse({ type: "GAME_OVER", payload: over }).success).toBe(true);
    expect(refused(state, { type: "playAgain", actor: HOST }, now)).toBe("NIGHT_OVER");
  });

  it("sends the break to every viewer, each player with its own place, and catches a rejoining player up on it", () => {
    const state = night();
    const ann = join(state, "Ann");
    ok(state, { type: "start", actor: HOST }, T0);
    ok(state, answerCmd(ann, 1), T0 + 100);
    ok(state, TICK, T0 + 3100);
    const effects = ok(state, TICK, T0 + 8100);
    expect(effects).toEqual([{ type: "roundOver" }]);
    const addressed = recipientsOf(state, effects[0], { now: T0 + 8100, hasHosts: true });
    expect(addressed.map((entry) => entry.to)).toEqual(["screens", "eachPlayer"]);
    const catchUp = joinMessages(state, { role: "player", player: state.players.get(ann)! }, T0 + 9000);
    const last = catchUp[catchUp.length - 1];
    expect(last.type).toBe("ROUND_OVER");
    expect(last.type === "ROUND_OVER" && last.payload.you).toEqual({ rank: 1, score: 1000 });
  });

  it("keeps a night with teams mid-break across a restart: the round, the totals, the rounds' standings and the countdown", () => {
    const state = night();
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    const ann = join(state, "Ann", "Red");
    const bob = join(state, "Bob", "Blue");
    ok(state, { type: "start", actor: HOST }, T0);
    ok(state, answerCmd(ann, 1), T0 + 100);
    ok(state, answerCmd(bob, 1), T0 + 5100);
    throughLeaderboard(state, T0 + 5100);
    ok(state, { type: "breakTimer", actor: HOST, minutes: 5 }, T0 + 20_000);
    const restored = restore(state, T0 + 60_000);
    expect(restored.phase).toBe("break");
    expect(restored.deadline).toBeNull();
    expect(restored.breakEndsAt).toBe(T0 + 20_000 + 300_000);
    expect(roundOverView(restored, T0 + 60_000)).toEqual(roundOverView(state, T0 + 60_000));
    // The players come back; the next round starts from the restored state with the evening's totals carried.
    join(restored, "Ann");
    join(restored, "Bob");
    ok(restored, NEXT, T0 + 400_000);
    expect(restored.round).toBe(1);
    expect(restored.questions[0].id).toBe(11);
    ok(restored, answerCmd(bob, 2), T0 + 400_100);
    ok(restored, answerCmd(ann, 0), T0 + 400_100);
    expect(restored.players.get(bob)!.score).toBe(state.players.get(bob)!.score + 1000);
    expect(restored.players.get(ann)!.roundScore).toBe(0);
    expect(restored.teamsByName.get("blue")!.roundScore).toBe(1000);
  });

  it("ends a night early on the host's End game with the round so far among the rounds", () => {
    const state = night();
    const ann = join(state, "Ann");
    ok(state, { type: "start", actor: HOST }, T0);
    ok(state, answerCmd(ann, 1), T0 + 100);
    throughLeaderboard(state, T0 + 100);
    ok(state, NEXT, T0 + 20_000);
    ok(state, { type: "end", actor: HOST }, T0 + 21_000);
    expect(state.phase).toBe("finished");
    expect(gameOverView(state).rounds!.map((round) => round.title)).toEqual(["Round one", "Picture round"]);
  });
});

describe("more tables than teams", () => {
  it("gives the first MAX_TEAMS players a team each and shares the smallest teams among the rest", () => {
    const state = teamGame();
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    for (let index = 0; index < MAX_TEAMS + 5; index++) join(state, `Table ${index}`);
    ok(state, { type: "start", actor: HOST }, T0);
    expect(state.teams.size).toBe(MAX_TEAMS);
    expect([...state.players.values()].every((player) => player.teamId !== null)).toBe(true);
    expect(Math.max(...[...state.teams.values()].map((team) => team.members))).toBe(2);
  });
});

describe("a removed player", () => {
  it("leaves its team one member smaller and tells the screens, while the team keeps the points it added", () => {
    const state = teamGame([choice(1), choice(2)]);
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    const ann = join(state, "Ann", "Red");
    const bob = join(state, "Bob", "Red");
    ok(state, { type: "start", actor: HOST }, T0);
    ok(state, answerCmd(ann, 1), T0 + 100);
    ok(state, answerCmd(bob, 1), T0 + 100);
    const red = state.teamsByName.get("red")!;
    expect(red.score).toBe(1000);
    const effects = ok(state, { type: "kick", actor: HOST, playerId: bob }, T0 + 1000);
    expect(effects.map((effect) => effect.type)).toEqual(["playerKicked", "teamsChanged"]);
    expect(red.members).toBe(1);
    expect(red.score).toBe(1000);
  });
});

describe("restoring a night in its second round", () => {
  it("carries the earlier rounds' points and right answers into the evening's totals", () => {
    const state = teamGame([choice(1)], [{ title: "Picture round", timeLimitMs: 10_000, questions: [choice(11, 2), choice(12, 3)] }]);
    const restored = restoreGameState(
      {
        gameCode: state.gameCode,
        title: "Friday night",
        timeLimitSeconds: 20,
        questions: [choice(1)],
        firstRoundTitle: "Round one",
        laterRounds: state.rounds.slice(1),
      },
      { phase: "leaderboard", round: 1, questionIndex: 0, questionStartedAt: T0 },
      [{ id: 1, nickname: "Ann", clientId: "client-Ann", joinedAt: T0, earlierRoundsScore: 1000, earlierRoundsCorrect: 1 }],
      [{ playerId: 1, questionId: 11, questionIndex: 0, answerIndex: 2, value: null, responseTimeMs: 100, correct: true, points: 1000, answeredAt: T0 + 100 }],
      T0 + 1000,
    );
    const ann = restored.players.get(1)!;
    expect([ann.score, ann.roundScore, ann.correctCount]).toEqual([2000, 1000, 2]);
    expect(restored.questions.map((question) => question.id)).toEqual([11, 12]);
  });
});

describe("a latecomer in a team game", () => {
  it("may join an existing team by name, but a new name puts it in the smallest team instead of making one", () => {
    const state = teamGame();
    ok(state, { type: "teamMode", actor: HOST, enabled: true }, T0);
    join(state, "Ann", "Red");
    join(state, "Bob", "Red");
    join(state, "Cat", "Blue");
    ok(state, { type: "start", actor: HOST }, T0);
    const dan = join(state, "Dan", "red", T0 + 1000);
    expect(state.players.get(dan)!.teamId).toBe(state.teamsByName.get("red")!.id);
    const eve = join(state, "Eve", "Brand new", T0 + 2000);
    expect(state.teams.size).toBe(2);
    expect(state.players.get(eve)!.teamId).toBe(state.teamsByName.get("blue")!.id);
  });
});
