/**
 * Many games at once on one server (issue 18): 100 games of 10 players over real sockets, started
 * together, their group commits sharing the process's one writer and commit clock. Every answer is
 * acknowledged, stored, and counted in the final scores each player is shown.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGame } from "#app/models/game.server";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import { TestClient, startTestServer, type TestServer } from "./harness";

const GAMES = 100;
const PLAYERS_PER_GAME = 10;
const QUESTIONS = [
  { text: "2 + 2?", answers: ["3", "4", "5", "6"], correctAnswerIndex: 1 },
  { text: "3 + 3?", answers: ["6", "7", "8", "9"], correctAnswerIndex: 0 },
];

let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  // All players come from 127.0.0.1: the per-address join limits are not what this measures.
  server = await startTestServer({
    limits: { joinsPerIpPerGamePerMinute: 10_000, joinsPerIpPerMinute: 10_000, playersPerIpPerGame: 10_000, joinsPerGamePerMinute: 10_000 },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.stop();
});

interface Game {
  gameCode: string;
  gameId: number;
  host: TestClient;
  players: { client: TestClient; id: number }[];
}

async function openGame(index: number): Promise<Game> {
  const hostClientId = `many-host-${index}`;
  const quiz = await createQuiz(server.db, { title: `Game ${index}`, description: "", timeLimit: 20, isPublic: false }, { clientId: hostClientId });
  for (const [order, question] of QUESTIONS.entries()) await addQuestion(server.db, { quizId: quiz.id, order, ...question });
  // The host's browser holds the host secret its game keeps (docs/decisions/0044-shared-browsers.md).
  const hostSecret = randomBytes(32).toString("base64url");
  const game = await createGame(server.db, { quizId: quiz.id, hostId: null, creatorClientId: hostClientId, hostClientId, hostSecret });
  const host = await TestClient.connect(server, hostClientId, { cookie: `qn_host=${hostSecret}` });
  clients.push(host);
  await host.joinAsHost(game.gameCode);
  const players = await Promise.all(
    Array.from({ length: PLAYERS_PER_GAME }, async (_, player) => {
      const client = await TestClient.connect(server, `many-${index}-${player}`);
      clients.push(client);
      return { client, id: await client.joinAsPlayer(game.gameCode, `Player ${player + 1}`) };
    }),
  );
  return { gameCode: game.gameCode, gameId: game.id, host, players };
}

/** Plays a game to its podium: every player answers every question, right or wrong by turns; returns each player's final score. */
async function play(game: Game): Promise<number[]> {
  const { gameCode, host, players } = game;
  for (const [index, question] of QUESTIONS.entries()) {
    await Promise.all(
      players.map(async ({ client, id }, player) => {
        await client.next("QUESTION_STARTED", (payload) => payload.questionNumber === index + 1, 15_000);
        const answerIndex = (player + index) % 2 === 0 ? question.correctAnswerIndex : (question.correctAnswerIndex + 1) % 4;
        client.send("SUBMIT_ANSWER", { gameCode, playerId: id, answerIndex });
        expect(await client.next("ANSWER_ACCEPTED", () => true, 15_000)).toEqual({ questionNumber: index + 1, answerIndex });
      }),
    );
  }
  const over = await Promise.all(players.map(({ client }) => client.next("GAME_OVER", () => true, 15_000)));
  await host.next("GAME_OVER", () => true, 15_000);
  return over.map((payload) => payload.you!.score);
}

it(`plays ${GAMES} games of ${PLAYERS_PER_GAME} players at once: every answer acknowledged, stored and in the final scores`, { timeout: 120_000 }, async () => {
  const games: Game[] = [];
  // Opened a few at a time, as hosts would; then started together.
  for (let first = 0; first < GAMES; first += 10) {
    games.push(...(await Promise.all(Array.from({ length: 10 }, (_, offset) => openGame(first + offset)))));
  }
  for (const game of games) game.host.send("START_GAME", { gameCode: game.gameCode });
  const finalScores = await Promise.all(games.map(play));

  const answers = await server.db
    .selectFrom("answers")
    .select(["game_id", "player_id", "correct", "points"])
    .where(
      "game_id",
      "in",
      games.map((game) => game.gameId),
    )
    .execute();
  expect(answers).toHaveLength(GAMES * PLAYERS_PER_GAME * QUESTIONS.length);
  for (const [gameIndex, game] of games.entries()) {
    for (const [player, { id }] of game.players.entries()) {
      const own = answers.filter((answer) => answer.game_id === game.gameId && answer.player_id === id);
      expect(own).toHaveLength(QUESTIONS.length);
      // Every other answer right (see `play`): one of the two questions, each worth points.
      expect(own.filter((answer) => answer.correct === 1)).toHaveLength(1);
      const stored = own.reduce((sum, answer) => sum + answer.points, 0);
      expect(stored).toBeGreaterThan(0);
      expect(finalScores[gameIndex][player]).toBe(stored);
    }
  }
  const finished = await server.db
    .selectFrom("games")
    .select("status")
    .where(
      "id",
      "in",
      games.map((game) => game.gameId),
    )
    .execute();
  expect(finished.map((row) => row.status)).toEqual(games.map(() => "finished"));
});
