/**
 * The plan of a many-games run (`npm run bench -- --games G --players-per-game P`): which load
 * worker drives which games, when each game starts, and what counts as a lost answer. Pure, so
 * tests/unit/bench-games-plan.test.ts holds it to its word.
 */

/**
 * Game i's start, in ms after the common start: all at 0 without a stagger (every game at the same
 * moment, the worst case), else spread evenly over `staggerSeconds`, the first at 0 and the last at
 * the end of the window.
 */
export function startOffsetsMs(games: number, staggerSeconds: number): number[] {
  if (!Number.isInteger(games) || games < 1) throw new RangeError(`games must be a whole number of at least 1 (got ${games})`);
  if (!(staggerSeconds >= 0) || !Number.isFinite(staggerSeconds)) throw new RangeError(`the stagger must be 0 or more seconds (got ${staggerSeconds})`);
  if (games === 1 || staggerSeconds === 0) return new Array<number>(games).fill(0);
  return Array.from({ length: games }, (_, game) => Math.round((staggerSeconds * 1000 * game) / (games - 1)));
}

/**
 * The games each worker drives, dealt in turn (game 0 to worker 0, game 1 to worker 1, ...) so that
 * with a stagger every worker has early and late games; workers that would get none are left out.
 */
export function assignGames(games: number, workers: number): number[][] {
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a whole number of at least 1 (got ${workers})`);
  const dealt: number[][] = Array.from({ length: Math.min(workers, games) }, () => []);
  for (let game = 0; game < games; game++) dealt[game % dealt.length].push(game);
  return dealt;
}

/** Load-generator processes by default: about 2,500 sockets each, at least 2, as the single-game mode. */
export function defaultWorkerCount(sockets: number): number {
  return Math.max(2, Math.ceil(sockets / 2500));
}

export interface GameAnswers {
  /** SUBMIT_ANSWER sent by the game's players. */
  sent: number;
  /** ANSWER_ACCEPTED received for them. */
  acknowledged: number;
  /** Rows of the game in the answers table of the SQLite file after the run. */
  stored: number;
}

export interface LostAnswers {
  /** Sent but never acknowledged. */
  unacknowledged: number;
  /** Acknowledged but not in the stored scores. */
  notStored: number;
  total: number;
}

/** Lost answers, counted game by game (a game that stored more than it acknowledged does not hide another's loss). */
export function lostAnswers(games: GameAnswers[]): LostAnswers {
  let unacknowledged = 0;
  let notStored = 0;
  for (const game of games) {
    unacknowledged += Math.max(0, game.sent - game.acknowledged);
    notStored += Math.max(0, game.acknowledged - game.stored);
  }
  return { unacknowledged, notStored, total: unacknowledged + notStored };
}
