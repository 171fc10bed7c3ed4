import type { Translate } from "#app/i18n/translator";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { gameFormat, type GameFormat } from "#app/game/client/format";
import type { LobbyPlayer, PlayerRef } from "#app/game/client/game-state";
import { Tooltip } from "./tooltip";

export const ANSWER_LETTERS = ["A", "B", "C", "D", "E", "F"] as const;
/** Colour and shape both tell the answers apart, so colour-blind players are not at a disadvantage. */
export const ANSWER_SHAPES = ["▲", "◆", "●", "■", "★", "⬢"] as const;
export const ANSWER_SHAPE_NAMES = ["triangle", "diamond", "circle", "square", "star", "hexagon"] as const;
const ANSWER_COLOURS = ["a", "b", "c", "d", "e", "f"] as const;

export function initials(nickname: string): string {
  const words = nickname.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  if (words.length === 1) return words[0].slice(0, 2).toUpperCase();
  return (words[0][0] + words[1][0]).toUpperCase();
}

export function Avatar({ nickname }: { nickname: string }) {
  return (
    <span className="avatar" aria-hidden="true">
      {initials(nickname)}
    </span>
  );
}

/**
 * The lobby's players; the host also gets a Remove button on each. A player's and a display's list
 * has names without ids (issue 17): each is keyed and a player's own is marked by its name, which is
 * unique in a game.
 */
export function PlayerList({
  players,
  highlightName,
  onRemove,
}: {
  players: readonly LobbyPlayer[];
  highlightName?: string | null;
  onRemove?: (player: PlayerRef) => void;
}) {
  const { t } = useTranslation("game");
  return (
    <ul className="player-list" aria-label={t("players.label")}>
      {players.map(({ id, nickname }) => (
        <li key={id === undefined ? `name:${nickname}` : `id:${id}`} className={highlightName != null && nickname === highlightName ? "me" : undefined}>
          <Avatar nickname={nickname} />
          <span className="player-name">{nickname}</span>
          {onRemove && id !== undefined ? (
            <Tooltip label={t("players.remove", { name: nickname })}>
              <button type="button" className="remove-player" onClick={() => onRemove({ id, nickname })}>
                ×
              </button>
            </Tooltip>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * A game screen's heading. Focus moves to it when the screen appears and whenever `screenKey` changes (a new question,
 * the reveal), so a screen reader reads the new screen and keyboard focus starts at its top.
 */
export function ScreenHeading({ children, className, screenKey }: { children: ReactNode; className?: string; screenKey?: string | number }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [screenKey]);
  return (
    <h1 ref={ref} tabIndex={-1} className={className}>
      {children}
    </h1>
  );
}

/** Re-renders every `intervalMs` and returns the local clock. */
export function useNow(intervalMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Numbers as the page's language writes them (see `gameFormat`). */
export function useGameFormat(): GameFormat {
  const { language } = useTranslation();
  return useMemo(() => gameFormat(language), [language]);
}

export function StandingRow({ rank, nickname, score, isMe, testId }: { rank: number; nickname: string; score: number; isMe: boolean; testId?: string }) {
  const format = useGameFormat();
  return (
    <li className={isMe ? "me" : undefined} data-testid={testId}>
      <span className="rank">{rank}</span>
      <Avatar nickname={nickname} />
      <span>{nickname}</span>
      <span className="score">{format.score(score)}</span>
    </li>
  );
}

/** The top three on their steps, second, first, third from the left; `label` names it (the players' podium by default). */
export function Podium({ standings, label }: { standings: readonly { id: number; rank: number; nickname: string; score: number }[]; label?: string }) {
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const podium = standings.slice(0, 3);
  return (
    <div className="podium" aria-label={label ?? t("results.podium")}>
      {[1, 0, 2].map((place) => {
        const entry = podium[place];
        if (!entry) return null;
        return (
          <div key={entry.id} className={`podium-step podium-${place + 1}`}>
            <Avatar nickname={entry.nickname} />
            <strong>{entry.nickname}</strong>
            <span>{t("results.podiumScore", { score: format.score(entry.score) })}</span>
            <div className="podium-block">{entry.rank}</div>
          </div>
        );
      })}
    </div>
  );
}

/**
 * What a screen reader hears of the countdown: nothing every second (a timer is not announced),
 * once at 10 seconds and once at 5. The text only changes at those two moments, so a polite live
 * region speaks it then and stays quiet otherwise.
 */
export function countdownAnnouncement(secondsLeft: number, t: Translate): string {
  if (secondsLeft <= 0 || secondsLeft > 10) return "";
  return t("countdown.announcement", { count: secondsLeft <= 5 ? 5 : 10 });
}

/**
 * The question's countdown; "Paused" in its place while the host holds the question. The live
 * region says a pause once (its words do not change while it lasts) and stays quiet on the resume
 * unless the last seconds are near.
 */
export function Countdown({ secondsLeft, label, paused = false }: { secondsLeft: number; label?: string; paused?: boolean }) {
  const { t } = useTranslation("game");
  return (
    <>
      {paused ? (
        <div className="countdown countdown-paused" role="timer" aria-label={t("countdown.pausedAria", { count: secondsLeft })} data-testid="countdown-paused">
          {t("countdown.paused")}
        </div>
      ) : (
        <div
          className={`countdown${secondsLeft <= 5 ? " low" : ""}`}
          role="timer"
          aria-label={t("countdown.aria", { label: label ?? t("countdown.label"), count: secondsLeft })}
        >
          {secondsLeft}
        </div>
      )}
      <span className="visually-hidden" aria-live="polite" data-testid="countdown-announcement">
        {paused ? t("countdown.pausedAnnouncement", { count: secondsLeft }) : countdownAnnouncement(secondsLeft, t)}
      </span>
    </>
  );
}

export function AnswerLabel({ index, text }: { index: number; text: string }) {
  return (
    <>
      <span className="answer-shape" aria-hidden="true">
        {ANSWER_SHAPES[index]}
      </span>
      <span>
        <span className="answer-letter">{ANSWER_LETTERS[index]}. </span>
        {text}
      </span>
    </>
  );
}

export function AnswerDistribution({
  answers,
  counts,
  correctAnswerIndex,
}: {
  answers: string[];
  counts: readonly number[];
  /** The right option(s); none for a poll. */
  correctAnswerIndex: number | readonly number[] | null;
}) {
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const total = counts.reduce((sum, count) => sum + count, 0);
  const correct: readonly number[] = correctAnswerIndex === null ? [] : typeof correctAnswerIndex === "number" ? [correctAnswerIndex] : correctAnswerIndex;
  return (
    <div className="distribution" aria-label={t("distribution.label")}>
      {answers.map((answer, index) => {
        const percent = total === 0 ? 0 : Math.round((counts[index] / total) * 100);
        return (
          <div className="distribution-row" key={index}>
            <span className={`answer-shape shape-${index}`} aria-hidden="true">
              {ANSWER_SHAPES[index]}
            </span>
            <div className="distribution-bar" title={answer}>
              <span style={{ width: `${percent}%`, background: `var(--answer-${ANSWER_COLOURS[index]})` }} />
            </div>
            <span>
              {format.percent(percent)} ({format.score(counts[index] ?? 0)}){correct.includes(index) ? " ✓" : ""}
              <span className="visually-hidden">
                {" "}
                {ANSWER_LETTERS[index]}: {answer}
              </span>
            </span>
          </div>
        );
      })}
    </div>
  );
}

/**
 * A question's picture: large on the host's screen; the small rendition on a player's phone. Its text
 * identifies it and does not describe it: it is part of a quiz question, where a description could give
 * the answer away (WCAG 1.1.1's exception for a test; docs/decisions/0027-keyboard-and-focus.md).
 */
export function QuestionPicture({ imageId, size, questionNumber }: { imageId: string | null; size: "large" | "small"; questionNumber: number }) {
  const { t } = useTranslation("game");
  if (!imageId) return null;
  return (
    <img
      className={`question-picture ${size}`}
      src={size === "large" ? `/images/${imageId}` : `/images/${imageId}?size=small`}
      alt={t("picture", { number: questionNumber })}
      data-testid="question-picture"
      decoding="async"
    />
  );
}

/** Fetches a picture ahead (while the leaderboard is up), so the next question shows it at once. */
export function usePreloadPicture(imageId: string | null, size: "large" | "small" | null): void {
  useEffect(() => {
    if (!imageId || !size) return;
    const image = new Image();
    image.src = size === "large" ? `/images/${imageId}` : `/images/${imageId}?size=small`;
  }, [imageId, size]);
}

/** The host's switch: ticks at once, and follows the game's setting as the server confirms it. */
export function PicturesOnPlayersSwitch({ enabled, onChange }: { enabled: boolean; onChange(enabled: boolean): void }) {
  const { t } = useTranslation("game");
  const [checked, setChecked] = useState(enabled);
  useEffect(() => setChecked(enabled), [enabled]);
  return (
    <label className="choice">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => {
          setChecked(event.target.checked);
          onChange(event.target.checked);
        }}
      />
      {t("picturesOnPlayers")}
    </label>
  );
}

/** "Double points" or "No points" beside a question; standard questions say nothing. */
export function PointsBadge({ points }: { points: "standard" | "double" | "none" }) {
  const { t } = useTranslation("game");
  if (points === "standard") return null;
  return <span className="points-badge">{t(points === "double" ? "pointsBadge.double" : "pointsBadge.none")}</span>;
}

/** The spread of closest-number guesses: a small bar chart with the true value marked. */
export function NumberSpreadChart({
  spread,
  truth,
}: {
  spread: { count: number; min: number; max: number; median: number; buckets: { from: number; to: number; count: number }[] };
  truth: number | null;
}) {
  const { t } = useTranslation("game");
  const format = useGameFormat();
  const highest = Math.max(...spread.buckets.map((bucket) => bucket.count), 1);
  return (
    <figure className="stack" aria-label={t("spread.label")}>
      <div className="spread" aria-hidden="true">
        {spread.buckets.map((bucket, index) => (
          <div
            key={index}
            className={truth !== null && truth >= bucket.from && truth <= bucket.to ? "truth" : undefined}
            style={{ height: `${(bucket.count / highest) * 100}%` }}
            title={t("spread.bucket", { from: format.number(bucket.from), to: format.number(bucket.to), guesses: bucket.count })}
          />
        ))}
      </div>
      <figcaption className="muted" data-testid="number-spread">
        {t("spread.caption", {
          count: spread.count,
          min: format.number(spread.min),
          max: format.number(spread.max),
          median: format.number(spread.median),
        })}
      </figcaption>
    </figure>
  );
}

export function ConnectingNotice({ gameCode }: { gameCode: string }) {
  const { t } = useTranslation("game");
  return (
    <div className="card center stack" role="status">
      <p>{t("connecting.message", { code: gameCode })}</p>
      <p className="muted">
        <Trans t={t} i18nKey="connecting.notInGame" components={{ joinLink: <JoinLink gameCode={gameCode} /> }} />
      </p>
    </div>
  );
}

/** The link in "Not in this game yet? Join it with a nickname.": its words come from the catalog, through `Trans`. */
function JoinLink({ gameCode, children }: { gameCode: string; children?: ReactNode }) {
  return <a href={`/join?code=${gameCode}`}>{children}</a>;
}
