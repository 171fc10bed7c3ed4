/**
 * The quiz file: one whole quiz, pictures included, as versioned JSON, for export, import and
 * scripts. Its JSON Schema is generated from the zod schema below and published at
 * `/schema/quiz-v1.json`, so the documentation cannot drift from what import accepts.
 *
 * Each question is checked twice: by the file's own shape (which documents each kind's fields,
 * with the same rules and messages) and then by `QuestionInputSchema`, the one schema every way in
 * shares, so an imported question is exactly as valid as one typed in the editor.
 */
import { z } from "zod";
import type { QuestionContent } from "#app/game/question-kinds";
import { KIND_DEFINITIONS, QUESTION_KINDS } from "#app/game/kinds";
import { kindSchemaOf } from "#app/game/kinds/schemas";
import { PointsSchema, QuestionInputSchema, QuestionTextSchema, QuestionTimeLimitSchema } from "#app/game/question-input";
import { MAX_QUESTIONS } from "#app/schemas/form-schemas";
import { describeBytes, MAX_UPLOAD_BYTES } from "#app/pictures/storage-limits";
import { QuizDescriptionSchema, QuizTitleSchema, TimeLimitSchema } from "#app/schemas/validation";
import { carriedIssue, coded } from "#app/i18n/coded";

export const QUIZ_FILE_FORMAT = "quiz-night.quiz";
export const QUIZ_FILE_VERSION = 1;
export const QUIZ_SCHEMA_PATH = "/schema/quiz-v1.json";
/** What export writes; import also takes the other formats an upload may be, and goes by the content. */
export const QUIZ_FILE_PICTURE_TYPE = "image/webp";
export const PICTURE_MEDIA_TYPES = ["image/webp", "image/png", "image/jpeg", "image/gif"] as const;

/**
 * A file with 100 pictures at the size the app stores them (WebP, at most 1600 px, a few hundred
 * KB each) fits, base64 included; the whole file is read into memory, so the bound stays modest.
 */
export const MAX_QUIZ_FILE_BYTES = 40 * 1024 * 1024;
/** An import request: the file plus room for the multipart framing and the small fields around it. */
export const MAX_IMPORT_REQUEST_BYTES = MAX_QUIZ_FILE_BYTES + 64 * 1024;
/** Spreadsheets carry text only: 100 rows fit in a few KB; the rest is room for formatting. */
export const MAX_SPREADSHEET_BYTES = 2 * 1024 * 1024;
export const quizFileTooLargeMessage = () => `Quiz files can be at most ${describeBytes(MAX_QUIZ_FILE_BYTES)}.`;
export const spreadsheetTooLargeMessage = () => `Spreadsheets can be at most ${describeBytes(MAX_SPREADSHEET_BYTES)}.`;

export const NOT_A_QUIZ_FILE = `This is not a Quiz Night quiz file (its "format" must be "${QUIZ_FILE_FORMAT}").`;
export const QUESTION_NOT_AN_OBJECT = "A question must be an object with a kind and that kind's fields.";
export const UNKNOWN_QUIZ_FILE_VERSION = `This quiz file is of a version this server does not read (it reads version ${QUIZ_FILE_VERSION}).`;

// ------------------------------------------------------------------------------ the file's shape

/** base64 of at most MAX_UPLOAD_BYTES: 4 characters for every 3 bytes. */
const MAX_PICTURE_BASE64_LENGTH = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

// The file's problems are raised with their codes (docs/decisions/0047-errors-as-codes.md); the
// English constants above are the words they make, which tests and scripts read.
const PICTURE_DATA = coded("IMPORT_PICTURE_DATA");
const NOT_A_QUIZ_FILE_ERROR = coded("IMPORT_NOT_A_QUIZ_FILE");
const NEEDS_A_QUESTION = coded("QUIZ_NEEDS_A_QUESTION");
const QUESTION_NOT_OBJECT = coded("IMPORT_QUESTION_NOT_OBJECT");
const KIND_CHOICE = coded("QUESTION_KIND_CHOICE", { kinds: QUESTION_KINDS.join(", ") });

export const FilePictureSchema = z
  .object({
    mediaType: z
      .enum(PICTURE_MEDIA_TYPES, coded("IMPORT_PICTURE_MEDIA_TYPE", { types: PICTURE_MEDIA_TYPES.join(", ") }))
      .describe("The picture's format. Export writes image/webp; on import the content decides, as for an upload."),
    data: z
      .string(PICTURE_DATA)
      .max(MAX_PICTURE_BASE64_LENGTH, coded("PICTURE_TOO_LARGE", { size: describeBytes(MAX_UPLOAD_BYTES) }))
      .regex(BASE64, PICTURE_DATA)
      .describe(`The picture's bytes, base64 without line breaks; at most ${describeBytes(MAX_UPLOAD_BYTES)} decoded. Re-encoded on import like an upload.`),
  })
  .describe("A picture shown with the question.");
export type FilePicture = z.output<typeof FilePictureSchema>;

const common = {
  text: QuestionTextSchema.describe("The question, up to 500 characters."),
  timeLimit: QuestionTimeLimitSchema.nullable().default(null).describe("Seconds for this question, 5 to 240; null (or absent) takes the quiz's time limit."),
  points: PointsSchema.default("standard").describe("standard, double (twice the points) or none (counts for nothing)."),
  image: FilePictureSchema.nullable().default(null).describe("A picture for the question, or null."),
};
/** Each kind's question in the file: its name, the common fields, then its own (app/game/kinds/<kind>/schema.ts). */
const FILE_BRANCHES = KIND_DEFINITIONS.map(({ name }) => {
  const { file } = kindSchemaOf(name);
  return z.object({ kind: z.literal(name), ...common, ...file.fields }).describe(file.description);
});

/**
 * One question of the file: its own shape, then the shared question rules (an index within the
 * answers, each correct answer named once, ...), giving the question's content and its picture.
 */
const FileQuestionSchema = z
  .discriminatedUnion("kind", FILE_BRANCHES as unknown as [(typeof FILE_BRANCHES)[number], ...(typeof FILE_BRANCHES)[number][]], {
    // A question that is not even an object says so, by a code the errors catalog has (zod's own words are English).
    error: (issue) => ((issue.code as string) === "invalid_type" ? QUESTION_NOT_OBJECT.error(issue) : KIND_CHOICE.error(issue)),
  })
  .transform((question, ctx) => {
    const { image, ...rest } = question;
    const content = QuestionInputSchema.safeParse({ ...rest, imageId: null });
    if (content.success) return { content: content.data, image };
    for (const issue of content.error.issues) ctx.addIssue({ code: "custom", ...carriedIssue(issue), path: issue.path, input: question });
    return z.NEVER;
  });

export const QuizFileSchema = z
  .object(
    {
      $schema: z.string().optional().describe(`Where this schema is published (${QUIZ_SCHEMA_PATH}); ignored on import.`),
      format: z.literal(QUIZ_FILE_FORMAT, NOT_A_QUIZ_FILE_ERROR).describe("Always quiz-night.quiz."),
      version: z.literal(QUIZ_FILE_VERSION, coded("IMPORT_QUIZ_FILE_VERSION", { version: QUIZ_FILE_VERSION })).describe("The format's version: 1."),
      title: QuizTitleSchema.describe("The quiz's title, up to 200 characters."),
      description: QuizDescriptionSchema.default("").describe("Up to 2000 characters."),
      timeLimit: TimeLimitSchema.describe("Seconds per question unless a question says otherwise, 5 to 120; 20 when absent."),
      questions: z
        .array(FileQuestionSchema, NEEDS_A_QUESTION)
        .min(1, NEEDS_A_QUESTION)
        .max(MAX_QUESTIONS, coded("QUIZ_TOO_MANY_QUESTIONS", { max: MAX_QUESTIONS }))
        .describe(`The questions in the order they are played, 1 to ${MAX_QUESTIONS}.`),
    },
    // A file that is not an object (a list, a string) is not a quiz file.
    NOT_A_QUIZ_FILE_ERROR,
  )
  .describe("A Quiz Night quiz: its details and questions, pictures embedded.");

/**
 * A quiz file's question as written: the common fields and its kind's own (their shapes are each
 * kind's, app/game/kinds/<kind>/schema.ts; the schema checks them).
 */
export type QuizFileQuestion = z.input<(typeof FILE_BRANCHES)[number]> & { [field: string]: unknown };
/** A quiz file as written (what export produces and a script may send). */
export type QuizFile = Omit<z.input<typeof QuizFileSchema>, "questions"> & { questions: QuizFileQuestion[] };
/** A quiz file checked: each question's content (no picture id yet) beside its embedded picture. */
export type ParsedQuizFile = z.output<typeof QuizFileSchema>;

/** The published JSON Schema of the quiz file (what a file may contain, so defaults are optional). */
export function quizFileJsonSchema(): Record<string, unknown> {
  const { $schema, description: _description, ...schema } = z.toJSONSchema(QuizFileSchema, { io: "input", target: "draft-2020-12" }) as Record<string, unknown>;
  return {
    $schema,
    $id: QUIZ_SCHEMA_PATH,
    title: `Quiz Night quiz file, version ${QUIZ_FILE_VERSION}`,
    description:
      "One quiz with its questions and pictures, as exported from Quiz Night (GET /api/quizzes/{id}/export) and imported by POST /api/quizzes/import. " +
      "Each question has a kind; a kind's fields are described on its variant. Fields a kind does not use are ignored.",
    ...schema,
  };
}

// ------------------------------------------------------------------------------ writing a file

/**
 * A quiz as a file, each question with only the fields its kind uses, so a person can read and
 * edit it. `images` holds each picture's base64 by id; a picture not in it is left out.
 */
export function toQuizFile(
  quiz: { title: string; description: string; timeLimit: number },
  questions: QuestionContent[],
  images: ReadonlyMap<string, string>,
): QuizFile {
  return {
    format: QUIZ_FILE_FORMAT,
    version: QUIZ_FILE_VERSION,
    title: quiz.title,
    description: quiz.description,
    timeLimit: quiz.timeLimit,
    questions: questions.map((question) => {
      const data = question.imageId === null ? undefined : images.get(question.imageId);
      return fileQuestion(question, data === undefined ? null : { mediaType: QUIZ_FILE_PICTURE_TYPE, data });
    }),
  };
}

function fileQuestion(question: QuestionContent, image: FilePicture | null): QuizFileQuestion {
  const { text, timeLimit, points } = question;
  return kindSchemaOf(question.kind).toFile(question, { text, timeLimit, points, image }) as QuizFileQuestion;
}

// ------------------------------------------------------------------------------ spreadsheet details

/**
 * The quiz's details that come with a spreadsheet upload (a spreadsheet holds only questions);
 * also how the page's import form reads them.
 */
export const SpreadsheetDetailsSchema = z
  .object({
    title: QuizTitleSchema,
    description: QuizDescriptionSchema.default(""),
    timeLimit: z.preprocess((value) => (value === "" || value === null ? undefined : typeof value === "string" ? Number(value) : value), TimeLimitSchema),
    visibility: z.enum(["private", "public"], coded("QUIZ_VISIBILITY_CHOICE")).default("private"),
  })
  .transform(({ visibility, ...details }) => ({ ...details, isPublic: visibility === "public" }));

/** A spreadsheet's file name as a quiz title: without its extension; a name of nothing but an extension gives none. */
export function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  return base
    .replace(/\.(csv|xlsx|json)$/i, "")
    .replace(/\.quiz$/i, "")
    .trim()
    .slice(0, 200);
}

/** A file name for a quiz: its title in lower-case ASCII words joined by dashes ("quiz" if nothing is left). */
export function quizFileSlug(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || "quiz";
}
