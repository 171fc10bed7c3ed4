/**
 * Numbers on the game's screens, written as the page's language writes them
 * (docs/decisions/0029-languages.md): "1,969" and "1.5 s" in English, "1.969" and "1,5 s" in German.
 */
export interface GameFormat {
  /** A number from a quiz: a closest-number answer, a guess, the ends of the guesses' spread. */
  number(value: number): string;
  /** Points and scores: grouped only from five digits on ("1850", "12,345"), as the game has always shown them. */
  score(value: number): string;
  /** A whole percentage (0-100): "67%" in English, "67 %" in German and French. */
  percent(value: number): string;
  /** A response time in milliseconds, as seconds with one decimal: "1.5" in English, "1,5" in German. */
  seconds(ms: number): string;
}

const cache = new Map<string, GameFormat>();

export function gameFormat(language: string): GameFormat {
  let format = cache.get(language);
  if (!format) {
    const number = new Intl.NumberFormat(language, { maximumFractionDigits: 6 });
    const score = new Intl.NumberFormat(language, { useGrouping: "min2", maximumFractionDigits: 0 });
    const percent = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 0 });
    const seconds = new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    format = {
      number: (value) => number.format(value),
      score: (value) => score.format(value),
      percent: (value) => percent.format(value / 100),
      seconds: (ms) => seconds.format(ms / 1000),
    };
    cache.set(language, format);
  }
  return format;
}
