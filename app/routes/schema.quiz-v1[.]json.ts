import { quizFileJsonSchema } from "#app/quiz-files/quiz-file";

/**
 * GET /schema/quiz-v1.json: the quiz file's JSON Schema. It changes only with a deploy, and any
 * page or editor may fetch it to check a file before uploading.
 */
export function loader() {
  return new Response(JSON.stringify(quizFileJsonSchema(), null, 2), {
    headers: {
      "Content-Type": "application/schema+json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
