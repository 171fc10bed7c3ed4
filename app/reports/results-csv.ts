import { stringify } from "csv-stringify/browser/esm/sync";

export interface ResultsRow {
  rank: number;
  nickname: string;
  score: number;
  correctCount: number;
  answeredCount: number;
  /** A team game's: the player's team, null for one without. */
  team?: string | null;
}

export const RESULTS_CSV_COLUMNS = ["Rank", "Nickname", "Score", "Correct answers", "Answered"];

/**
 * The host's results spreadsheet, its header in `columns` (the host's page passes them in the
 * page's language). A team game's passes `teamColumn`, the header of a column naming each
 * player's team, after the nickname. Nicknames and team names are typed by players, so a cell
 * that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first)
 * gets a leading apostrophe; a byte-order mark tells Excel the text is UTF-8, so "Zoë" stays "Zoë".
 */
export function resultsCsv(players: ResultsRow[], columns: readonly string[] = RESULTS_CSV_COLUMNS, teamColumn?: string): string {
  const withTeam = teamColumn !== undefined;
  const header = withTeam ? [...columns.slice(0, 2), teamColumn, ...columns.slice(2)] : [...columns];
  return stringify(
    players.map((player) => [player.rank, player.nickname, ...(withTeam ? [player.team ?? ""] : []), player.score, player.correctCount, player.answeredCount]),
    { header: true, columns: header, bom: true, escape_formulas: true },
  );
}
