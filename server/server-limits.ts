/**
 * The server's abuse limits (docs/configuration.md): what each counts, their defaults, the values a
 * server runs with, and the rules RateLimits counts them by. server.ts reads them from the
 * configuration; app/env/env.server.ts leaves an unset variable to these defaults.
 */
import type { AiConfig } from "#app/ai/quiz-generator.server";
import { DEFAULT_LIMIT_RULES, type LimitRules } from "#app/limits/rate-limits.server";
import { DEFAULT_CODE_LOOKUP_LIMITS } from "#server/code-lookups";
import { DEFAULT_JOIN_LIMITS, type JoinLimits } from "#server/socket/join-limits";
import { DEFAULT_MAX_SOCKETS_PER_ADDRESS } from "#server/socket/upgrade";

export interface ServerLimits extends JoinLimits {
  /** Players in one game (MAX_PLAYERS_PER_GAME). */
  maxPlayersPerGame: number;
  /** Per client address per hour; 0 is no limit. */
  guestsPerIpPerHour: number;
  registrationsPerIpPerHour: number;
  aiQuizzesPerIpPerHour: number;
  /** AI generations (attempts) the whole server may make per UTC day; 0 is no limit (AI_DAILY_LIMIT). */
  aiQuizzesPerDay: number;
  quizzesPerIpPerHour: number;
  questionsPerIpPerHour: number;
  gamesPerIpPerHour: number;
  /** Pictures uploaded (IMAGE_LIMIT_PER_IP). */
  imagesPerIpPerHour: number;
  /** Bytes of new pictures one address may add per UTC day; 0 is no limit (IMAGE_MB_PER_IP_PER_DAY). */
  imageBytesPerIpPerDay: number;
  /** Bytes of new pictures the whole server takes per UTC day; 0 is no limit (IMAGE_MB_PER_DAY). */
  imageBytesPerDay: number;
  /** Uploads are refused while the database's disk has less free; 0 turns the check off (MIN_FREE_DISK_MB). */
  minFreeDiskBytes: number;
  /** Game sockets one address may hold open (SOCKETS_PER_IP). */
  socketsPerIp: number;
  /** Unknown game codes one address may look up per 10 minutes; 0 is no limit (CODE_LOOKUP_FAILURES_PER_IP). */
  codeLookupFailuresPerIp: number;
  /** Team lists (GET /api/games/:code/teams) per address per minute; 0 is no limit (TEAMS_LIMIT_PER_IP). */
  teamsLookupsPerIpPerMinute: number;
}

const rules = DEFAULT_LIMIT_RULES;
const MB = 1024 * 1024;

/** AI generations per UTC day for the whole server when OPENAI_API_KEY is set and AI_DAILY_LIMIT is not (a key spends money). */
export const DEFAULT_AI_DAILY_LIMIT = 200;

export const DEFAULT_LIMITS: ServerLimits = {
  ...DEFAULT_JOIN_LIMITS,
  maxPlayersPerGame: 10_000,
  guestsPerIpPerHour: rules.guest.points,
  registrationsPerIpPerHour: rules.register.points,
  aiQuizzesPerIpPerHour: rules.aiAddress.points,
  aiQuizzesPerDay: 0,
  quizzesPerIpPerHour: rules.quiz.points,
  questionsPerIpPerHour: rules.question.points,
  gamesPerIpPerHour: rules.game.points,
  imagesPerIpPerHour: rules.image.points,
  imageBytesPerIpPerDay: rules.imageBytesAddress.points,
  imageBytesPerDay: rules.imageBytesServer.points,
  minFreeDiskBytes: 500 * MB,
  socketsPerIp: DEFAULT_MAX_SOCKETS_PER_ADDRESS,
  codeLookupFailuresPerIp: DEFAULT_CODE_LOOKUP_LIMITS.failuresPerAddress,
  teamsLookupsPerIpPerMinute: DEFAULT_CODE_LOOKUP_LIMITS.teamListsPerAddressPerMinute,
};

/**
 * The limits a server runs with: the defaults, what the configuration sets, and a daily cap on AI
 * generations whenever an OpenAI key is set without one (AI_DAILY_LIMIT=0 turns it off).
 */
export function serverLimitsOf(config: { limits?: Partial<ServerLimits>; ai?: AiConfig }): ServerLimits {
  const set = Object.entries(config.limits ?? {}).filter(([, value]) => value !== undefined);
  const aiQuizzesPerDay = config.ai?.apiKey ? DEFAULT_AI_DAILY_LIMIT : DEFAULT_LIMITS.aiQuizzesPerDay;
  return { ...DEFAULT_LIMITS, aiQuizzesPerDay, ...Object.fromEntries(set) };
}

/** The creation limits as rules for RateLimits; 0 turns one off. */
export function limitRules(limits: ServerLimits): LimitRules {
  const per = (points: number) => (points > 0 ? points : Number.POSITIVE_INFINITY);
  return {
    ...rules,
    guest: { ...rules.guest, points: per(limits.guestsPerIpPerHour) },
    register: { ...rules.register, points: per(limits.registrationsPerIpPerHour) },
    aiAddress: { ...rules.aiAddress, points: per(limits.aiQuizzesPerIpPerHour) },
    aiServer: { ...rules.aiServer, points: per(limits.aiQuizzesPerDay) },
    quiz: { ...rules.quiz, points: per(limits.quizzesPerIpPerHour) },
    question: { ...rules.question, points: per(limits.questionsPerIpPerHour) },
    game: { ...rules.game, points: per(limits.gamesPerIpPerHour) },
    image: { ...rules.image, points: per(limits.imagesPerIpPerHour) },
    imageBytesAddress: { ...rules.imageBytesAddress, points: per(limits.imageBytesPerIpPerDay) },
    imageBytesServer: { ...rules.imageBytesServer, points: per(limits.imageBytesPerDay) },
  };
}
