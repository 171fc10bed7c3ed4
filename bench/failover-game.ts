/**
 * A game made over the API as a host's browser makes it (a quiz, its questions, the game, the host
 * registered), for the cluster test and the bench's failover mode, through whichever node the
 * proxy picks: any node answers HTTP from the database. Cookies are kept per client id
 * (bench/cookie-jar.ts): a game made signed out is its browser's by the host secret the server set.
 */
import { WS_PATH } from "#app/game/protocol-constants";
import { keepCookies, withCookies } from "./cookie-jar";
import type { Payload } from "./failover-client";
import { benchQuestions, type AnswerKey } from "./questions";

export async function postJson(baseUrl: string, pathname: string, body: unknown, clientId: string): Promise<Payload> {
  const response = await fetch(baseUrl + pathname, {
    method: "POST",
    headers: withCookies(clientId, { "content-type": "application/json", "x-client-id": clientId, origin: baseUrl }),
    body: JSON.stringify(body),
  });
  keepCookies(clientId, response.headers.getSetCookie());
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
  return response.json();
}

export interface MadeGame {
  gameCode: string;
  hostId: string;
  /** Each question's right answer as a player sends it, by question number - 1. */
  keys: AnswerKey[];
}

/** A quiz of `questionCount` four-option questions and a game of it, with `hostId`'s browser as its host. */
export async function makeGame(
  baseUrl: string,
  options: { hostId: string; questionCount: number; timeLimitSeconds: number; title?: string },
): Promise<MadeGame> {
  const { hostId } = options;
  const questions = benchQuestions("choice", options.questionCount, null);
  const quiz = await postJson(baseUrl, "/api/quizzes", { title: options.title ?? "Failover", timeLimit: options.timeLimitSeconds, isPublic: false }, hostId);
  for (const question of questions) await postJson(baseUrl, "/api/questions", { quizId: quiz.id, ...question.body }, hostId);
  const { gameCode } = await postJson(baseUrl, "/api/games", { quizId: quiz.id }, hostId);
  await postJson(baseUrl, `/api/games/${gameCode}/register-host`, { clientId: hostId }, hostId);
  return { gameCode, hostId, keys: questions.map((question) => question.key) };
}

/** The socket URL a browser opens for a game: its client id, and the game a balancer routes by. */
export function gameSocketUrl(baseUrl: string, clientId: string, gameCode: string): string {
  return `${baseUrl.replace(/^http/, "ws")}${WS_PATH}?clientId=${encodeURIComponent(clientId)}&game=${encodeURIComponent(gameCode)}`;
}

/** The host's upgrade headers: its cookies (the host secret of a game made signed out). */
export function hostHeaders(hostId: string): Record<string, string> {
  return withCookies(hostId, {}) as Record<string, string>;
}
