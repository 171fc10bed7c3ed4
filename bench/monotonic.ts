/**
 * One clock for every process of the outsider's measurement (bench/outsider.ts): Linux's
 * CLOCK_MONOTONIC, which `process.hrtime` reads, counts from the machine's boot and is the same for
 * every process on it, so a time taken in the runner (the host's command sent) and one taken in a
 * load worker (the question received) subtract directly, to the microsecond, with no handshake
 * and no wall-clock step between them. `clockOffsetMs` checks that on each run rather than assuming it.
 */

/** Milliseconds since the machine's boot, to the microsecond. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint() / 1000n) / 1000;
}

/**
 * The wall clock less the monotonic one, to place a server's `Date.now()` (`serverNow`, whole
 * milliseconds) on the monotonic clock, within a millisecond.
 */
export function wallMinusMonotonicMs(): number {
  return Date.now() - monotonicMs();
}
