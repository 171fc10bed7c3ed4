/**
 * The break's countdown between two rounds of a night ("Back in 9:41"): the host sets how long the
 * break is, the server sends when it ends on its own clock, and each screen counts down on its own
 * clock corrected by the offset it measured (`clockOffsetMs`, serverNow minus the local time).
 */

/** Milliseconds left in the break on the server's clock (0 once it is over); null when there is no countdown. */
export function breakMsLeft(breakEndsAt: number | null, clockOffsetMs: number, localNow: number): number | null {
  if (breakEndsAt === null) return null;
  return Math.max(0, breakEndsAt - (localNow + clockOffsetMs));
}

const clockFormats = new Map<string, { minutes: Intl.NumberFormat; seconds: Intl.NumberFormat }>();

/**
 * "9:41": whole minutes, then the seconds in two digits, in the language's digits. Seconds round to
 * the nearest, so a break of 5 minutes reads "5:00" when it is set even on a screen whose clock
 * ticked a moment before the message arrived.
 */
export function breakClock(msLeft: number, language: string): string {
  let formats = clockFormats.get(language);
  if (!formats) {
    formats = {
      minutes: new Intl.NumberFormat(language, { maximumFractionDigits: 0, useGrouping: false }),
      seconds: new Intl.NumberFormat(language, { minimumIntegerDigits: 2, maximumFractionDigits: 0, useGrouping: false }),
    };
    clockFormats.set(language, formats);
  }
  const total = Math.max(0, Math.round(msLeft / 1000));
  return `${formats.minutes.format(Math.floor(total / 60))}:${formats.seconds.format(total % 60)}`;
}

/** The whole minutes a countdown has when it is set ("Back in 5 minutes"), to the nearest; at least 1. */
export function breakMinutes(msLeft: number): number {
  return Math.max(1, Math.round(msLeft / 60_000));
}

export type BreakAnnouncement = { key: "minutes"; count: number } | { key: "lastMinute" } | { key: "over" } | null;

/**
 * What a screen reader hears of the countdown: never every second (the clock is a `timer`, which
 * is not announced). The live region's words change three times at most: when a countdown is set
 * (the minutes it was set to, which hold while it runs), at one minute left, and when it is over.
 */
export function breakAnnouncement(msLeft: number | null, minutesSet: number): BreakAnnouncement {
  if (msLeft === null) return null;
  if (msLeft <= 0) return { key: "over" };
  if (msLeft <= 60_000 && minutesSet > 1) return { key: "lastMinute" };
  return { key: "minutes", count: minutesSet };
}

/** The break lengths the host picks from; 0 takes the countdown away (the host starts the round either way). */
export const BREAK_LENGTHS = [0, 5, 10, 15] as const;
