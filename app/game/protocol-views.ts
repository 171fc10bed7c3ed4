/**
 * The parts the server's messages are made of (app/game/protocol.ts): a player, a standing, a team,
 * a question as players see it, a result. Schemas for the server's tests of what it sends; the
 * browser takes their types (docs/product.md#protocol).
 */
import { z } from "zod";
import { MAX_OPTIONS, POINTS_OPTIONS } from "./question-kinds";
import { QUESTION_KINDS } from "./kinds";

/**
 * A name on the lobby's list as players and displays see it: the name alone, no player id (issue
 * 17). Strict, so a list that carried ids would fail the protocol's check in the tests.
 */
export const LobbyNameSchema = z.strictObject({ nickname: z.string() });
/** A player as hosts know it, with the id they remove it by. */
export const PlayerRefSchema = LobbyNameSchema.extend({ id: z.number().int() });
/** A snapshot's player: with its id for a host, the name alone for a player or a display. */
export const LobbyPlayerSchema = LobbyNameSchema.extend({ id: z.number().int().optional() });
export const StandingSchema = z.object({ rank: z.number().int(), id: z.number().int(), nickname: z.string(), score: z.number().int() });
/** A team, or a player in a round's own standings: by name. */
export const NamedStandingSchema = z.object({ rank: z.number().int(), id: z.number().int(), name: z.string(), score: z.number().int() });
/** A player's team as its phone shows it: where the team stands and what this player added to it. */
export const OwnTeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  rank: z.number().int(),
  score: z.number().int(),
  contribution: z.number().int(),
});
export const OwnStandingSchema = z.object({ rank: z.number().int(), score: z.number().int(), team: OwnTeamSchema.optional() });
export const PhaseSchema = z.enum(["lobby", "question", "results", "leaderboard", "break", "finished"]);
export const TeamRefSchema = z.object({ id: z.number().int(), name: z.string(), members: z.number().int() });
/** Where a night is: its round's number (from 1), how many there are, and the round's title. */
export const RoundInfoSchema = z.object({ number: z.number().int(), total: z.number().int(), title: z.string() });
/** A finished round of a night: its own standings, players (top 10) and teams. */
export const RoundResultSchema = z.object({ title: z.string(), players: z.array(NamedStandingSchema), teams: z.array(NamedStandingSchema) });
/** Answers per option, as many as the question has options (none for typed kinds). */
export const AnswerCountsSchema = z.array(z.number().int()).max(MAX_OPTIONS);
export const KindSchema = z.enum(QUESTION_KINDS);
/** What a player answered beyond an option: picks (multi-select), a text, or a number. */
export const AnswerValueSchema = z.union([z.array(z.number().int()), z.string(), z.number()]).nullable();
export const PublicQuestionSchema = z.object({
  id: z.number().int(),
  kind: KindSchema,
  text: z.string(),
  answers: z.array(z.string()),
  points: z.enum(POINTS_OPTIONS),
  /** The picture's id (fetched from /images/:id, never sent through the socket), or null. */
  image: z.string().nullable(),
  /** Players show the picture too (the small rendition); otherwise only the host does. */
  imageOnPlayers: z.boolean(),
});
export const NumberSpreadSchema = z.object({
  count: z.number().int(),
  min: z.number(),
  max: z.number(),
  median: z.number(),
  buckets: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
});
export const TypedAnswerSummarySchema = z.object({ text: z.string(), count: z.number().int(), correct: z.boolean() });

export const PlayerResultSchema = z.object({
  playerId: z.number().int(),
  nickname: z.string(),
  answerIndex: z.number().int().nullable(),
  value: AnswerValueSchema.optional(),
  correct: z.boolean(),
  points: z.number().int(),
  responseTimeMs: z.number().int().nullable(),
  score: z.number().int(),
  streak: z.number().int(),
  rank: z.number().int(),
});

export type PlayerResult = z.infer<typeof PlayerResultSchema>;
export type Standing = z.infer<typeof StandingSchema>;
export type PlayerRef = z.infer<typeof PlayerRefSchema>;
export type LobbyName = z.infer<typeof LobbyNameSchema>;
export type LobbyPlayer = z.infer<typeof LobbyPlayerSchema>;
export type OwnStanding = z.infer<typeof OwnStandingSchema>;
export type OwnTeam = z.infer<typeof OwnTeamSchema>;
export type NamedStanding = z.infer<typeof NamedStandingSchema>;
export type TeamRef = z.infer<typeof TeamRefSchema>;
export type RoundInfo = z.infer<typeof RoundInfoSchema>;
export type RoundResultView = z.infer<typeof RoundResultSchema>;
export type PublicQuestion = z.infer<typeof PublicQuestionSchema>;
export type NumberSpreadView = z.infer<typeof NumberSpreadSchema>;
export type TypedAnswerSummary = z.infer<typeof TypedAnswerSummarySchema>;
export type AnswerValueView = z.infer<typeof AnswerValueSchema>;
