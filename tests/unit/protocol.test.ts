import { describe, expect, it } from "vitest";
import { encodeServerMessage, parseClientMessage, ServerMessageSchema } from "#app/game/protocol";
import { englishOf } from "#app/i18n/coded";

const frame = (value: unknown) => JSON.stringify(value);

describe("parseClientMessage rejects malformed frames without throwing", () => {
  it.each([
    { name: "non-JSON text", raw: "hello there", error: "Message is not valid JSON." },
    { name: "truncated JSON", raw: '{"type":"JOIN_GAME","payload":{', error: "Message is not valid JSON." },
    { name: "an empty frame", raw: "", error: "Message is not valid JSON." },
    { name: "JSON without a type", raw: frame({ payload: { gameCode: "ABC234" } }), error: "Message needs a type." },
    { name: "an empty object", raw: frame({}), error: "Message needs a type." },
    { name: "an unknown type", raw: frame({ type: "FOO", payload: {} }), error: "Unknown message type: FOO.", values: { type: "FOO" } },
    {
      name: "a lower-case type",
      raw: frame({ type: "join_game", payload: {} }),
      error: "Unknown message type: join_game.",
      values: { type: "join_game" },
    },
    {
      name: "a very long unknown type (echo is cut to 40 characters)",
      raw: frame({ type: "X".repeat(500) }),
      error: `Unknown message type: ${"X".repeat(40)}.`,
      values: { type: "X".repeat(40) },
    },
    {
      name: "JOIN_GAME with a missing nickname",
      raw: frame({ type: "JOIN_GAME", payload: { gameCode: "ABC234" } }),
      error: "Enter a nickname.",
    },
    {
      name: "JOIN_GAME with a blank nickname",
      raw: frame({ type: "JOIN_GAME", payload: { gameCode: "ABC234", nickname: "    " } }),
      error: "Enter a nickname.",
    },
    {
      name: "JOIN_GAME with a 16-character nickname",
      raw: frame({ type: "JOIN_GAME", payload: { gameCode: "ABC234", nickname: "abcdefghijklmnop" } }),
      error: "Nickname must be at most 15 characters.",
    },
    {
      name: "JOIN_GAME with a short game code",
      raw: frame({ type: "JOIN_GAME", payload: { gameCode: "AB2", nickname: "Bob" } }),
      error: "Quiz code must be 6 characters",
    },
    {
      name: "START_GAME without a game code",
      raw: frame({ type: "START_GAME", payload: {} }),
      error: "Enter the game code.",
    },
    {
      name: "SUBMIT_ANSWER with answerIndex 6 (a question has at most six answers)",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: 6 } }),
      error: "The answer must be the index of an option, 0 to 5.",
    },
    {
      name: "SUBMIT_ANSWER with answerIndex -1",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: -1 } }),
      error: "The answer must be the index of an option, 0 to 5.",
    },
    {
      name: "SUBMIT_ANSWER with answerIndex 1.5",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: 1.5 } }),
      error: "The answer must be the index of an option, 0 to 5.",
    },
    {
      name: "SUBMIT_ANSWER without answerIndex",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1 } }),
      error: "Send one answer: answerIndex, answerIndexes, text or number.",
    },
    {
      name: "SUBMIT_ANSWER with two answers at once",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: 1, text: "Paris" } }),
      error: "Send one answer: answerIndex, answerIndexes, text or number.",
    },
    {
      name: "SUBMIT_ANSWER with answerIndex null (not coerced to 0)",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: null } }),
      error: "The answer must be the index of an option, 0 to 5.",
    },
    {
      name: 'SUBMIT_ANSWER with answerIndex "" (not coerced to 0)',
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: "" } }),
      error: "The answer must be the index of an option, 0 to 5.",
    },
    {
      name: "SUBMIT_ANSWER with answerIndex true (not coerced to 1)",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: true } }),
      error: "The answer must be the index of an option, 0 to 5.",
    },
    {
      name: "SUBMIT_ANSWER with answerIndex as a string",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 1, answerIndex: "3" } }),
      error: "The answer must be the index of an option, 0 to 5.",
    },
    {
      name: "SUBMIT_ANSWER with playerId 0",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 0, answerIndex: 1 } }),
      error: "Player ID is missing!",
    },
    {
      name: "SUBMIT_ANSWER without playerId",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", answerIndex: 1 } }),
      error: "Player ID is missing!",
    },
    {
      name: "SUBMIT_ANSWER with playerId as a string",
      raw: frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: "12", answerIndex: 1 } }),
      error: "Player ID is missing!",
    },
    {
      name: "a JSON array",
      raw: "[]",
      error: "A message must be a JSON object with a type and a payload.",
    },
    {
      name: "an array of messages",
      raw: frame([{ type: "START_GAME", payload: { gameCode: "ABC234" } }]),
      error: "A message must be a JSON object with a type and a payload.",
    },
    { name: "null", raw: "null", error: "A message must be a JSON object with a type and a payload." },
    { name: "a number", raw: "42", error: "A message must be a JSON object with a type and a payload." },
    { name: "a string", raw: '"JOIN_GAME"', error: "A message must be a JSON object with a type and a payload." },
    { name: "true", raw: "true", error: "A message must be a JSON object with a type and a payload." },
    {
      name: "JOIN_GAME without a payload",
      raw: frame({ type: "JOIN_GAME" }),
      error: "JOIN_GAME needs a payload object.",
      values: { type: "JOIN_GAME" },
    },
    {
      name: "START_GAME with a null payload",
      raw: frame({ type: "START_GAME", payload: null }),
      error: "START_GAME needs a payload object.",
      values: { type: "START_GAME" },
    },
  ] as Array<{ name: string; raw: string; error: string; values?: Record<string, string> }>)("$name -> $error", ({ raw, error, values }) => {
    expect(() => parseClientMessage(raw)).not.toThrow();
    // A refusal that quotes what was sent carries the quoted values, for the browser to say it in its language.
    const parsed = parseClientMessage(raw);
    expect(parsed).toEqual({ ok: false, error, key: expect.any(String), ...(values ? { values } : {}) });
    // Raised with its catalog key: the key's English, given the values, is the message (docs/decisions/0047-errors-as-codes.md).
    if (!parsed.ok) expect(englishOf({ code: parsed.key, values: parsed.values })).toBe(error);
  });

  it("never throws on a batch of hostile inputs", () => {
    const inputs = [
      "{",
      "}",
      "undefined",
      "NaN",
      '{"type":null}',
      '{"type":{}}',
      '{"type":["JOIN_GAME"]}',
      '{"__proto__":{"type":"JOIN_GAME"}}',
      '{"type":"SUBMIT_ANSWER","payload":"x"}',
      "\u0000",
      "9".repeat(400),
    ];
    for (const raw of inputs) {
      const result = parseClientMessage(raw);
      expect(result.ok, raw).toBe(false);
      if (!result.ok) expect(result.error.length, raw).toBeGreaterThan(0);
    }
  });
});

describe("parseClientMessage accepts valid frames", () => {
  it.each([
    { raw: "ABC234", normalized: "ABC234" },
    { raw: "abc234", normalized: "ABC234" },
    { raw: "abc-234", normalized: "ABC234" },
    { raw: " ab c2 34 ", normalized: "ABC234" },
  ])("JOIN_GAME normalises game code $raw -> $normalized and trims the nickname", ({ raw, normalized }) => {
    const result = parseClientMessage(frame({ type: "JOIN_GAME", payload: { gameCode: raw, nickname: "  Bob " } }));
    expect(result).toEqual({
      ok: true,
      message: { type: "JOIN_GAME", payload: { gameCode: normalized, nickname: "Bob" } },
    });
  });

  it.each(["A", "abcdefghijklmno", "__HOST__"])("JOIN_GAME accepts the nickname %j (1-15 characters)", (nickname) => {
    const result = parseClientMessage(frame({ type: "JOIN_GAME", payload: { gameCode: "ABC234", nickname } }));
    expect(result).toEqual({ ok: true, message: { type: "JOIN_GAME", payload: { gameCode: "ABC234", nickname } } });
  });

  it.each(["START_GAME", "NEXT_QUESTION", "LEAVE_GAME"] as const)("%s with a game code", (type) => {
    const result = parseClientMessage(frame({ type, payload: { gameCode: "xyz789" } }));
    expect(result).toEqual({ ok: true, message: { type, payload: { gameCode: "XYZ789" } } });
  });

  it.each([0, 1, 2, 3])("SUBMIT_ANSWER with answerIndex %i and a client time field", (answerIndex) => {
    const result = parseClientMessage(frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 7, answerIndex, time: 1234 } }));
    expect(result).toEqual({
      ok: true,
      message: { type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 7, answerIndex, time: 1234 } },
    });
  });

  it("SUBMIT_ANSWER without a time field", () => {
    const result = parseClientMessage(frame({ type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 3, answerIndex: 2 } }));
    expect(result).toEqual({
      ok: true,
      message: { type: "SUBMIT_ANSWER", payload: { gameCode: "ABC234", playerId: 3, answerIndex: 2 } },
    });
  });

  it("drops unknown payload fields", () => {
    const result = parseClientMessage(frame({ type: "START_GAME", payload: { gameCode: "ABC234", isHost: true }, extra: 1 }));
    expect(result).toEqual({ ok: true, message: { type: "START_GAME", payload: { gameCode: "ABC234" } } });
  });
});

describe("encodeServerMessage", () => {
  it("round-trips through the server message schema", () => {
    const encoded = encodeServerMessage("ERROR", { message: "Nickname already taken", code: "NICKNAME_TAKEN" });
    const decoded = ServerMessageSchema.parse(JSON.parse(encoded));
    expect(decoded).toEqual({ type: "ERROR", payload: { message: "Nickname already taken", code: "NICKNAME_TAKEN" } });
  });
});

describe("hostile message types", () => {
  it.each([
    ['{"type":{"toString":1},"payload":{}}', "Message needs a type."],
    ['{"type":[{"toString":1}],"payload":{}}', "Message needs a type."],
    [`{"type":${"[".repeat(7000)}${"]".repeat(7000)},"payload":{}}`, "Message needs a type."],
    ['{"type":"JOIN_GAME","payload":{"gameCode":"ABC123","nickname":"x\\ud800"}}', "Nickname has a character that cannot be shown."],
  ])("answers %s without throwing", (raw, error) => {
    expect(parseClientMessage(raw)).toEqual({ ok: false, error, key: expect.any(String) });
  });
});
