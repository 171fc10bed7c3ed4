/**
 * Offensive-word check for names shown on a shared screen, with the `obscenity` package's English
 * word list and its transformers (which see through leetspeak, spacing and repeated letters, and
 * leave words like "Scunthorpe" alone).
 */
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";

const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

/**
 * Whether the text holds an offensive word. Leetspeak reads digits as letters, so a match that is
 * more digits than letters ("Player 455", "P155", "Ann664") reads as a number, not a word, and does
 * not count; "sh1t" and "b1tch" do.
 */
export function isOffensive(text: string): boolean {
  return matcher.getAllMatches(text).some((match) => {
    const matched = text.slice(match.startIndex, match.endIndex + 1);
    const letters = matched.match(/\p{L}/gu)?.length ?? 0;
    const digits = matched.match(/\p{N}/gu)?.length ?? 0;
    return letters > digits;
  });
}
