/**
 * The parts of a game's report page (app/routes/my-games_.$gameId.tsx): a question's figures, the
 * tallies of typed answers and guesses, a player's answers, and the numbers as the page's language
 * writes them; the standings and teams are in report-standings.tsx.
 */
import { kindOf } from "#app/game/kinds";
import { LocalTime } from "#app/components/report-ui";
import type { Translate } from "#app/i18n/translator";
import { useTranslation } from "#app/i18n/use-translation";
import type { PlayerLine, QuestionFigures, ReportAnswerValue } from "#app/models/game-report.server";

/** Typed answers and guesses shown per question; the downloads carry every one. */
const TALLIES_SHOWN = 20;

function answerInWords(question: QuestionFigures, value: ReportAnswerValue, number: Intl.NumberFormat): string {
  if (value.type === "options") return value.picks.map((pick) => question.options[pick] ?? "").join(", ");
  if (value.type === "text") return value.text;
  return number.format(value.value);
}

function kindLabel(t: Translate, kind: QuestionFigures["kind"]): string {
  return t(`kinds.${kind}`, { ns: "quiz" });
}

export function useFormats() {
  const { language } = useTranslation();
  return {
    number: new Intl.NumberFormat(language),
    percent: new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 0 }),
    seconds: new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  };
}

/** A message with a `{{date}}` in it, the date written by LocalTime (in the reader's time zone once the page runs). */
export function TextWithDate({
  i18nKey,
  values = {},
  at,
  dateOnly = false,
}: {
  i18nKey: string;
  values?: Record<string, string>;
  at: number;
  dateOnly?: boolean;
}) {
  const { t } = useTranslation("reports");
  const [before, after = ""] = t(i18nKey, { ...values, date: "\u0000" }).split("\u0000");
  return (
    <>
      {before}
      <LocalTime at={at} dateOnly={dateOnly} />
      {after}
    </>
  );
}

export type Formats = ReturnType<typeof useFormats>;

export function QuestionCard({
  question,
  players,
  seconds,
  format,
}: {
  question: QuestionFigures;
  players: number;
  seconds: (ms: number | null) => string;
  format: Formats;
}) {
  const { t } = useTranslation("reports");
  // The anchor is its place in the report (unique across a night's rounds); the label its number in its round.
  const anchor = question.index + 1;
  const number = question.number;
  const headingId = `question-${anchor}-heading`;
  const share = (count: number, of: number) => (of > 0 ? format.percent.format(count / of) : "–");
  return (
    <li id={`question-${anchor}`} className="card stack report-question" aria-labelledby={headingId}>
      <div className="my-quiz-header">
        <h3 id={headingId}>
          {t("report.questionNumber", { number })}: {question.text}
        </h3>
        <span className="badge">{kindLabel(t, question.kind)}</span>
      </div>
      <p className="report-stats">
        <strong>
          {question.correct === null
            ? t("report.poll")
            : `${t("report.correctRate", { correct: format.number.format(question.correct), players: format.number.format(players) })} (${share(question.correct, players)})`}
        </strong>
        <span>{t("report.answered", { answered: format.number.format(question.answered), players: format.number.format(players) })}</span>
        <span>{t("report.averageTimeValue", { time: seconds(question.averageResponseMs) })}</span>
      </p>
      {kindOf(question.kind).rightAnswer === "number" && question.correctAnswer !== "" ? (
        <p>{t("report.trueValue", { value: format.number.format(Number(question.correctAnswer)) })}</p>
      ) : question.correctAnswer !== "" ? (
        <p>{t("report.correctAnswer", { answer: question.correctAnswer })}</p>
      ) : null}
      {question.answered === 0 ? <p className="muted">{t("report.notAnswered")}</p> : null}
      {question.optionCounts && question.answered > 0 ? (
        <table className="report-table">
          <caption className="visually-hidden">{t("report.distribution", { number })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("report.answer")}</th>
              <th scope="col" className="numeric">
                {t("report.count")}
              </th>
              <th scope="col" className="numeric">
                {t("report.share")}
              </th>
            </tr>
          </thead>
          <tbody>
            {question.optionCounts.map((option, index) => (
              <tr key={index} className={option.correct ? "report-right" : undefined}>
                <th scope="row">
                  {option.text}
                  {option.correct ? <span className="badge badge-success report-mark">{t("report.rightMark")}</span> : null}
                </th>
                <td className="numeric">{format.number.format(option.count)}</td>
                <td className="numeric">
                  <span
                    className="report-bar"
                    aria-hidden="true"
                    style={{ inlineSize: `${question.answered > 0 ? (option.count / question.answered) * 100 : 0}%` }}
                  />
                  {share(option.count, question.answered)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {question.typedAnswers && question.typedAnswers.length > 0 ? (
        <TallyTable
          caption={t("report.typedAnswers")}
          rows={question.typedAnswers.map((tally) => ({ label: tally.text, count: tally.count, right: tally.correct }))}
          answered={question.answered}
          format={format}
        />
      ) : null}
      {question.guesses && question.guesses.length > 0 ? (
        <TallyTable
          caption={t("report.guesses")}
          rows={question.guesses.map((guess) => ({ label: format.number.format(guess.value), count: guess.count, points: guess.points }))}
          answered={question.answered}
          format={format}
        />
      ) : null}
    </li>
  );
}

export function TallyTable({
  caption,
  rows,
  answered,
  format,
}: {
  caption: string;
  rows: { label: string; count: number; right?: boolean; points?: number }[];
  answered: number;
  format: Formats;
}) {
  const { t } = useTranslation("reports");
  const shown = rows.slice(0, TALLIES_SHOWN);
  const withPoints = rows.some((row) => row.points !== undefined);
  return (
    <>
      <table className="report-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("report.answer")}</th>
            <th scope="col" className="numeric">
              {t("report.count")}
            </th>
            <th scope="col" className="numeric">
              {withPoints ? t("report.points") : t("report.share")}
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row, index) => (
            <tr key={index} className={row.right ? "report-right" : undefined}>
              <th scope="row">
                {row.label}
                {row.right ? <span className="badge badge-success report-mark">{t("report.rightMark")}</span> : null}
              </th>
              <td className="numeric">{format.number.format(row.count)}</td>
              <td className="numeric">
                {row.points !== undefined ? format.number.format(row.points) : answered > 0 ? format.percent.format(row.count / answered) : "–"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown.length ? <p className="hint">{t("report.moreInDownloads", { count: rows.length - shown.length })}</p> : null}
    </>
  );
}

/** "Question 3", or in a night "Round 2, question 3": how the page names a question. */
export function questionLabel(t: Translate, question: Pick<QuestionFigures, "round" | "number">, night: boolean): string {
  return night
    ? t("report.roundQuestionNumber", { round: question.round + 1, number: question.number })
    : t("report.questionNumber", { number: question.number });
}

export function PlayerDetails({
  player,
  questions,
  night,
  seconds,
  format,
}: {
  player: PlayerLine;
  questions: QuestionFigures[];
  /** A night: each answer's round is shown beside its question. */
  night: boolean;
  seconds: (ms: number | null) => string;
  format: Formats;
}) {
  const { t } = useTranslation("reports");
  const rated = questions.filter((question) => question.correct !== null).length;
  const summary = {
    rank: player.rank,
    nickname: player.nickname,
    score: format.number.format(player.score),
    correct: format.number.format(player.correct),
    questions: format.number.format(rated),
  };
  return (
    <li className="card report-player">
      <details>
        <summary>{player.team !== null ? t("report.playerSummaryTeam", { ...summary, team: player.team }) : t("report.playerSummary", summary)}</summary>
        <table className="report-table">
          <caption className="visually-hidden">{t("report.playerAnswers", { nickname: player.nickname })}</caption>
          <thead>
            <tr>
              {night ? <th scope="col">{t("report.roundHeader")}</th> : null}
              <th scope="col">{t("report.question")}</th>
              <th scope="col">{t("report.answer")}</th>
              <th scope="col">{t("report.right")}</th>
              <th scope="col" className="numeric">
                {t("report.time")}
              </th>
              <th scope="col" className="numeric">
                {t("report.points")}
              </th>
            </tr>
          </thead>
          <tbody>
            {questions.map((question) => {
              const answer = player.answers[question.index];
              return (
                <tr key={question.index}>
                  {night ? <td>{question.round + 1}</td> : null}
                  <th scope="row">{question.number}</th>
                  <td>{answer ? answerInWords(question, answer.value, format.number) : <span className="muted">{t("report.noAnswer")}</span>}</td>
                  <td>{!answer || question.correct === null ? "–" : answer.correct ? t("report.rightMark") : t("report.wrongMark")}</td>
                  <td className="numeric">{answer ? seconds(answer.responseMs) : "–"}</td>
                  <td className="numeric">{answer ? format.number.format(answer.points) : "–"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </details>
    </li>
  );
}
