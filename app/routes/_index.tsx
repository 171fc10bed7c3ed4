import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { ConnectionBadge } from "#app/components/connection-badge";
import { InstallIphoneDialog } from "#app/components/install-iphone-dialog";
import { listShowcaseQuizzes } from "#app/models/quiz-lists.server";
import { MAIN_ID } from "#app/components/layout";

export async function loader({ context }: LoaderFunctionArgs) {
  // A quiz without questions would stop at 'Quiz Error' on start, so it is not ready to host.
  return { quizzes: await listShowcaseQuizzes(context.db, 12) };
}

/** Each feature's title and text: `home.features.KEY.title` and `.text` in the common catalog. */
const FEATURES = ["realtime", "ai", "devices", "scoring"] as const;

export default function Home() {
  const { quizzes } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id={MAIN_ID} className="page home">
      <div className="home-toolbar">
        <ConnectionBadge />
      </div>

      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">Quiz Night</h1>
        <p>{t("home.tagline")}</p>
        <div className="row hero-actions">
          <Link to="/ai-quiz" className="button button-large">
            {t("home.createAiQuiz")}
          </Link>
          <Link to="/join" className="button button-secondary button-large">
            {t("home.joinQuiz")}
          </Link>
        </div>
      </section>

      <section className="grid home-cards" aria-label={t("home.getStarted")}>
        <Link to="/featured" className="card card-link">
          <h2>{t("home.featured.title")}</h2>
          <p className="muted">{t("home.featured.text")}</p>
        </Link>
        <Link to="/create" className="card card-link">
          <h2>{t("home.create.title")}</h2>
          <p className="muted">{t("home.create.text")}</p>
        </Link>
      </section>

      <section className="home-section" aria-labelledby="features-title">
        <h2 id="features-title">{t("home.why")}</h2>
        <ul className="grid feature-list">
          {FEATURES.map((feature) => (
            <li key={feature} className="card">
              <h3>{t(`home.features.${feature}.title`)}</h3>
              <p className="muted">{t(`home.features.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="home-section" aria-labelledby="ready-title">
        <div className="row section-heading">
          <h2 id="ready-title">{t("home.ready.title")}</h2>
          <Link to="/host" className="button button-secondary button-small">
            {t("home.ready.host")}
          </Link>
        </div>
        {quizzes.length > 0 ? (
          <ul className="quiz-list">
            {quizzes.map((quiz) => (
              <li key={quiz.id}>
                {/* The title is the quiz's own words: it rides in as the <title/> element's child, never through the translation. */}
                <Trans
                  i18nKey="home.ready.quiz"
                  count={quiz.questionCount}
                  values={{ seconds: quiz.timeLimit }}
                  components={{ title: <strong>{quiz.title}</strong> }}
                />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t("home.ready.none")}</p>
        )}
      </section>

      <section className="card home-install" aria-labelledby="install-title">
        <h2 id="install-title">{t("home.install.title")}</h2>
        <p className="muted">{t("home.install.text")}</p>
        <InstallIphoneDialog />
      </section>
    </main>
  );
}
