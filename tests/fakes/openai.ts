/**
 * A stand-in for an OpenAI-compatible server: POST /v1/chat/completions with structured output,
 * answered in the real wire format (chat.completion objects, error envelopes), so the real `openai`
 * SDK talks to it through OPENAI_BASE_URL. Nothing leaves the machine.
 *
 * The request's JSON schema picks the kinds: its `kind` enum holds one kind (every question is of
 * that kind) or several (a mix: the questions go through the listed kinds in turn). Each kind is
 * written so a test can tell the right answer:
 *   choice         "Right N" first of 4 options
 *   trueFalse      ["True", "False"], true
 *   multiSelect    "Right N" and "Also right N" first of 4 options
 *   typeAnswer     accepted answers "Right N" and "Right number N"
 *   closestNumber  1900 + N
 *   poll           "Option AN", "Option BN", "Option CN", no right answer
 *
 * The topic picks the behaviour, so parallel tests need no shared switches:
 *   "[malformed]"       every reply is not JSON
 *   "[malformed-once]"  the first reply for that topic is not JSON, the next ones are fine
 *   "[duplicates]"      every reply repeats one question
 *   "[refuse]"          the model refuses
 *   "[error-500]"       HTTP 500 with OpenAI's error envelope
 *   "[hang-up]"         closes the connection without an answer
 *   "[slow]"            answers after 30 s (longer than any test's generation timeout)
 *   "[delay]"           a valid quiz after 1.5 s, long enough to see the page wait for it
 *   "[one-kind]"        every question is multiple choice, even when a mix was asked for
 *   "[wrong-kind]"      every question is of a kind the schema does not list (or, for a mix,
 *                       a choice question with two right answers)
 *   anything else       a valid quiz whose right answer is always first ("Right N")
 *
 * Run directly (`tsx tests/fakes/openai.ts`) it listens on FAKE_OPENAI_PORT for the browser tests.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface RecordedRequest {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: any } };
  };
}

export interface FakeOpenAI {
  /** The API root to hand the SDK as baseURL. */
  baseURL: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const SLOW_REPLY_MS = 30_000;
const DELAYED_REPLY_MS = 1500;

/** The topic our prompt quotes as JSON on its "Topic" line. */
function topicOf(body: RecordedRequest["body"]): string {
  const user = body.messages.find((message) => message.role === "user")?.content ?? "";
  const line = /^Topic[^:]*: (".*")$/m.exec(user);
  return line ? (JSON.parse(line[1]) as string) : user;
}

/** How many questions the request's JSON schema asks for (minItems of `questions`). */
function questionCountOf(body: RecordedRequest["body"]): number {
  return body.response_format?.json_schema?.schema?.properties?.questions?.minItems ?? 5;
}

const ALL_KINDS = ["choice", "trueFalse", "multiSelect", "typeAnswer", "closestNumber", "poll"] as const;
type Kind = (typeof ALL_KINDS)[number];

/** The kinds the request's JSON schema allows (the `kind` enum of a question). */
function kindsOf(body: RecordedRequest["body"]): Kind[] {
  const allowed = body.response_format?.json_schema?.schema?.properties?.questions?.items?.properties?.kind?.enum;
  return Array.isArray(allowed) && allowed.length > 0 ? (allowed as Kind[]) : ["choice"];
}

/** Question n (from 1) of a kind, in the flat shape the schema asks for. */
function question(topic: string, n: number, kind: Kind) {
  const empty = { answers: [] as string[], correctAnswerIndexes: [] as number[], acceptedAnswers: [] as string[], correctNumber: null as number | null };
  const text = `${topic} question ${n}?`;
  switch (kind) {
    case "choice":
      return { kind, text, ...empty, answers: [`Right ${n}`, `Wrong A${n}`, `Wrong B${n}`, `Wrong C${n}`], correctAnswerIndexes: [0] };
    case "trueFalse":
      return { kind, text, ...empty, answers: ["True", "False"], correctAnswerIndexes: [0] };
    case "multiSelect":
      return { kind, text, ...empty, answers: [`Right ${n}`, `Also right ${n}`, `Wrong A${n}`, `Wrong B${n}`], correctAnswerIndexes: [0, 1] };
    case "typeAnswer":
      return { kind, text, ...empty, acceptedAnswers: [`Right ${n}`, `Right number ${n}`] };
    case "closestNumber":
      return { kind, text, ...empty, correctNumber: 1900 + n };
    case "poll":
      return { kind, text, ...empty, answers: [`Option A${n}`, `Option B${n}`, `Option C${n}`] };
  }
}

function validQuiz(topic: string, count: number, kinds: Kind[]) {
  return { questions: Array.from({ length: count }, (_, i) => question(topic, i + 1, kinds[i % kinds.length])) };
}

/** Questions the checks must refuse: a kind not asked for, or for a mix a choice with two right answers. */
function wrongKindQuiz(topic: string, count: number, kinds: Kind[]) {
  if (kinds.length > 1) return { questions: validQuiz(topic, count, ["choice"]).questions.map((q) => ({ ...q, correctAnswerIndexes: [0, 1] })) };
  const other = ALL_KINDS.find((kind) => !kinds.includes(kind))!;
  return validQuiz(topic, count, [other]);
}

function completion(model: string, message: { content: string | null; refusal: string | null }) {
  const content = message.content ?? "";
  return {
    id: `chatcmpl-fake-${Math.random().toString(36).slice(2)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", ...message, annotations: [] }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 200, completion_tokens: Math.ceil(content.length / 4), total_tokens: 200 + Math.ceil(content.length / 4) },
    system_fingerprint: null,
    service_tier: "default",
  };
}

export async function startFakeOpenAI(port = 0): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const seenTopics = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json", "x-request-id": "req_fake" }).end(JSON.stringify(body));
      if (req.method === "GET" && req.url === "/health") return send(200, { ok: true });
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        return send(404, {
          error: { message: `Unknown request URL: ${req.method} ${req.url}`, type: "invalid_request_error", param: null, code: "unknown_url" },
        });
      }
      const body = JSON.parse(raw) as RecordedRequest["body"];
      requests.push({ authorization: req.headers.authorization, body });
      const topic = topicOf(body);
      const count = questionCountOf(body);
      const kinds = topic.includes("[one-kind]") ? (["choice"] as Kind[]) : kindsOf(body);
      const attempt = (seenTopics.get(topic) ?? 0) + 1;
      seenTopics.set(topic, attempt);
      const reply = (content: string) => send(200, completion(body.model, { content, refusal: null }));

      if (topic.includes("[error-500]")) {
        return send(500, { error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } });
      }
      if (topic.includes("[hang-up]")) return void res.socket?.destroy();
      if (topic.includes("[refuse]")) {
        return send(200, completion(body.model, { content: null, refusal: "I'm sorry, I can't help with that." }));
      }
      const later = topic.includes("[slow]") ? SLOW_REPLY_MS : topic.includes("[delay]") ? DELAYED_REPLY_MS : 0;
      if (later) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) reply(JSON.stringify(validQuiz(topic, count, kinds)));
        }, later);
        timers.add(timer);
        return;
      }
      if (topic.includes("[malformed]") || (topic.includes("[malformed-once]") && attempt === 1)) {
        return reply('{"questions": [{"text": "Unfinished');
      }
      if (topic.includes("[duplicates]")) {
        const quiz = validQuiz(topic, count, kinds);
        return reply(JSON.stringify({ questions: quiz.questions.map(() => quiz.questions[0]) }));
      }
      if (topic.includes("[wrong-kind]")) return reply(JSON.stringify(wrongKindQuiz(topic, count, kinds)));
      return reply(JSON.stringify(validQuiz(topic, count, kinds)));
    });
  });

  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${bound}/v1`,
    requests,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const fake = await startFakeOpenAI(Number(process.env.FAKE_OPENAI_PORT ?? 4311));
  console.log(`Fake OpenAI listening at ${fake.baseURL}`);
}
