/**
 * Writes quiz questions with a language model through the `openai` SDK: any OpenAI-compatible
 * server (OpenAI itself, or a local Ollama or llama.cpp through OPENAI_BASE_URL). Structured output
 * holds the reply to a JSON schema (every question kind in one flat, strict-mode shape); each
 * question is still checked by the rules every question obeys, the reply is retried once when
 * unusable, and the options of choice and multi-select questions are shuffled. Every failure
 * becomes a reason (api.server gives each its HTTP status) and a message a host can act on.
 *
 * `generate` returns its failures as data rather than throwing: server.ts builds the generator from
 * the source tree while the routes that call it run from the app build, and an error class would
 * not be the same class on both sides.
 */
import { randomInt } from "node:crypto";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { checkGeneratedQuiz, mixShortfall, modelReplySchema, shuffleAnswers, type GeneratedQuestion } from "./generated-quiz";
import { quizPrompt, retryPrompt, type PromptMessage, type PromptRequest } from "./prompt.server";
import type { Logger } from "#server/logger";
import { appError, type AppError } from "#app/i18n/app-error";
import { englishOf } from "#app/i18n/coded";

export interface AiConfig {
  apiKey?: string;
  /** An OpenAI-compatible server's API root, e.g. http://127.0.0.1:11434/v1 for Ollama. */
  baseURL?: string;
  model: string;
  /** The whole generation, retry included, must finish within this. */
  timeoutMs: number;
}

export const AI_NOT_CONFIGURED =
  "AI quiz generation is not configured on this server. To turn it on, set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server such as Ollama) and restart Quiz Night.";

/** A key, or a base URL of a local server that needs none, turns generation on. */
export function isAiConfigured(config: AiConfig | null | undefined): config is AiConfig {
  return Boolean(config && (config.apiKey || config.baseURL));
}

/** How the operator reads the setting at boot; never shows the key. */
export function describeAiConfig(config: AiConfig | null | undefined): string {
  if (!isAiConfigured(config)) return "AI quiz generation is off: set OPENAI_API_KEY or OPENAI_BASE_URL to turn it on.";
  return `AI quiz generation is on: model ${config.model}${config.baseURL ? ` at ${config.baseURL}` : ""}.`;
}

const REPLY_CUT_OFF = "the reply was cut off before it ended";
const REPLY_EMPTY = "the reply was empty";

const cryptoRandom = () => randomInt(2 ** 47) / 2 ** 47;

type Attempt = { ok: true; questions: GeneratedQuestion[] } | { ok: false; reason: string; summary: string; error: AppError; reply: string };

/** Why no quiz came back. */
export type GenerationFailureReason =
  /** This user's previous generation is still running. */
  | "busy"
  /** Two replies that broke the rules. */
  | "unusable"
  /** The model refused the topic. */
  | "declined"
  | "timeout"
  /** The caller went away. */
  | "cancelled"
  | "unreachable"
  /** The service is rate limiting this server. */
  | "service-busy"
  /** Anything else the service did wrong: credentials, an unknown model, a 5xx. */
  | "service-failed";

/** A failure: its reason, and what the host is told, raised with its code (`error`) and in English (`message`, the catalog's words). */
export type GenerationResult = { ok: true; questions: GeneratedQuestion[] } | { ok: false; reason: GenerationFailureReason; message: string; error: AppError };

/** A failure with its reason and its code, thrown and caught within this module only. */
class GenerationFailure extends Error {
  constructor(
    readonly reason: GenerationFailureReason,
    readonly error: AppError,
  ) {
    super(englishOf(error));
  }
}

function failed(reason: GenerationFailureReason, error: AppError): Extract<GenerationResult, { ok: false }> {
  return { ok: false, reason, message: englishOf(error), error };
}

export class QuizGenerator {
  private readonly client: OpenAI;
  /** Users with a generation under way: one at a time each, so a double click costs one call. */
  private readonly busy = new Set<number>();

  constructor(
    private readonly config: AiConfig,
    private readonly random: () => number = cryptoRandom,
  ) {
    this.client = new OpenAI({
      // A local server needs no key, but the SDK insists on one.
      apiKey: config.apiKey || "no-key",
      baseURL: config.baseURL,
      timeout: config.timeoutMs,
      // One quick retry of a dropped connection or a 5xx; the deadline bounds the whole.
      maxRetries: 1,
    });
  }

  /**
   * Questions of the requested kinds, options shuffled; `signal` ends it early (the host went
   * away). What went wrong, for the operator, goes to `log` (the request's logger).
   */
  async generate(request: PromptRequest, userId: number, log: Logger, signal?: AbortSignal): Promise<GenerationResult> {
    if (this.busy.has(userId)) return failed("busy", appError("AI_BUSY"));
    this.busy.add(userId);
    const deadline = AbortSignal.timeout(this.config.timeoutMs);
    const stop = signal ? AbortSignal.any([deadline, signal]) : deadline;
    try {
      const messages = quizPrompt(request);
      let attempt = await this.ask(messages, request, stop);
      if (!attempt.ok) {
        log.warn({ event: "ai_reply_unusable", reason: attempt.reason }, "unusable reply from the AI service; asking again");
        const retry = [...messages, { role: "assistant" as const, content: attempt.reply }, retryPrompt(attempt.reason, request.questionCount)];
        attempt = await this.ask(retry, request, stop);
      }
      if (!attempt.ok) {
        log.warn({ event: "ai_reply_unusable_again", reason: attempt.reason }, "unusable reply from the AI service again; giving up");
        // The summary, a message of its own: what was dropped, question by question, is for the log.
        return failed("unusable", appError("AI_UNUSABLE", { reason: attempt.error }));
      }
      // A mix of one kind is still a usable quiz: noted for the operator, not refused.
      const shortfall = mixShortfall(attempt.questions, request.kinds);
      if (shortfall) log.warn({ event: "ai_reply_accepted_short", shortfall }, "AI reply accepted as it is");
      return { ok: true, questions: attempt.questions.map((question) => shuffleAnswers(question, this.random)) };
    } catch (error) {
      const failure = this.explain(error, deadline, log);
      return failed(failure.reason, failure.error);
    } finally {
      this.busy.delete(userId);
    }
  }

  private async ask(messages: PromptMessage[], { questionCount, kinds }: PromptRequest, signal: AbortSignal): Promise<Attempt> {
    const completion = await this.client.chat.completions.create(
      {
        model: this.config.model,
        messages,
        response_format: zodResponseFormat(modelReplySchema(questionCount, kinds), "quiz"),
      },
      { signal },
    );
    const choice = completion.choices[0];
    if (choice?.message.refusal) {
      throw new GenerationFailure("declined", appError("AI_DECLINED"));
    }
    const reply = choice?.message.content ?? "";
    if (choice?.finish_reason === "length") return { ok: false, reason: REPLY_CUT_OFF, summary: REPLY_CUT_OFF, error: appError("AI_REASON_CUT_OFF"), reply };
    if (!reply) return { ok: false, reason: REPLY_EMPTY, summary: REPLY_EMPTY, error: appError("AI_REASON_EMPTY"), reply };
    const checked = checkGeneratedQuiz(reply, { questionCount, kinds });
    return checked.ok ? checked : { ...checked, reply };
  }

  /** A reason and a message for the host (and a warning with the cause for the operator). */
  private explain(error: unknown, deadline: AbortSignal, log: Logger): GenerationFailure {
    if (error instanceof GenerationFailure) return error;
    if (deadline.aborted || error instanceof OpenAI.APIConnectionTimeoutError) {
      log.warn({ event: "ai_timeout", timeoutMs: this.config.timeoutMs }, "no answer from the AI service in time");
      const seconds = Math.round(this.config.timeoutMs / 1000);
      return new GenerationFailure("timeout", appError("AI_TIMEOUT", { seconds }));
    }
    if (error instanceof OpenAI.APIUserAbortError) return new GenerationFailure("cancelled", appError("AI_CANCELLED"));
    if (error instanceof OpenAI.APIConnectionError) {
      log.warn({ event: "ai_unreachable", reason: error.message }, "could not reach the AI service");
      return new GenerationFailure("unreachable", appError("AI_UNREACHABLE"));
    }
    if (error instanceof OpenAI.APIError) {
      log.warn({ event: "ai_service_error", upstreamStatus: error.status, reason: error.message }, "the AI service answered with an error");
      if (error.status === 401 || error.status === 403) {
        return new GenerationFailure("service-failed", appError("AI_CREDENTIALS"));
      }
      if (error.status === 404) {
        return new GenerationFailure("service-failed", appError("AI_NO_MODEL", { model: this.config.model }));
      }
      if (error.status === 429) return new GenerationFailure("service-busy", appError("AI_SERVICE_BUSY"));
      // An error with no status (the connection broke) has no number to show: the general message below says it.
      if (error.status !== undefined) return new GenerationFailure("service-failed", appError("AI_SERVICE_PROBLEM", { status: error.status }));
    }
    log.warn({ event: "ai_failed", err: error }, "AI generation failed");
    return new GenerationFailure("service-failed", appError("AI_SERVICE_FAILED"));
  }
}
