import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Page } from "#app/components/layout";
import { PlayerDetails, QuestionCard, TextWithDate, questionLabel, useFormats } from "#app/components/game-report";
import { EveningStandingsTable, StandingsTable, TeamDetails, TeamStandingsTable } from "#app/components/report-standings";
import { metaT } from "#app/i18n/meta";
import { useTranslation } from "#app/i18n/use-translation";
import { deleteOwnGame } from "#app/models/game-purge.server";
import { getGameReport } from "#app/models/game-report.server";
import { parseIntent } from "#app/forms/forms";
import { readForm } from "#app/http/api.server";
import { requesterOf } from "#app/sessions/session.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data: loaded }) => [
  { title: loaded ? metaT(matches, "reports")("meta.report", { title: loaded.report.title }) : metaT(matches)("notFound.title") },
];

/** A game id in the path, else nothing: a 404 either way for what is not the caller's game. */
function gameIdOf(param: string | undefined): number | null {
  return param && /^\d{1,15}$/.test(param) ? Number(param) : null;
}

function notFound(): Response {
  return new Response("Not Found", { status: 404 });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const gameId = gameIdOf(params.gameId);
  if (gameId === null) throw notFound();
  const url = new URL(request.url);
  const round = Number(url.searchParams.get("round"));
  const found = await getGameReport(context.db, gameId, await requesterOf(context, request), {
    round: Number.isInteger(round) && round >= 1 ? round - 1 : undefined,
    playerPage: Number(url.searchParams.get("page")) || 1,
  });
  if (found.status !== "ok") throw notFound();
  const report = found.value;
  const retentionMs = context.hub?.reportRetentionMs ?? null;
  return { report, keptUntil: report.status === "finished" && report.endedAt !== null && retentionMs !== null ? report.endedAt + retentionMs : null };
}

const STILL_OPEN = "still-open";

/** Delete, from the confirmation's plain form: the host's own finished game only; anyone else's is not found. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const gameId = gameIdOf(params.gameId);
  if (gameId === null) throw notFound();
  if (parseIntent(await readForm(request, "/my-games/:gameId"), ["delete"]) !== "delete") return data({ error: "unknown" }, { status: 400 });
  const deleted = await deleteOwnGame(context.db, gameId, await requesterOf(context, request));
  if (deleted.status === "not-found") throw notFound();
  if (deleted.status === "unfinished") return data({ error: STILL_OPEN }, { status: 409 });
  context.logger.info({ event: "report_deleted", gameId }, "a host deleted a game's report");
  return redirect("/my-games?deleted=1");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function GameReportPage() {
  const { t } = useTranslation("reports");
  const { report, keptUntil } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const confirming = searchParams.has("delete");
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const format = useFormats();
  const seconds = (ms: number | null) => (ms === null ? "–" : t("report.seconds", { seconds: format.seconds.format(ms / 1000) }));
  const here = `/my-games/${report.gameId}`;
  const roundQuery = report.rounds.length > 1 ? `round=${report.round + 1}` : "";
  const rated = report.questions.filter((question) => question.correctRate !== null && question.answered > 0);
  const averageCorrect = rated.length > 0 ? rated.reduce((sum, question) => sum + question.correctRate!, 0) / rated.length : null;
  const timed = report.questions.filter((question) => question.averageResponseMs !== null);
  const averageTime = timed.length > 0 ? timed.reduce((sum, question) => sum + question.averageResponseMs!, 0) / timed.length : null;
  const firstShown = (report.playerPage - 1) * 100 + 1;
  const night = report.night;
  const teams = report.teams;

  // Asking to delete moves focus to the question, so a keyboard or screen reader user meets it next.
  useEffect(() => {
    if (confirming) confirmHeading.current?.focus();
  }, [confirming]);

  const pageLink = (page: number) => `${here}?${[roundQuery, page > 1 ? `page=${page}` : ""].filter(Boolean).join("&")}`;

  return (
    <Page>
      <div className="stack report">
        <p>
          <Link to="/my-games" className="report-back">
            {t("report.back")}
          </Link>
        </p>
        <div className="stack report-heading">
          <h1>{report.title}</h1>
          {night ? <p>{t("report.nightOf", { count: night.length })}</p> : null}
          <p className="muted">
            <TextWithDate i18nKey="report.played" values={{ code: report.gameCode }} at={report.startedAt ?? report.createdAt} /> ·{" "}
            <span className={`badge${report.status === "finished" ? " badge-success" : ""}`}>{t(`status.${report.status}`)}</span>
          </p>
        </div>

        {report.rounds.length > 1 ? (
          <nav aria-label={t("report.rounds")} className="row">
            {report.rounds.map((round) => (
              <Link
                key={round}
                to={`${here}?round=${round + 1}`}
                className={`chip${round === report.round ? " chip-active" : ""}`}
                aria-current={round === report.round ? "page" : undefined}
              >
                {t("report.round", { round: round + 1 })}
              </Link>
            ))}
          </nav>
        ) : null}

        <section className="card stack" aria-labelledby="report-summary">
          <h2 id="report-summary">{t("report.summary")}</h2>
          <dl className="report-figures">
            <div>
              <dt>{t("report.players")}</dt>
              <dd>{format.number.format(report.playerCount)}</dd>
            </div>
            <div>
              <dt>{t("report.questions")}</dt>
              <dd>{format.number.format(report.questions.length)}</dd>
            </div>
            <div>
              <dt>{t("report.averageCorrect")}</dt>
              <dd>{averageCorrect === null ? "–" : format.percent.format(averageCorrect)}</dd>
            </div>
            <div>
              <dt>{t("report.averageTime")}</dt>
              <dd>{seconds(averageTime)}</dd>
            </div>
          </dl>
          {report.hardest !== null && report.easiest !== null ? (
            <dl className="report-extremes">
              {(
                [
                  ["hardest", report.hardest],
                  ["easiest", report.easiest],
                ] as const
              ).map(([which, index]) => {
                const question = report.questions[index];
                return (
                  <div key={which}>
                    <dt>{t(`report.${which}`)}</dt>
                    <dd>
                      <a href={`#question-${index + 1}`}>{questionLabel(t, question, night !== null)}</a>: {question.text} (
                      {format.percent.format(question.correctRate ?? 0)})
                    </dd>
                  </div>
                );
              })}
            </dl>
          ) : null}
        </section>

        <section className="card stack" aria-labelledby="report-download">
          <h2 id="report-download">{t("report.download")}</h2>
          <p className="hint">{t("report.downloadHint")}</p>
          <div className="row">
            <a href={`${here}/export?format=xlsx${roundQuery ? `&${roundQuery}` : ""}`} className="button" download>
              {t("report.downloadXlsx")}
            </a>
            <a href={`${here}/export?format=csv${roundQuery ? `&${roundQuery}` : ""}`} className="button button-secondary" download>
              {t("report.downloadCsv")}
            </a>
          </div>
        </section>

        {night && report.eveningStandings ? (
          <section className="card stack" aria-labelledby="report-evening">
            <h2 id="report-evening">{t("report.eveningStandings")}</h2>
            <p className="hint">{t("report.eveningStandingsHint")}</p>
            <EveningStandingsTable players={report.eveningStandings} rounds={night} teams={teams !== null} format={format} />
          </section>
        ) : null}

        {teams ? (
          <section className="stack" aria-labelledby="report-teams">
            <h2 id="report-teams">{t("report.teamsHeading")}</h2>
            <div className="card stack">
              <TeamStandingsTable teams={teams} rounds={night} format={format} />
              <p className="hint">{t("report.teamScoreHint")}</p>
            </div>
            <ol className="report-list report-players">
              {teams.map((team) => (
                <TeamDetails key={team.id} team={team} questions={report.questions} night={night !== null} seconds={seconds} format={format} />
              ))}
            </ol>
          </section>
        ) : null}

        {night ? (
          night.map((round) => (
            <section key={round.index} className="stack" aria-labelledby={`report-round-${round.index + 1}`}>
              <h2 id={`report-round-${round.index + 1}`}>{t("report.roundHeading", { round: round.index + 1, title: round.title })}</h2>
              {round.played ? (
                <div className="card stack">
                  <StandingsTable
                    caption={t("report.roundStandings", { round: round.index + 1 })}
                    nameHeader={t("report.player")}
                    rows={round.players}
                    format={format}
                  />
                  <p className="hint">{t("report.topPlayersHint")}</p>
                  {round.teams ? (
                    <StandingsTable
                      caption={t("report.roundTeamStandings", { round: round.index + 1 })}
                      nameHeader={t("report.team")}
                      rows={round.teams}
                      format={format}
                    />
                  ) : null}
                </div>
              ) : (
                <p className="muted">{t("report.roundNotPlayed")}</p>
              )}
              <ol className="report-list">
                {report.questions.slice(round.firstQuestion, round.firstQuestion + round.questionCount).map((question) => (
                  <QuestionCard key={question.index} question={question} players={report.playerCount} seconds={seconds} format={format} />
                ))}
              </ol>
            </section>
          ))
        ) : (
          <section className="stack" aria-labelledby="report-questions">
            <h2 id="report-questions">{t("report.questionsHeading")}</h2>
            <ol className="report-list">
              {report.questions.map((question) => (
                <QuestionCard key={question.index} question={question} players={report.playerCount} seconds={seconds} format={format} />
              ))}
            </ol>
          </section>
        )}

        <section className="stack" aria-labelledby="report-players">
          <h2 id="report-players">{t("report.playersHeading")}</h2>
          {report.players.length === 0 ? (
            <p>{t("report.noPlayers")}</p>
          ) : (
            <>
              {report.playerPages > 1 ? (
                <p className="hint">{t("report.playersShown", { from: firstShown, to: firstShown + report.players.length - 1, total: report.playerCount })}</p>
              ) : null}
              <ol className="report-list report-players">
                {report.players.map((player) => (
                  <PlayerDetails key={player.id} player={player} questions={report.questions} night={night !== null} seconds={seconds} format={format} />
                ))}
              </ol>
              {report.playerPages > 1 ? (
                <nav className="row" aria-label={t("report.playersHeading")}>
                  {report.playerPage > 1 ? (
                    <Link to={pageLink(report.playerPage - 1)} className="button button-secondary">
                      {t("report.previousPlayers")}
                    </Link>
                  ) : null}
                  {report.playerPage < report.playerPages ? (
                    <Link to={pageLink(report.playerPage + 1)} className="button button-secondary">
                      {t("report.nextPlayers")}
                    </Link>
                  ) : null}
                </nav>
              ) : null}
            </>
          )}
        </section>

        <section className="card stack" aria-labelledby="report-delete">
          <h2 id="report-delete" className="visually-hidden">
            {t("report.delete")}
          </h2>
          {keptUntil !== null ? (
            <p className="hint">
              <TextWithDate i18nKey="report.keptUntil" at={keptUntil} dateOnly />
            </p>
          ) : null}
          {actionData?.error === STILL_OPEN || (confirming && report.status !== "finished") ? (
            <p className="form-error" role="alert">
              {t("report.stillOpen")}
            </p>
          ) : confirming ? (
            <div className="my-quiz-confirm stack" role="group" aria-labelledby="report-confirm">
              <h3 id="report-confirm" tabIndex={-1} ref={confirmHeading}>
                {t("report.confirmDelete", { title: report.title })}
              </h3>
              <p>{t("report.confirmDeleteText")}</p>
              <div className="row">
                <Form method="post" action={here}>
                  <button type="submit" name="intent" value="delete" className="button button-danger" disabled={navigation.state !== "idle"}>
                    {navigation.state !== "idle" ? t("report.deleting") : t("report.confirmDeleteButton")}
                  </button>
                </Form>
                <Link to={here} className="button button-secondary" preventScrollReset>
                  {t("report.cancel")}
                </Link>
              </div>
            </div>
          ) : (
            <p>
              <Link to={`${here}?delete=1`} className="button button-secondary" preventScrollReset>
                {t("report.delete")}
              </Link>
            </p>
          )}
        </section>
      </div>
    </Page>
  );
}
