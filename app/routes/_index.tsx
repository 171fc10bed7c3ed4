import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ConnectionBadge } from "#app/components/connection-badge";
import { InstallIphoneDialog } from "#app/components/install-iphone-dialog";
import { listShowcaseQuizzes } from "#app/models/quiz.server";
import { MAIN_ID } from "#app/components/layout";

export async function loader({ context }: LoaderFunctionArgs) {
  // A quiz without questions would stop at 'Quiz Error' on start, so it is not ready to host.
  return { quizzes: await listShowcaseQuizzes(context.db, 12) };
}

const FEATURES = [
  {
    title: "Real-time multiplayer",
    text: "Everyone sees each question at the same moment and the leaderboard updates live.",
  },
  {
    title: "AI generated quizzes",
    text: "Describe a topic and get a ready-to-play quiz in seconds.",
  },
  {
    title: "Works on any device",
    text: "Play from a phone, tablet or laptop, and install it on your home screen like an app.",
  },
  {
    title: "Fair speed-based scoring",
    text: "Correct answers score more the faster they come in, so every second counts.",
  },
] as const;

export default function Home() {
  const { quizzes } = useLoaderData<typeof loader>();
  return (
    <main id={MAIN_ID} className="page home">
      <div className="home-toolbar">
        <ConnectionBadge />
      </div>

      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">Quiz Night</h1>
        <p>Live multiplayer quizzes for clubs, classrooms and pubs.</p>
        <div className="row hero-actions">
          <Link to="/ai-quiz" className="button button-large">
            Create AI Quiz
          </Link>
          <Link to="/join" className="button button-secondary button-large">
            Join a Quiz
          </Link>
        </div>
      </section>

      <section className="grid home-cards" aria-label="Get started">
        <Link to="/featured" className="card card-link">
          <h2>Featured Quizzes</h2>
          <p className="muted">Jump into a live public quiz that is open right now.</p>
        </Link>
        <Link to="/create" className="card card-link">
          <h2>Create Custom Quiz</h2>
          <p className="muted">Write your own questions and host them for your group.</p>
        </Link>
      </section>

      <section className="home-section" aria-labelledby="features-title">
        <h2 id="features-title">Why Quiz Night</h2>
        <ul className="grid feature-list">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="card">
              <h3>{feature.title}</h3>
              <p className="muted">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="home-section" aria-labelledby="ready-title">
        <div className="row section-heading">
          <h2 id="ready-title">Quizzes ready to host</h2>
          <Link to="/host" className="button button-secondary button-small">
            Host a quiz
          </Link>
        </div>
        {quizzes.length > 0 ? (
          <ul className="quiz-list">
            {quizzes.map((quiz) => (
              <li key={quiz.id}>
                <strong>{quiz.title}</strong> - {quiz.questionCount} questions, {quiz.timeLimit} s each
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No public quizzes yet.</p>
        )}
      </section>

      <section className="card home-install" aria-labelledby="install-title">
        <h2 id="install-title">Play it like an app</h2>
        <p className="muted">Add Quiz Night to your home screen for a full-screen, faster experience.</p>
        <InstallIphoneDialog />
      </section>
    </main>
  );
}
