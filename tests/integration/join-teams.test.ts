/**
 * The join form of a game played in teams (docs/decisions/0033-team-scoring.md), its loader and
 * action called with real Requests against a real SQLite database and the game hub, as a browser
 * without JavaScript would: the form offers the game's teams, passes the choice on to the lobby,
 * and comes back with the teams when it was posted without knowing them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type DB } from "#db/connection.server";
import { isRejection, transition, type Command } from "#app/game/engine/index";
import { createGame } from "#app/models/game.server";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import * as teamsApi from "#app/routes/api.games_.$gameCode.teams";
import * as joinRoute from "#app/routes/join";
import { GameHub } from "#server/game-hub";
import type { GameRoom } from "#server/game-room";
import { silentLogger } from "#server/logger";

let dir: string;
let db: DB;
let hub: GameHub;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-join-teams-"));
  db = openDatabase(path.join(dir, "join-teams.sqlite"));
  await migrateToLatest(db);
  hub = new GameHub(db);
});

afterAll(async () => {
  await hub.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function newGame(): Promise<string> {
  const quiz = await createQuiz(db, { title: "Pub quiz", description: "", timeLimit: 20, isPublic: true }, { clientId: "host" });
  await addQuestion(db, { quizId: quiz.id, text: "Q?", answers: ["a", "b"], correctAnswerIndex: 0, order: 0 });
  return (await createGame(db, { quizId: quiz.id, hostId: null, creatorClientId: "host", hostClientId: "host" })).gameCode;
}

/** The live game's engine state takes a host's command, as its room would. */
async function host(gameCode: string, ...commands: Command[]): Promise<void> {
  const room = (await hub.getRoom(gameCode)) as GameRoom;
  for (const command of commands) {
    const result = transition(room.state, command, Date.now());
    if (isRejection(result)) throw new Error(result.error.message);
  }
}

type Handler = (args: any) => Promise<unknown>;

async function call(handler: Handler, url: string, form?: Record<string, string>): Promise<{ status: number; body: any; location: string | null }> {
  const request = new Request(`http://localhost${url}`, { method: form ? "POST" : "GET", body: form ? new URLSearchParams(form) : undefined });
  const result = await handler({ request, params: {}, context: { db, hub, logger: silentLogger } });
  if (result instanceof Response) return { status: result.status, body: null, location: result.headers.get("location") };
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const wrapped = result as { data: unknown; init: ResponseInit | null };
    return { status: wrapped.init?.status ?? 200, body: wrapped.data, location: null };
  }
  return { status: 200, body: result, location: null };
}

const HOST = { role: "host" } as const;

describe("/join of a game played in teams", () => {
  let teamGame: string;
  let plainGame: string;

  beforeAll(async () => {
    teamGame = await newGame();
    plainGame = await newGame();
    await host(
      teamGame,
      { type: "teamMode", actor: HOST, enabled: true },
      { type: "addTeam", actor: HOST, name: "Table 1" },
      { type: "addTeam", actor: HOST, name: "Table 2" },
      { type: "join", clientId: "kim", nickname: "Kim", team: "Table 2" },
    );
  });

  it("offers the teams with their sizes when the code is known", async () => {
    const reply = await call(joinRoute.loader, `/join?code=${teamGame}`);
    expect(reply.body.teams).toEqual({
      gameCode: teamGame,
      started: false,
      teams: [
        { id: expect.any(Number), name: "Table 1", members: 0 },
        { id: expect.any(Number), name: "Table 2", members: 1 },
      ],
    });
  });

  it("tells the page the teams as the player types the code, and nothing for another game", async () => {
    const ask = async (code: string) => {
      const response = (await teamsApi.loader({
        request: new Request("http://localhost"),
        params: { gameCode: code },
        context: { db, hub, logger: silentLogger },
      } as any)) as Response;
      expect(response.headers.get("cache-control")).toBe("no-store");
      return response.json();
    };
    expect(await ask(teamGame.toLowerCase())).toMatchObject({ gameCode: teamGame, started: false, teams: [{ name: "Table 1" }, { name: "Table 2" }] });
    expect(await ask(plainGame)).toBeNull();
    expect(await ask("ZZZZ99")).toBeNull();
  });

  it("offers no team for a game not played in teams, or an unknown code", async () => {
    expect((await call(joinRoute.loader, `/join?code=${plainGame}`)).body.teams).toBeNull();
    expect((await call(joinRoute.loader, "/join?code=ZZZZ99")).body.teams).toBeNull();
    expect((await call(joinRoute.loader, "/join")).body.teams).toBeNull();
  });

  it.each([
    [{ team: "team:Table 1", newTeam: "" }, "Table+1"],
    [{ team: "new", newTeam: "The  Owls" }, "The+Owls"],
  ])("passes the team chosen (%j) on to the lobby", async (choice, team) => {
    const reply = await call(joinRoute.action, "/join", { gameCode: teamGame, nickname: "Sam", ...choice });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe(`/waiting/${teamGame}?nickname=Sam&team=${team}`);
  });

  it("goes to the lobby without a team when the player picks later", async () => {
    const reply = await call(joinRoute.action, "/join", { gameCode: teamGame, nickname: "Sam", team: "later", newTeam: "" });
    expect(reply.location).toBe(`/waiting/${teamGame}?nickname=Sam`);
  });

  it("comes back with the teams when the form did not offer them, keeping what was typed", async () => {
    const reply = await call(joinRoute.action, "/join", { gameCode: teamGame.toLowerCase(), nickname: "Sam" });
    expect(reply.status).toBe(200);
    expect(reply.body.values).toEqual({ gameCode: teamGame.toLowerCase(), nickname: "Sam" });
    expect(reply.body.teams.teams.map((team: { name: string }) => team.name)).toEqual(["Table 1", "Table 2"]);
  });

  it("asks for the new team's name beside its field, with the teams offered again", async () => {
    const reply = await call(joinRoute.action, "/join", { gameCode: teamGame, nickname: "Sam", team: "new", newTeam: " " });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual({ newTeam: "Give the team a name." });
    expect(reply.body.values).toEqual({ gameCode: teamGame, nickname: "Sam", team: "new", newTeam: " " });
    expect(reply.body.teams.gameCode).toBe(teamGame);
  });

  it("goes straight to the lobby of a game not played in teams", async () => {
    const reply = await call(joinRoute.action, "/join", { gameCode: plainGame, nickname: "Sam" });
    expect(reply.location).toBe(`/waiting/${plainGame}?nickname=Sam`);
  });

  it("offers the teams it has, and no new one, once the game has begun", async () => {
    await host(teamGame, { type: "start", actor: HOST });
    const reply = await call(joinRoute.loader, `/join?code=${teamGame}`);
    expect(reply.body.teams).toMatchObject({ gameCode: teamGame, started: true });
  });
});
