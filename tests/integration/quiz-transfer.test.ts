/**
 * Import and export against a real database: a quiz with a picture goes out as a file and comes
 * back as the same quiz; spreadsheets come in; a bad file or a full storage creates nothing; and
 * the routes called with real Requests answer with the statuses and headers scripts rely on.
 */
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import type { QuestionContent } from "#app/game/question-kinds";
import { getImage, storeImage } from "#app/models/image.server";
import { exportQuiz, importQuiz } from "#app/models/quiz-transfer.server";
import { createQuizWithQuestions, findOwnQuizWithQuestions, type Question } from "#app/models/quiz.server";
import * as importApi from "#app/routes/api.quizzes.import";
import * as quizApi from "#app/routes/api.quizzes_.$id";
import * as exportApi from "#app/routes/api.quizzes_.$id.export";
import * as csvTemplate from "#app/routes/create.template[.]csv";
import * as xlsxTemplate from "#app/routes/create.template[.]xlsx";
import * as schemaRoute from "#app/routes/schema.quiz-v1[.]json";
import { QUIZ_FILE_FORMAT, type QuizFile } from "#app/quiz-files/quiz-file";
import { parseQuizSpreadsheet, quizToCsv, quizToXlsx } from "#app/quiz-files/quiz-spreadsheet.server";
import { createGuest } from "#app/models/user.server";
import { DiskSpace } from "#app/limits/disk-space.server";
import { startSession } from "#app/sessions/session.server";
import { HeavyWork } from "#server/heavy-work";
import { createLogger } from "#server/logger";
import { openTempDatabase, testLimits, type TempDatabase } from "./temp-database";

let database: TempDatabase;
let db: DB;

beforeAll(async () => {
  database = await openTempDatabase("quiz-transfer");
  db = database.db;
});

afterAll(() => database.remove());

const PLENTY = 100 * 1024 * 1024;

/** A photo-like picture (a gradient with detail), so re-encoding has something to lose. */
async function picture(seed: number): Promise<Buffer> {
  const width = 320;
  const height = 200;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * seed) % 256;
      pixels[i + 1] = (y * 3 + seed) % 256;
      pixels[i + 2] = ((x ^ y) * seed) % 256;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const blank: Omit<QuestionContent, "kind" | "text"> = {
  answers: [],
  correctAnswerIndex: -1,
  correctAnswerIndexes: [],
  acceptedAnswers: [],
  correctNumber: null,
  timeLimit: null,
  points: "standard",
  imageId: null,
};

function questionsOf(imageId: string): QuestionContent[] {
  return [
    {
      ...blank,
      kind: "choice",
      text: "Whose flag is this?",
      answers: ["Japan", "Bangladesh", "Palau"],
      correctAnswerIndex: 1,
      correctAnswerIndexes: [1],
      imageId,
    },
    {
      ...blank,
      kind: "trueFalse",
      text: "Owls can turn their heads all the way round.",
      answers: ["True", "False"],
      correctAnswerIndex: 1,
      correctAnswerIndexes: [1],
    },
    { ...blank, kind: "multiSelect", text: "Which are noble gases?", answers: ["Neon", "Nitrogen", "Argon"], correctAnswerIndexes: [0, 2], points: "double" },
    { ...blank, kind: "typeAnswer", text: "Name this painter", acceptedAnswers: ["Van Gogh", "Vincent van Gogh"], timeLimit: 45, imageId },
    { ...blank, kind: "closestNumber", text: "How many bones in an adult?", correctNumber: 206 },
    { ...blank, kind: "poll", text: "Another round?", answers: ["Yes", "Of course"], points: "none" },
  ];
}

/** What makes two quizzes the same: everything but ids, owners and times. */
function comparable(file: QuizFile) {
  return JSON.parse(JSON.stringify(file));
}

async function quizWithPicture(owner: { userId: number | null; clientId: string | null }) {
  const stored = await storeImage(db, await picture(7), owner, PLENTY);
  if (stored.status !== "ok") throw new Error(`expected the picture to be stored, got ${stored.status}`);
  const created = await createQuizWithQuestions(
    db,
    { title: "Picture round", description: "Look closely", timeLimit: 30, isPublic: false },
    questionsOf(stored.value.id),
    owner,
  );
  if (created.status !== "ok") throw new Error(`expected the quiz to be created, got ${created.status}`);
  return { quiz: created.value, imageId: stored.value.id };
}

async function countQuizzes(): Promise<number> {
  const { n } = await db
    .selectFrom("quizzes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

describe("importQuiz and exportQuiz", () => {
  it("gives the same quiz back from its exported file, picture included", async () => {
    const alice = { userId: null, clientId: "transfer-alice" };
    const { quiz, imageId } = await quizWithPicture(alice);
    const exported = await exportQuiz(db, quiz.id, alice);
    if (exported.status !== "ok") throw new Error(exported.status);
    const file = exported.value;
    expect(file).toMatchObject({ format: QUIZ_FILE_FORMAT, version: 1, title: "Picture round", description: "Look closely", timeLimit: 30 });
    expect(file.questions[0].image).toEqual({ mediaType: "image/webp", data: expect.any(String) });
    expect(file.questions[1].image).toBeNull();

    // Through JSON text, into another owner's account, and out again.
    const bob = { userId: null, clientId: "transfer-bob" };
    const imported = await importQuiz(db, { file: JSON.parse(JSON.stringify(file)) }, bob, PLENTY);
    if (imported.status !== "ok") throw new Error(JSON.stringify(imported));
    expect(imported.value.id).not.toBe(quiz.id);
    expect(imported.value.isPublic).toBe(false);
    const strip = ({ id: _id, quizId: _quizId, imageId: _imageId, ...rest }: Question) => rest;
    expect(imported.value.questions.map(strip)).toEqual(quiz.questions.map(strip));
    // The two questions share one picture, stored once.
    const importedImage = imported.value.questions[0].imageId;
    expect(importedImage).toMatch(/^[0-9a-f]{64}$/);
    expect(imported.value.questions[3].imageId).toBe(importedImage);

    const again = await exportQuiz(db, imported.value.id, bob);
    if (again.status !== "ok") throw new Error(again.status);
    const withoutPictures = (value: QuizFile) => ({
      ...comparable(value),
      questions: value.questions.map((question) => ({ ...question, image: question.image ? "picture" : null })),
    });
    expect(withoutPictures(again.value)).toEqual(withoutPictures(file));
    // The picture is the same picture (same size), re-encoded as any upload is.
    const before = await sharp(Buffer.from(file.questions[0].image!.data, "base64")).metadata();
    const after = await sharp(Buffer.from(again.value.questions[0].image!.data, "base64")).metadata();
    expect([after.format, after.width, after.height]).toEqual([before.format, before.width, before.height]);
    expect(file.questions[0].image!.data).toBe((await getImage(db, imageId, "large"))!.toString("base64"));
  });

  it("keeps an exported picture byte for byte when it is imported again: the same picture, stored once", async () => {
    const carol = { userId: null, clientId: "transfer-carol" };
    const { quiz, imageId } = await quizWithPicture(carol);
    const exported = await exportQuiz(db, quiz.id, carol);
    if (exported.status !== "ok") throw new Error(exported.status);
    const dave = { userId: null, clientId: "transfer-dave" };
    const imported = await importQuiz(db, { file: JSON.parse(JSON.stringify(exported.value)) }, dave, PLENTY);
    if (imported.status !== "ok") throw new Error(JSON.stringify(imported));
    expect(imported.value.questions[0].imageId).toBe(imageId);
    const again = await exportQuiz(db, imported.value.id, dave);
    if (again.status !== "ok") throw new Error(again.status);
    expect(comparable(again.value)).toEqual(comparable(exported.value));
    expect(again.value.questions.map((question) => question.image)).toEqual(exported.value.questions.map((question) => question.image));
  });

  it("exports only to the quiz's owner", async () => {
    const owner = { userId: null, clientId: "transfer-owner" };
    const { quiz } = await quizWithPicture(owner);
    expect(await exportQuiz(db, quiz.id, { clientId: "someone-else" })).toEqual({ status: "forbidden" });
    expect(await exportQuiz(db, 999_999, owner)).toEqual({ status: "not-found" });
  });

  it("imports a spreadsheet with the quiz's details, through CSV and XLSX alike", async () => {
    const questions = questionsOf("b".repeat(64)).map((question) => ({ ...question, imageId: null }));
    const owner = { userId: null, clientId: "transfer-sheets" };
    const details = { title: "From a sheet", description: "", timeLimit: 20, isPublic: true };
    for (const [fileName, bytes] of [
      ["quiz.csv", new TextEncoder().encode(quizToCsv(questions))],
      ["quiz.xlsx", await quizToXlsx(questions)],
    ] as const) {
      const imported = await importQuiz(db, { spreadsheet: { bytes, fileName }, ...details }, owner, PLENTY);
      if (imported.status !== "ok") throw new Error(JSON.stringify(imported));
      expect(imported.value).toMatchObject({ title: "From a sheet", isPublic: true, timeLimit: 20 });
      const stored = await findOwnQuizWithQuestions(db, imported.value.id, owner);
      if (stored.status !== "ok") throw new Error(stored.status);
      expect(stored.value.questions.map(({ id: _id, quizId: _quizId, order: _order, ...content }) => content)).toEqual(questions);
    }
  });

  it("creates nothing from a file with any bad question", async () => {
    const before = await countQuizzes();
    const csv = "Question,Kind,Answer 1,Answer 2,Correct\nFine,choice,A,B,1\nBad,choice,A,,1\n";
    const result = await importQuiz(
      db,
      { spreadsheet: { bytes: new TextEncoder().encode(csv), fileName: "bad.csv" }, title: "Bad", description: "", timeLimit: 20, isPublic: false },
      { clientId: "transfer-bad" },
      PLENTY,
    );
    // Each problem raised with its code (docs/decisions/0047-errors-as-codes.md), the row's or question's own nested.
    const answerCount = { code: "ANSWER_COUNT", values: { min: 2, max: 6 } };
    const rowThree = { code: "IMPORT_ROW_PROBLEM", values: { row: 3, message: answerCount } };
    expect(result).toEqual({
      status: "invalid",
      message: "Row 3: A question needs 2 to 6 answers.",
      error: rowThree,
      fieldErrors: { file: ["Row 3: A question needs 2 to 6 answers."] },
      rows: [{ row: 3, message: "Row 3: A question needs 2 to 6 answers.", error: rowThree }],
    });
    const file = { format: QUIZ_FILE_FORMAT, version: 1, title: "Bad", questions: [{ kind: "poll", text: "?", answers: ["A"] }] };
    expect(await importQuiz(db, { file }, { clientId: "transfer-bad" }, PLENTY)).toEqual({
      status: "invalid",
      message: "Question 1: A question needs 2 to 6 answers.",
      error: { code: "IMPORT_QUESTION_PROBLEM", values: { n: 1, message: answerCount } },
      fieldErrors: { "questions.0.answers": ["A question needs 2 to 6 answers."] },
    });
    expect(await countQuizzes()).toBe(before);
  });

  it("refuses an embedded file that is not a picture before storing anything", async () => {
    const before = await db
      .selectFrom("images")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const file = {
      format: QUIZ_FILE_FORMAT,
      version: 1,
      title: "Not pictures",
      questions: [
        { kind: "poll", text: "A", answers: ["A", "B"], image: { mediaType: "image/webp", data: (await picture(3)).toString("base64") } },
        { kind: "poll", text: "B", answers: ["A", "B"], image: { mediaType: "image/png", data: Buffer.from("<svg></svg>").toString("base64") } },
      ],
    };
    expect(await importQuiz(db, { file }, { clientId: "transfer-svg" }, PLENTY)).toEqual({
      status: "invalid",
      message: "Question 2: Pictures must be PNG, JPEG, WebP or GIF.",
      error: { code: "IMPORT_QUESTION_PROBLEM", values: { n: 2, message: { code: "PICTURE_UNSUPPORTED" } } },
      fieldErrors: { "questions.1.image": ["Pictures must be PNG, JPEG, WebP or GIF."] },
    });
    const after = await db
      .selectFrom("images")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("creates no quiz when its pictures would take the owner past its storage", async () => {
    const before = await countQuizzes();
    const file = {
      format: QUIZ_FILE_FORMAT,
      version: 1,
      title: "Too big",
      questions: [{ kind: "poll", text: "A", answers: ["A", "B"], image: { mediaType: "image/png", data: (await picture(11)).toString("base64") } }],
    };
    const result = await importQuiz(db, { file }, { clientId: "transfer-full" }, 10);
    expect(result).toMatchObject({ status: "over-quota", usedBytes: 0, limitBytes: 10 });
    expect(await countQuizzes()).toBe(before);
  });
});

describe("routes", () => {
  const logger = createLogger({ level: "silent" });
  const sessionSecret = "quiz-transfer-test-session-secret-0123456789";
  const limits = testLimits();
  afterAll(() => limits.close());
  // The worker thread's script as the production build has it (integration tests run after `npm run build`).
  const heavyWork = new HeavyWork({}, { file: path.resolve("build/node/heavy-worker.js") }, logger);
  const context = () => ({ db, hub: null as any, sessionSecret, clientIp: "127.0.0.1", limits, logger, diskSpace: new DiskSpace(".", 0), heavyWork });

  const post = (body: BodyInit, headers: Record<string, string> = {}, query = "") =>
    importApi.action({
      request: new Request(`http://localhost/api/quizzes/import${query}`, { method: "POST", body, headers }),
      params: {},
      context: context(),
    } as any);
  const exportOf = (id: number, clientId: string, query = "") =>
    exportApi.loader({
      request: new Request(`http://localhost/api/quizzes/${id}/export${query}`, { headers: { "X-Client-Id": clientId } }),
      params: { id: String(id) },
      context: context(),
    } as any);

  it("imports a quiz file sent as JSON: 201 with the quiz as GET /api/quizzes/:id shows it", async () => {
    const owner = { userId: null, clientId: "route-json" };
    const { quiz } = await quizWithPicture(owner);
    const exported = await exportOf(quiz.id, owner.clientId);
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(exported.headers.get("content-disposition")).toBe('attachment; filename="picture-round.quiz.json"');
    expect(exported.headers.get("cache-control")).toBe("private, no-store");
    const text = await exported.text();
    expect(JSON.parse(text).$schema).toBe("http://localhost/schema/quiz-v1.json");

    // A file with pictures needs a session, as an upload does (issue 26): a client id alone is refused.
    const anonymous = await post(text, { "Content-Type": "application/json", "X-Client-Id": "route-json-2" }, "?visibility=public");
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: "PICTURES_NEED_SESSION" });
    const guest = await createGuest(db);
    const cookie = (await startSession(context(), new Request("http://localhost/auth"), guest.id)).split(";")[0];
    const response = await post(text, { "Content-Type": "application/json", cookie }, "?visibility=public");
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(response.headers.get("location")).toBe(`/api/quizzes/${created.id}`);
    expect(created).toMatchObject({ title: "Picture round", isPublic: true });
    const shown = await quizApi.loader({
      request: new Request(`http://localhost/api/quizzes/${created.id}`, { headers: { cookie } }),
      params: { id: String(created.id) },
      context: context(),
    } as any);
    expect(await shown.json()).toEqual(created);
  });

  it("imports a spreadsheet upload, titled by its file name unless a title is given", async () => {
    const questions = questionsOf("c".repeat(64)).map((question) => ({ ...question, imageId: null }));
    const form = new FormData();
    form.set("file", new Blob([quizToCsv(questions)], { type: "text/csv" }), "Science night.csv");
    form.set("timeLimit", "60");
    const response = await post(form);
    expect(response.status).toBe(201);
    // A new caller is given a client id, so the quiz is someone's.
    const clientId = response.headers.get("x-client-id");
    expect(clientId).toBeTruthy();
    const created = await response.json();
    expect(created).toMatchObject({ title: "Science night", timeLimit: 60, isPublic: false });
    expect(created.questions).toHaveLength(6);

    const titled = new FormData();
    titled.set("file", new Blob([new Uint8Array(await quizToXlsx(questions))]), "x.xlsx");
    titled.set("title", "Given title");
    titled.set("visibility", "public");
    const second = await post(titled, { "X-Client-Id": clientId! });
    expect(second.status).toBe(201);
    expect(await second.json()).toMatchObject({ title: "Given title", isPublic: true });
  });

  it("answers 400 with every bad row, and creates nothing", async () => {
    const before = await countQuizzes();
    const form = new FormData();
    form.set("file", new Blob(["Question,Answer 1,Answer 2,Correct\nOne,A,,1\nTwo,A,B,3\n"]), "bad.csv");
    const response = await post(form);
    expect(response.status).toBe(400);
    // Each problem with its code and values (a value may itself be a message of the catalog), for any client to say it in its language.
    // A nested message comes in its English in `values` and by its own code in `valueErrors`.
    const rowTwo = {
      code: "IMPORT_ROW_PROBLEM",
      values: { row: 2, message: "A question needs 2 to 6 answers." },
      valueErrors: { message: { code: "ANSWER_COUNT", values: { min: 2, max: 6 } } },
    };
    expect(await response.json()).toEqual({
      error: "Row 2: A question needs 2 to 6 answers.",
      ...rowTwo,
      fieldErrors: { file: ["Row 2: A question needs 2 to 6 answers.", "Row 3: Correct names answer 3, which is empty."] },
      rows: [
        { row: 2, message: "Row 2: A question needs 2 to 6 answers.", ...rowTwo },
        {
          row: 3,
          message: "Row 3: Correct names answer 3, which is empty.",
          code: "IMPORT_ROW_PROBLEM",
          values: { row: 3, message: "Correct names answer 3, which is empty." },
          valueErrors: { message: { code: "IMPORT_CORRECT_EMPTY_ANSWER", values: { n: 3 } } },
        },
      ],
    });
    const badJson = await post('{"format": "quiz-night.quiz", "version": 1, "title": ""', { "Content-Type": "application/json" });
    expect(badJson.status).toBe(400);
    // `code`: the message's code in the errors catalog, for the page to show it in the reader's language.
    expect(await badJson.json()).toEqual({
      error: "This quiz file is not valid JSON.",
      code: "IMPORT_NOT_JSON",
      fieldErrors: { file: ["This quiz file is not valid JSON."] },
    });
    const wrong = await post(JSON.stringify({ format: "quiz-night.quiz", version: 1, title: "", questions: [] }), { "Content-Type": "application/json" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      error: "Please give your quiz a title.",
      code: "QUIZ_TITLE_REQUIRED",
      fieldErrors: { title: ["Please give your quiz a title."], questions: ["A quiz must have at least one question."] },
    });
    expect((await post(new FormData())).status).toBe(400);
    expect((await post("a=b", { "Content-Type": "application/x-www-form-urlencoded" })).status).toBe(415);
    expect(await countQuizzes()).toBe(before);
  });

  it("refuses a body past the limit before reading it", async () => {
    const response = await post("{}", { "Content-Type": "application/json", "Content-Length": String(100 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Quiz files can be at most 40 MB.", code: "IMPORT_QUIZ_FILE_TOO_LARGE", values: { size: "40 MB" } });
  });

  it("exports CSV and XLSX that import again, to the owner only", async () => {
    const owner = { userId: null, clientId: "route-sheets" };
    const { quiz } = await quizWithPicture(owner);
    const csv = await exportOf(quiz.id, owner.clientId, "?format=csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="picture-round.csv"');
    const xlsx = await exportOf(quiz.id, owner.clientId, "?format=xlsx");
    expect(xlsx.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(xlsx.headers.get("content-disposition")).toBe('attachment; filename="picture-round.xlsx"');
    const withoutPictures = quiz.questions.map(({ id: _id, quizId: _quizId, order: _order, ...content }) => ({ ...content, imageId: null }));
    for (const [response, name] of [
      [csv, "q.csv"],
      [xlsx, "q.xlsx"],
    ] as const) {
      const parsed = await parseQuizSpreadsheet(new Uint8Array(await response.arrayBuffer()), name);
      expect(parsed).toMatchObject({ status: "ok", questions: withoutPictures });
    }

    expect((await exportOf(quiz.id, "a-stranger")).status).toBe(403);
    expect((await exportOf(999_999, owner.clientId)).status).toBe(404);
    const bad = await exportOf(quiz.id, owner.clientId, "?format=pdf");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "format must be one of json, csv, xlsx.", fieldErrors: { format: ["format must be one of json, csv, xlsx."] } });
  });

  it("publishes the schema and the templates", async () => {
    const schema = schemaRoute.loader();
    expect(schema.headers.get("content-type")).toBe("application/schema+json; charset=utf-8");
    expect(schema.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await schema.json()).toMatchObject({ $id: "/schema/quiz-v1.json" });

    const csv = csvTemplate.loader();
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="quiz-template.csv"');
    expect(await parseQuizSpreadsheet(new Uint8Array(await csv.arrayBuffer()), "template.csv")).toMatchObject({ status: "ok" });
    const xlsx = await xlsxTemplate.loader();
    expect(xlsx.headers.get("content-disposition")).toBe('attachment; filename="quiz-template.xlsx"');
    expect(await parseQuizSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()), "template.xlsx")).toMatchObject({ status: "ok" });
  });
});
