/**
 * The standings parts of a game's report page (app/routes/my-games_.$gameId.tsx): a round's or the
 * evening's standings of a night, and a team game's teams with their members and questions.
 */
import { useTranslation } from "#app/i18n/use-translation";
import type { PlayerFigures, QuestionFigures, RoundStanding, TeamLine } from "#app/models/game-report.server";
import { questionLabel, type Formats } from "./game-report";

/** A ranked table of names and scores: a round's players or teams. */
export function StandingsTable({ caption, nameHeader, rows, format }: { caption: string; nameHeader: string; rows: RoundStanding[]; format: Formats }) {
  const { t } = useTranslation("reports");
  return (
    <table className="report-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="numeric">
            {t("report.rank")}
          </th>
          <th scope="col">{nameHeader}</th>
          <th scope="col" className="numeric">
            {t("report.score")}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td className="numeric">{row.rank}</td>
            <th scope="row">{row.name}</th>
            <td className="numeric">{format.number.format(row.score)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A night's top players: each round's points, then the total (and the team in a team game). */
export function EveningStandingsTable({
  players,
  rounds,
  teams,
  format,
}: {
  players: PlayerFigures[];
  rounds: { index: number; title: string }[];
  teams: boolean;
  format: Formats;
}) {
  const { t } = useTranslation("reports");
  return (
    <div className="table-scroll">
      <table className="report-table">
        <caption className="visually-hidden">{t("report.eveningStandings")}</caption>
        <thead>
          <tr>
            <th scope="col" className="numeric">
              {t("report.rank")}
            </th>
            <th scope="col">{t("report.player")}</th>
            {teams ? <th scope="col">{t("report.team")}</th> : null}
            <RoundColumnHeaders rounds={rounds} />
            <th scope="col" className="numeric">
              {t("report.total")}
            </th>
          </tr>
        </thead>
        <tbody>
          {players.map((player) => (
            <tr key={player.id}>
              <td className="numeric">{player.rank}</td>
              <th scope="row">{player.nickname}</th>
              {teams ? <td>{player.team ?? "–"}</td> : null}
              {rounds.map((round) => (
                <td key={round.index} className="numeric">
                  {format.number.format(player.roundScores?.[round.index] ?? 0)}
                </td>
              ))}
              <td className="numeric">{format.number.format(player.score)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A night's column per round, headed "Round 1", "Round 2"…, with the round's title on hover. */
function RoundColumnHeaders({ rounds }: { rounds: { index: number; title: string }[] }) {
  const { t } = useTranslation("reports");
  return rounds.map((round) => (
    <th key={round.index} scope="col" className="numeric">
      <abbr title={round.title}>{t("report.round", { round: round.index + 1 })}</abbr>
    </th>
  ));
}

/** The teams by rank: members and score, and a night's points per round. */
export function TeamStandingsTable({ teams, rounds, format }: { teams: TeamLine[]; rounds: { index: number; title: string }[] | null; format: Formats }) {
  const { t } = useTranslation("reports");
  return (
    <div className="table-scroll">
      <table className="report-table">
        <caption className="visually-hidden">{t("report.teamStandings")}</caption>
        <thead>
          <tr>
            <th scope="col" className="numeric">
              {t("report.rank")}
            </th>
            <th scope="col">{t("report.team")}</th>
            <th scope="col" className="numeric">
              {t("report.members")}
            </th>
            {rounds ? <RoundColumnHeaders rounds={rounds} /> : null}
            <th scope="col" className="numeric">
              {rounds ? t("report.total") : t("report.score")}
            </th>
          </tr>
        </thead>
        <tbody>
          {teams.map((team) => (
            <tr key={team.id}>
              <td className="numeric">{team.rank}</td>
              <th scope="row">{team.name}</th>
              <td className="numeric">{format.number.format(team.members)}</td>
              {rounds?.map((round) => (
                <td key={round.index} className="numeric">
                  {format.number.format(team.roundScores?.[round.index] ?? 0)}
                </td>
              ))}
              <td className="numeric">{format.number.format(team.score)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A team as a player is shown: its members with what each added, and per question its average points, right share and average time. */
export function TeamDetails({
  team,
  questions,
  night,
  seconds,
  format,
}: {
  team: TeamLine;
  questions: QuestionFigures[];
  night: boolean;
  seconds: (ms: number | null) => string;
  format: Formats;
}) {
  const { t } = useTranslation("reports");
  const whole = (value: number) => format.number.format(Math.round(value));
  return (
    <li className="card report-player">
      <details>
        <summary>{t("report.teamSummary", { rank: team.rank, name: team.name, score: format.number.format(team.score) })}</summary>
        {team.members === 0 ? (
          <p className="muted">{t("report.noMembers")}</p>
        ) : (
          <>
            <table className="report-table">
              <caption className="visually-hidden">{t("report.teamMembers", { name: team.name })}</caption>
              <thead>
                <tr>
                  <th scope="col" className="numeric">
                    {t("report.rank")}
                  </th>
                  <th scope="col">{t("report.player")}</th>
                  <th scope="col" className="numeric">
                    {t("report.points")}
                  </th>
                  <th scope="col" className="numeric">
                    {t("report.contribution")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {team.memberList.map((member) => (
                  <tr key={member.id}>
                    <td className="numeric">{member.rank}</td>
                    <th scope="row">{member.nickname}</th>
                    <td className="numeric">{format.number.format(member.score)}</td>
                    <td className="numeric">{whole(member.teamPoints)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {team.members > team.memberList.length ? <p className="hint">{t("report.moreMembers", { count: team.members - team.memberList.length })}</p> : null}
            <table className="report-table">
              <caption className="visually-hidden">{t("report.teamQuestions", { name: team.name })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("report.question")}</th>
                  <th scope="col" className="numeric">
                    {t("report.averagePoints")}
                  </th>
                  <th scope="col" className="numeric">
                    {t("report.rightShare")}
                  </th>
                  <th scope="col" className="numeric">
                    {t("report.averageTime")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {questions.map((question) => {
                  const figures = team.questions[question.index];
                  return (
                    <tr key={question.index}>
                      <th scope="row">
                        {questionLabel(t, question, night)}: {question.text}
                      </th>
                      <td className="numeric">{figures?.averagePoints == null ? "–" : whole(figures.averagePoints)}</td>
                      <td className="numeric">{figures?.correctRate == null ? "–" : format.percent.format(figures.correctRate)}</td>
                      <td className="numeric">{seconds(figures?.averageResponseMs ?? null)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </>
        )}
      </details>
    </li>
  );
}
