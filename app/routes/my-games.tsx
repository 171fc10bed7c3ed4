import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Page } from "#app/components/layout";
import { LocalTime, dateText } from "#app/components/report-ui";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { metaT } from "#app/i18n/meta";
import { useTranslation } from "#app/i18n/use-translation";
import { listHostedGames } from "#app/models/hosted-games.server";
import { requesterOf } from "#app/sessions/session.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "reports")("meta.myGames") }];

/**
 * My Games: every game the caller hosted, newest first: the signed-in account's, or this
 * browser's games hosted without an account (docs/decisions/0031-game-reports.md).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const requester = await requesterOf(context, request);
  const page = Math.max(1, Number(new URL(request.url).searchParams.get("page")) || 1);
  const { games, hasMore } = await listHostedGames(context.db, requester, page);
  return { games, page, hasMore, signedIn: requester.userId != null };
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function MyGames() {
  const { t, language } = useTranslation("reports");
  const { games, page, hasMore, signedIn } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const number = new Intl.NumberFormat(language);

  return (
    <Page>
      <div className="stack">
        <div className="row section-heading">
          <h1>{t("myGames.heading")}</h1>
          <Link to="/host" className="button">
            {t("myGames.hostQuiz")}
          </Link>
        </div>
        <p className="muted">{signedIn ? t("myGames.intro") : t("myGames.introBrowser")}</p>
        {searchParams.has("deleted") ? (
          <p className="status-notice" role="status">
            {t("myGames.deleted")}
          </p>
        ) : null}
        {games.length === 0 && page === 1 ? (
          <div className="card stack">
            <p>{t("myGames.empty")}</p>
            <p>
              <Link to="/host" className="button">
                {t("myGames.hostQuiz")}
              </Link>
            </p>
          </div>
        ) : (
          <div className="table-scroll card">
            <table className="report-table my-games-table">
              <caption className="visually-hidden">{t("myGames.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("myGames.date")}</th>
                  <th scope="col">{t("myGames.quiz")}</th>
                  <th scope="col" className="numeric">
                    {t("myGames.players")}
                  </th>
                  <th scope="col">{t("myGames.winner")}</th>
                  <th scope="col">{t("myGames.status")}</th>
                  <th scope="col">{t("myGames.report")}</th>
                </tr>
              </thead>
              <tbody>
                {games.map((game) => (
                  <tr key={game.id}>
                    <td>
                      <LocalTime at={game.playedAt} />
                    </td>
                    <th scope="row" className="report-title-cell">
                      {game.title}
                      {game.rounds.length > 0 ? (
                        <span className="report-rounds muted">{t("myGames.roundsList", { count: game.rounds.length, titles: game.rounds.join(", ") })}</span>
                      ) : null}
                    </th>
                    <td className="numeric">{number.format(game.players)}</td>
                    <td>
                      {game.winners.length > 0 ? game.winners.join(", ") : <span className="muted">{t("myGames.noWinner")}</span>}
                      {game.winningTeams.length > 0 ? (
                        <span className="report-winning-team">{t("myGames.winningTeam", { team: game.winningTeams.join(", ") })}</span>
                      ) : null}
                    </td>
                    <td>
                      <span className={`badge${game.status === "finished" ? " badge-success" : ""}`}>{t(`status.${game.status}`)}</span>
                    </td>
                    <td>
                      <Link
                        to={`/my-games/${game.id}`}
                        className="button button-secondary button-small"
                        aria-label={t("myGames.openReport", { title: game.title, date: dateText(language, game.playedAt) })}
                      >
                        {t("myGames.report")}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {page > 1 || hasMore ? (
          <nav className="row" aria-label={t("myGames.heading")}>
            {page > 1 ? (
              <Link to={page === 2 ? "/my-games" : `/my-games?page=${page - 1}`} className="button button-secondary">
                {t("myGames.newer")}
              </Link>
            ) : null}
            {hasMore ? (
              <Link to={`/my-games?page=${page + 1}`} className="button button-secondary">
                {t("myGames.older")}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </div>
    </Page>
  );
}
