/**
 * Teams and a night of rounds over real sockets (issue 17; docs/decisions/0033-team-scoring.md,
 * docs/decisions/0034-a-night-of-rounds.md): two teams of uneven size play a night of two rounds to
 * its podium, driven by the host and, after the break, by a remote; a display watches and can do
 * none of the host's new commands; what is stored is what the screens showed.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hostNewNight } from "#app/models/game-night.server";
import { hostSecretOf } from "#app/sessions/host-secret.server";
import { TestClient, cookiesOf, startTestServer, type TestServer } from "./harness";

let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await server.stop();
});

async function connect(clientId?: string): Promise<TestClient> {
  const client = await TestClient.connect(server, clientId);
  clients.push(client);
  return client;
}

async function quiz(hostClientId: string, title: string, questions: { text: string; answers: string[]; correctAnswerIndex: number }[]): Promise<number> {
  const created = await server.api("/api/quizzes", {
    body: { title, description: "For tests", timeLimit: 30, isPublic: true, creatorId: 1 },
    clientId: hostClientId,
  });
  expect(created.status).toBe(201);
  for (const [order, question] of questions.entries()) {
    expect((await server.api("/api/questions", { body: { quizId: created.body.id, order, ...question }, clientId: hostClientId })).status).toBe(201);
  }
  return created.body.id;
}

/** A night of two rounds ("General" with two questions, "Pictures" with one), hosted by a fresh browser. */
async function night() {
  const hostClientId = `host-${randomUUID()}`;
  const general = await quiz(hostClientId, "General knowledge", [
    { text: "2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
    { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
  ]);
  const pictures = await quiz(hostClientId, "Picture round", [
    { text: "Largest planet?", answers: ["Mars", "Venus", "Jupiter", "Earth"], correctAnswerIndex: 2 },
  ]);
  const hosted = await hostNewNight(
    server.db,
    { title: "Friday night", rounds: [{ quizId: general, title: "Round 1: General" }, { quizId: pictures }] },
    // The browser's host secret, which the server set it when it made the quizzes (docs/decisions/0044).
    { clientId: hostClientId, hostSecret: hostSecretOf(cookiesOf(hostClientId)) },
  );
  if (hosted.status !== "ok") throw new Error(`night refused: ${hosted.status}`);
  const keys = await server.db.selectFrom("games").select(["display_key", "remote_key"]).where("id", "=", hosted.value.id).executeTakeFirstOrThrow();
  return { gameCode: hosted.value.gameCode, gameId: hosted.value.id, hostClientId, displayKey: keys.display_key!, remoteKey: keys.remote_key! };
}

describe("a night of two rounds played in teams", () => {
  it("plays to the evening's podium with team averages, a break with the running total, and a remote starting round two", { timeout: 30_000 }, async () => {
    const { gameCode, gameId, hostClientId, displayKey, remoteKey } = await night();
    const host = await connect(hostClientId);
    const snapshot = await host.joinAsHost(gameCode);
    expect(snapshot).toMatchObject({ title: "Friday night", round: { number: 1, total: 2, title: "Round 1: General" } });
    const display = await connect();
    display.send("WATCH_GAME", { gameCode, key: displayKey });
    await display.next("GAME_SNAPSHOT");

    host.send("SET_TEAM_MODE", { gameCode, enabled: true });
    host.send("ADD_TEAM", { gameCode, name: "Owls" });
    host.send("ADD_TEAM", { gameCode, name: "Foxes" });
    expect((await display.next("TEAMS_UPDATE", (update) => update.teams.length === 2)).teams.map((team) => team.name)).toEqual(["Owls", "Foxes"]);

    // Three Owls and one Fox: two pick on the join form, two on the waiting screen.
    const players = await Promise.all(["Ann", "Bob", "Cat", "Dan"].map(() => connect()));
    const [ann, bob, cat, dan] = players;
    ann.send("JOIN_GAME", { gameCode, nickname: "Ann", team: "owls" });
    const annId = (await ann.next("PLAYER_JOINED")).player.id;
    expect((await ann.next("TEAM_CHOSEN")).teamId).not.toBeNull();
    bob.send("JOIN_GAME", { gameCode, nickname: "Bob", team: "Owls" });
    await bob.next("PLAYER_JOINED");
    const catId = await cat.joinAsPlayer(gameCode, "Cat");
    cat.send("CHOOSE_TEAM", { gameCode, team: "Owls" });
    await cat.next("TEAM_CHOSEN");
    const danId = await dan.joinAsPlayer(gameCode, "Dan");
    dan.send("CHOOSE_TEAM", { gameCode, team: "Foxes" });
    await dan.next("TEAM_CHOSEN");
    expect((await display.next("TEAMS_UPDATE", (update) => update.teams.every((team) => team.members > 0))).teams).toEqual([
      { id: expect.any(Number), name: "Owls", members: 3 },
      { id: expect.any(Number), name: "Foxes", members: 1 },
    ]);

    // A display can watch, never set up teams nor run the break.
    for (const [type, payload] of [
      ["SET_TEAM_MODE", { gameCode, enabled: false }],
      ["ADD_TEAM", { gameCode, name: "Crows" }],
      ["REMOVE_TEAM", { gameCode, teamId: 1 }],
      ["SET_BREAK_TIMER", { gameCode, minutes: 5 }],
      ["NEXT_QUESTION", { gameCode }],
    ] as const) {
      display.send(type, payload);
      expect((await display.next("ERROR")).code).toBe("NOT_HOST");
    }

    host.send("START_GAME", { gameCode });
    // Round 1, question 1: Ann and Dan right at once; Bob wrong; Cat right later.
    await Promise.all(players.map((player) => player.next("QUESTION_STARTED", (question) => question.round?.number === 1)));
    for (const [player, id, pick] of [
      [ann, annId, 1],
      [dan, danId, 1],
      [bob, null, 0],
    ] as const) {
      player.send("SUBMIT_ANSWER", { gameCode, playerId: id ?? (await playerIdOf(gameId, "Bob")), answerIndex: pick });
      await player.next("ANSWER_ACCEPTED");
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    cat.send("SUBMIT_ANSWER", { gameCode, playerId: catId, answerIndex: 1 });
    await cat.next("ANSWER_ACCEPTED");
    const leaderboard = await ann.next("LEADERBOARD_UPDATE");
    const points = await pointsOf(gameId);
    const owls = (points.Ann + points.Bob + points.Cat) / 3;
    expect(leaderboard.teams).toEqual([
      { rank: 1, id: expect.any(Number), name: "Foxes", score: points.Dan },
      { rank: 2, id: expect.any(Number), name: "Owls", score: Math.round(owls) },
    ]);
    expect(leaderboard.you!.team).toEqual({ id: expect.any(Number), name: "Owls", rank: 2, score: Math.round(owls), contribution: Math.round(points.Ann / 3) });
    expect(leaderboard.round).toEqual({ number: 1, total: 2, title: "Round 1: General" });

    // Question 2: nobody answers; the clock is skipped by the host. Then the break.
    await ann.next("QUESTION_STARTED");
    host.send("NEXT_QUESTION", { gameCode });
    const roundOver = await display.next("ROUND_OVER", undefined, 10_000);
    expect(roundOver).toMatchObject({ round: { number: 1, total: 2, title: "Round 1: General" }, nextRoundTitle: "Picture round", breakEndsAt: null });
    expect(roundOver.players.map((entry) => [entry.nickname, entry.score])).toEqual(
      Object.entries(points)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 4),
    );
    expect(roundOver.rounds).toHaveLength(1);
    expect((await dan.next("ROUND_OVER")).you).toMatchObject({ rank: expect.any(Number), score: points.Dan, team: { name: "Foxes", rank: 1 } });

    // "Back in 5 minutes", then the host's phone (a remote) starts round 2.
    host.send("SET_BREAK_TIMER", { gameCode, minutes: 5 });
    const timer = await ann.next("BREAK_TIMER");
    // Five minutes from the host's press, as of the moment the message was made.
    expect(timer.breakEndsAt! - timer.serverNow).toBeGreaterThan(299_000);
    expect(timer.breakEndsAt! - timer.serverNow).toBeLessThanOrEqual(300_000);
    const remote = await connect();
    remote.send("JOIN_GAME", { gameCode, nickname: "__HOST__", key: remoteKey });
    expect(await remote.next("GAME_SNAPSHOT")).toMatchObject({ role: "host", phase: "break" });
    expect((await remote.next("ROUND_OVER")).breakEndsAt).toBe(timer.breakEndsAt);
    remote.send("NEXT_QUESTION", { gameCode });
    const second = await dan.next("QUESTION_STARTED", (question) => question.round?.number === 2);
    expect(second).toMatchObject({ questionNumber: 1, totalQuestions: 1, round: { number: 2, total: 2, title: "Picture round" } });
    expect(second.question.text).toBe("Largest planet?");
    for (const [player, id] of [
      [ann, annId],
      [dan, danId],
    ] as const) {
      player.send("SUBMIT_ANSWER", { gameCode, playerId: id, answerIndex: 2 });
      await player.next("ANSWER_ACCEPTED");
    }
    remote.send("NEXT_QUESTION", { gameCode });
    const over = await ann.next("GAME_OVER", undefined, 10_000);
    const totals = await scoresOf(gameId);
    expect(over.players.map((entry) => [entry.nickname, entry.score])).toEqual(
      Object.entries(totals)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 4),
    );
    expect(over.rounds!.map((round) => round.title)).toEqual(["Round 1: General", "Picture round"]);
    expect(over.teams!.map((team) => team.name).sort()).toEqual(["Foxes", "Owls"]);
    // The evening's total is every round's points; the stored team scores are what the podium showed.
    const allPoints = await pointsOf(gameId);
    expect(totals).toEqual(allPoints);
    const stored = await server.db.selectFrom("games").select(["evening", "status"]).where("id", "=", gameId).executeTakeFirstOrThrow();
    expect(stored.status).toBe("finished");
    const evening = JSON.parse(stored.evening!) as { teams: { name: string; score: number }[]; roundResults: unknown[] };
    expect(evening.roundResults).toHaveLength(2);
    for (const team of over.teams!) expect(Math.round(evening.teams.find((candidate) => candidate.name === team.name)!.score)).toBe(team.score);
    expect((await server.db.selectFrom("answers").select("round").where("game_id", "=", gameId).execute()).map((row) => row.round).sort()).toEqual([
      0, 0, 0, 0, 1, 1,
    ]);
  });

  it("refuses a team name that is too long or offensive at the join, and keeps the player out", async () => {
    const { gameCode, hostClientId } = await night();
    const host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    host.send("SET_TEAM_MODE", { gameCode, enabled: true });
    await host.next("TEAMS_UPDATE");
    const eve = await connect();
    eve.send("JOIN_GAME", { gameCode, nickname: "Eve", team: "x".repeat(25) });
    expect((await eve.next("ERROR")).code).toBe("BAD_MESSAGE");
    eve.send("JOIN_GAME", { gameCode, nickname: "Eve", team: "shit" });
    expect((await eve.next("ERROR")).code).toBe("TEAM_NAME_NOT_ALLOWED");
    await eve.expectNone("PLAYER_JOINED", 100);
  });
});

async function playerIdOf(gameId: number, nickname: string): Promise<number> {
  const row = await server.db.selectFrom("players").select("id").where("game_id", "=", gameId).where("nickname", "=", nickname).executeTakeFirstOrThrow();
  return row.id;
}

/** Each player's points over all stored answers of the game. */
async function pointsOf(gameId: number): Promise<Record<string, number>> {
  const rows = await server.db
    .selectFrom("players")
    .leftJoin("answers", (join) => join.onRef("answers.game_id", "=", "players.game_id").onRef("answers.player_id", "=", "players.id"))
    .select(["players.nickname", (eb) => eb.fn.coalesce(eb.fn.sum<number>("answers.points"), eb.lit(0)).as("points")])
    .where("players.game_id", "=", gameId)
    .groupBy(["players.game_id", "players.id"])
    .execute();
  return Object.fromEntries(rows.map((row) => [row.nickname, Number(row.points)]));
}

async function scoresOf(gameId: number): Promise<Record<string, number>> {
  const rows = await server.db.selectFrom("players").select(["nickname", "score"]).where("game_id", "=", gameId).execute();
  return Object.fromEntries(rows.map((row) => [row.nickname, row.score]));
}
