import v8 from "node:v8";

/**
 * How far, in percent, V8 lets the old generation grow past what survived its last full collection
 * before it collects again. V8 chooses up to 300 % by itself when collecting looks cheap, and a
 * game makes its garbage in the old generation: every answer, acknowledgement and delivery waits
 * for a commit and outlives the young generation. At 10,000 players that garbage was up to 60 MiB
 * of the 140 MiB the server grew by at its peak, more or less from run to run depending on whether
 * V8 happened to collect during the game (issue 18, docs/decisions/0039-heap-growth.md).
 */
export const HEAP_GROWING_PERCENT = 30;

const CHOSEN_ON_COMMAND_LINE = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * Holds this process's old generation to `HEAP_GROWING_PERCENT` of growth between full
 * collections, unless `node --heap-growing-percent=N` chose otherwise (NODE_OPTIONS cannot carry
 * it). Returns whether it set it.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => CHOSEN_ON_COMMAND_LINE.test(arg))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
