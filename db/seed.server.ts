import type { DB } from "./connection.server";
import { lockUntilCommit } from "./locks.server";
import { QuestionInputSchema, type QuestionInput } from "#app/game/question-input";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import { systemUserId } from "#app/models/user.server";

interface DemoQuiz {
  title: string;
  description: string;
  timeLimit: number;
  questions: ([text: string, answers: [string, string, string, string], correct: number] | QuestionInput)[];
}

const DEMO_QUIZZES: DemoQuiz[] = [
  {
    title: "Pub Quiz Sampler",
    description: "One of every kind of question: pick, true or false, pick several, type it, guess a number, and a poll.",
    timeLimit: 20,
    questions: [
      { kind: "choice", text: "Which of these is a woodwind instrument?", answers: ["Trumpet", "Clarinet", "Violin"], correctAnswerIndex: 1 },
      { kind: "trueFalse", text: "Bats are blind.", correctAnswerIndex: 1 },
      { kind: "multiSelect", text: "Which of these are prime numbers?", answers: ["2", "9", "11", "15", "17"], correctAnswerIndexes: [0, 2, 4], timeLimit: 30 },
      { kind: "typeAnswer", text: "Which planet is closest to the Sun?", acceptedAnswers: ["Mercury"], timeLimit: 30 },
      { kind: "closestNumber", text: "In which year did the first person walk on the Moon?", correctNumber: 1969, timeLimit: 30, points: "double" },
      { kind: "poll", text: "What should the next round be about?", answers: ["Music", "Films", "Sport", "History"] },
    ],
  },
  {
    title: "General Knowledge",
    description: "A warm-up round for any crowd.",
    timeLimit: 20,
    questions: [
      ["How many days are there in a leap year?", ["365", "366", "364", "360"], 1],
      ["Which colour do you get by mixing blue and yellow?", ["Purple", "Orange", "Green", "Brown"], 2],
      ["How many sides does a hexagon have?", ["Five", "Six", "Seven", "Eight"], 1],
      ["Who painted the Mona Lisa?", ["Leonardo da Vinci", "Michelangelo", "Raphael", "Rembrandt"], 0],
      ["What is the largest ocean on Earth?", ["Atlantic", "Indian", "Arctic", "Pacific"], 3],
      ["How many strings does a standard guitar have?", ["Four", "Five", "Six", "Twelve"], 2],
    ],
  },
  {
    title: "Science Sprint",
    description: "Atoms, planets and everything in between.",
    timeLimit: 20,
    questions: [
      ["What is the chemical symbol for gold?", ["Go", "Gd", "Au", "Ag"], 2],
      ["Which planet is known as the Red Planet?", ["Venus", "Mars", "Jupiter", "Mercury"], 1],
      ["What gas do plants absorb from the air?", ["Oxygen", "Nitrogen", "Carbon dioxide", "Helium"], 2],
      ["What is the hardest natural substance?", ["Diamond", "Quartz", "Iron", "Granite"], 0],
      ["How many bones are in the adult human body?", ["186", "206", "226", "246"], 1],
      ["What is the speed of light, roughly, in km per second?", ["3,000", "30,000", "300,000", "3,000,000"], 2],
    ],
  },
  {
    title: "Around the World",
    description: "Capitals, rivers and mountains.",
    timeLimit: 20,
    questions: [
      ["What is the capital of Australia?", ["Sydney", "Melbourne", "Canberra", "Perth"], 2],
      ["Which is the longest river in South America?", ["Amazon", "Paraná", "Orinoco", "Magdalena"], 0],
      ["Mount Kilimanjaro is in which country?", ["Kenya", "Tanzania", "Uganda", "Ethiopia"], 1],
      ["Which country has the most islands?", ["Indonesia", "Philippines", "Sweden", "Canada"], 2],
      ["What is the smallest country in the world?", ["Monaco", "San Marino", "Liechtenstein", "Vatican City"], 3],
      ["Which desert is the largest hot desert?", ["Gobi", "Sahara", "Kalahari", "Arabian"], 1],
    ],
  },
];

/**
 * Adds the demo quizzes when the database has no quiz at all; returns how many it added. They
 * belong to the system account, so nobody can change or delete them (anyone can host them).
 */
export async function seedDemoQuizzes(db: DB): Promise<number> {
  const existing = await db.selectFrom("quizzes").select("id").limit(1).executeTakeFirst();
  if (existing) return 0;
  const owner = { userId: await systemUserId(db) };
  return db.transaction().execute(async (trx) => {
    // Servers starting together on one PostgreSQL database: one seeds, the others then find its quizzes.
    await lockUntilCommit(trx, "seed-demo-quizzes");
    if (await trx.selectFrom("quizzes").select("id").limit(1).executeTakeFirst()) return 0;
    for (const demo of DEMO_QUIZZES) {
      const quiz = await createQuiz(trx, { title: demo.title, description: demo.description, timeLimit: demo.timeLimit, isPublic: true }, owner);
      for (const [order, question] of demo.questions.entries()) {
        const input = Array.isArray(question) ? { text: question[0], answers: question[1], correctAnswerIndex: question[2] } : question;
        await addQuestion(trx, { quizId: quiz.id, ...QuestionInputSchema.parse(input), order });
      }
    }
    return DEMO_QUIZZES.length;
  });
}
