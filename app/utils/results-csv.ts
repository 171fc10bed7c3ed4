import { stringify } from "csv-stringify/browser/esm/sync";

export interface ResultsRow {
  rank: number;
  nickname: string;
  score: number;
  correctCount: number;
  answeredCount: number;
}

export const RESULTS_CSV_COLUMNS = ["Rank", "Nickname", "Score", "Correct answers", "Answered"];

/**
 * The host's results spreadsheet, its header in `columns` (the host's page passes them in the
 * page's language). Nicknames are typed by players, so a cell that a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) gets a leading apostrophe; a
 * byte-order mark tells Excel the text is UTF-8, so "Zoë" stays "Zoë".
 */
export function resultsCsv(players: ResultsRow[], columns: readonly string[] = RESULTS_CSV_COLUMNS): string {
  return stringify(
    players.map((player) => [player.rank, player.nickname, player.score, player.correctCount, player.answeredCount]),
    { header: true, columns: [...columns], bom: true, escape_formulas: true },
  );
}
