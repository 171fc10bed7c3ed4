import { kindOf } from "#app/game/kinds";
import { sql } from "kysely";
import type { DB } from "#db/connection.server";
import type { StoredEvening } from "#app/game/engine/restore";
import { rankedBy, shownScore } from "#app/game/engine/teams";
import type { NightRound } from "./game-night.server";
import {
  type QuestionFigures,
  type PlayerFigures,
  type TeamQuestionFigures,
  type TeamLine,
  type RoundReport,
  STANDINGS_SHOWN,
  TEAM_MEMBERS_SHOWN,
} from "./game-report.server";
import { type Scope, slotOf, ranked, type ScopedQuestion } from "./game-report-figures.server";

/**
 * The teams' lines (docs/decisions/0033-team-scoring.md): standings, members and per question the
 * members' average points, right share and average time, in one grouped scan of the members' answers. The score
 * is the one the game kept (the average of the points of the members who played each question:
 * those who answered or were connected at its close). The per-question average counts every
 * member, a member without an answer for 0, since who was connected is not stored; the scores
 * therefore differ from the sum of those averages only when a member was away for a question.
 * For an earlier round of Play Again, whose scores the game has not kept, score and contributions
 * are those averages' sums.
 */
export async function teamLines(
  db: DB,
  scope: Scope,
  evening: StoredEvening,
  players: PlayerFigures[],
  questions: ScopedQuestion[],
  storedScores: boolean,
  roundCount: number | null,
): Promise<TeamLine[]> {
  const rows = await db
    .selectFrom("answers")
    .innerJoin("players", (join) => join.onRef("players.game_id", "=", "answers.game_id").onRef("players.id", "=", "answers.player_id"))
    .select([
      "players.team_id",
      "answers.round",
      "answers.question_index",
      sql<number>`count(*)`.as("answered"),
      sql<number>`sum(answers.correct)`.as("correct"),
      sql<number>`sum(answers.points)`.as("points"),
      sql<number>`sum(answers.response_ms)`.as("response_ms"),
    ])
    .where("answers.game_id", "=", scope.gameId)
    .$if(scope.round !== null, (query) => query.where("answers.round", "=", scope.round!))
    .where("players.team_id", "is not", null)
    .groupBy(["players.team_id", "answers.round", "answers.question_index"])
    .execute();
  const membersOf = new Map<number, PlayerFigures[]>();
  for (const player of players) {
    if (player.teamId === null) continue;
    const list = membersOf.get(player.teamId);
    if (list) list.push(player);
    else membersOf.set(player.teamId, [player]);
  }
  const lines = evening.teams.map((team): TeamLine & { exactScore: number } => {
    const members = membersOf.get(team.id) ?? [];
    const count = members.length;
    const perQuestion = questions.map(() => ({ answered: 0, correct: 0, points: 0, responseMs: 0 }));
    for (const row of rows) {
      if (row.team_id !== team.id) continue;
      const slot = slotOf(scope, row.round, row.question_index);
      if (slot === null) continue;
      const figures = perQuestion[slot];
      figures.answered += Number(row.answered);
      figures.correct += Number(row.correct);
      figures.points += Number(row.points);
      figures.responseMs += Number(row.response_ms);
    }
    const teamQuestions = perQuestion.map((figures, slot): TeamQuestionFigures => {
      const scored = kindOf(questions[slot].question.kind).scored;
      return {
        answered: figures.answered,
        correct: scored ? figures.correct : null,
        correctRate: scored && count > 0 ? figures.correct / count : null,
        averagePoints: count > 0 ? figures.points / count : null,
        averageResponseMs: figures.answered > 0 ? Math.round(figures.responseMs / figures.answered) : null,
      };
    });
    const averagedScore = teamQuestions.reduce((sum, figures) => sum + (figures.averagePoints ?? 0), 0);
    const answered = perQuestion.reduce((sum, figures) => sum + figures.answered, 0);
    const responseMs = perQuestion.reduce((sum, figures) => sum + figures.responseMs, 0);
    let roundScores: number[] | null = null;
    if (roundCount !== null) {
      roundScores = new Array<number>(roundCount).fill(0).map((_, round) => {
        const kept = evening.roundResults[round]?.teams.find((entry) => entry.id === team.id);
        if (kept) return kept.score;
        return shownScore(questions.reduce((sum, { round: at }, slot) => sum + (at === round ? (teamQuestions[slot].averagePoints ?? 0) : 0), 0));
      });
    }
    const exactScore = storedScores ? team.score : averagedScore;
    return {
      id: team.id,
      rank: 0,
      name: team.name,
      score: shownScore(exactScore),
      exactScore,
      members: count,
      correct: perQuestion.reduce((sum, figures, slot) => sum + (kindOf(questions[slot].question.kind).scored ? figures.correct : 0), 0),
      answered,
      averageResponseMs: answered > 0 ? Math.round(responseMs / answered) : null,
      roundScores,
      memberList: members.slice(0, TEAM_MEMBERS_SHOWN).map((member) => ({
        id: member.id,
        rank: member.rank,
        nickname: member.nickname,
        score: member.score,
        teamPoints: storedScores ? (member.teamPoints ?? 0) : count > 0 ? member.score / count : 0,
      })),
      questions: teamQuestions,
    };
  });
  if (!storedScores) {
    // The contributions of an earlier round of Play Again: each answer's points over the team's members.
    for (const player of players) {
      const line = lines.find((team) => team.id === player.teamId);
      if (line && line.members > 0) player.teamPoints = player.score / line.members;
    }
  }
  return rankedBy(lines, (team) => team.score).map(({ exactScore: _exact, ...line }) => line);
}

/** A night's rounds: each one's questions' place in the list, whether it was played, its own standings. */
export function roundReports(
  rounds: NightRound[],
  offsets: number[],
  questions: QuestionFigures[],
  players: PlayerFigures[],
  teams: TeamLine[] | null,
  evening: StoredEvening | null,
): RoundReport[] {
  return rounds.map((round, index): RoundReport => {
    const firstQuestion = offsets[index];
    const questionCount = (offsets[index + 1] ?? questions.length) - firstQuestion;
    const answered = questions.slice(firstQuestion, firstQuestion + questionCount).some((question) => question.answered > 0);
    const byRound = ranked(
      players.map((player) => ({ rank: 0, id: player.id, name: player.nickname, score: player.roundScores?.[index] ?? 0 })),
      (entry) => entry.name,
      (entry) => entry.id,
    );
    const teamStandings = teams
      ? rankedBy(
          teams.map((team) => ({ rank: 0, id: team.id, name: team.name, score: team.roundScores?.[index] ?? 0 })),
          (entry) => entry.score,
        )
      : null;
    return {
      index,
      title: round.title,
      firstQuestion,
      questionCount,
      played: answered || evening?.roundResults[index] !== undefined,
      players: byRound.slice(0, STANDINGS_SHOWN),
      teams: teamStandings,
    };
  });
}
