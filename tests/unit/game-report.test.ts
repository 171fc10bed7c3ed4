/** The report's hardest and easiest questions (docs/decisions/0031-game-reports.md), as a table. */
import { describe, expect, it } from "vitest";
import { hardestAndEasiest, type QuestionFigures } from "#app/models/game-report.server";

function question(index: number, kind: QuestionFigures["kind"], correctRate: number | null, averageResponseMs = 5000, answered = 4): QuestionFigures {
  return {
    index,
    kind,
    text: `Q${index + 1}`,
    points: "standard",
    options: [],
    correctAnswer: "",
    answered,
    correct: correctRate === null ? null : correctRate * 4,
    correctRate,
    averageResponseMs,
    optionCounts: null,
    typedAnswers: null,
    guesses: null,
  };
}

describe("hardestAndEasiest", () => {
  it.each([
    ["the lowest and highest right share", [question(0, "choice", 0.5), question(1, "typeAnswer", 0.25), question(2, "multiSelect", 1)], 1, 2],
    [
      "ties go to the slower (hardest) and the faster (easiest) answer",
      [question(0, "choice", 0.5, 4000), question(1, "choice", 0.5, 9000), question(2, "choice", 1, 6000), question(3, "trueFalse", 1, 2000)],
      1,
      3,
    ],
    [
      "polls and closest-number questions are left out",
      [question(0, "poll", null), question(1, "closestNumber", 0), question(2, "choice", 0.75), question(3, "choice", 0.25)],
      3,
      2,
    ],
    ["a question nobody answered is left out", [question(0, "choice", 0, 0, 0), question(1, "choice", 0.5), question(2, "choice", 0.75)], 1, 2],
    ["neither with one question to compare", [question(0, "choice", 0.5), question(1, "poll", null)], null, null],
    ["neither when every question is as hard", [question(0, "choice", 0.5), question(1, "choice", 0.5)], null, null],
  ])("%s", (_name, questions, hardest, easiest) => {
    expect(hardestAndEasiest(questions)).toEqual({ hardest, easiest });
  });
});
