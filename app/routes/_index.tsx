import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listHostableQuizzes } from "#app/models/quiz.server";

export async function loader({ context }: LoaderFunctionArgs) {
  const quizzes = await listHostableQuizzes(context.db, {});
  return { quizzes: quizzes.filter((quiz) => quiz.isPublic).slice(0, 12) };
}

export default function Home() {
  const { quizzes } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <h1>Quiz Night</h1>
      <p>Live multiplayer quizzes for clubs, classrooms and pubs.</p>
      <h2>Quizzes ready to host</h2>
      <ul className="quiz-list">
        {quizzes.map((quiz) => (
          <li key={quiz.id}>
            <strong>{quiz.title}</strong> - {quiz.questionCount} questions, {quiz.timeLimit} s each
          </li>
        ))}
      </ul>
    </main>
  );
}
