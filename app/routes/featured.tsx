import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { useToast } from "#app/components/toaster";
import { useGame } from "#app/game/client/game-provider";
import { DEFAULT_TIME_LIMIT_SECONDS } from "#app/game/rules";
import { MAIN_ID } from "#app/components/layout";
import { metaT } from "#app/i18n/meta";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches)("featured.metaTitle") }];

/** One item of GET /api/game-sessions (docs/product.md#http-api). */
interface FeaturedSession {
  id: number;
  quizId?: number;
  title: string;
  description: string | null;
  gameCode: string;
  status: string;
  timeLimit?: number | null;
}

const SKELETON_COUNT = 6;
/** Nicknames, like the ones players type: the same in every language. */
const QUICK_JOIN_WORDS = ["Quizzer", "Brainiac", "Genius", "Scholar", "Wizard", "Champion", "Ace", "Maverick", "Trivia", "Sage"] as const;

/** A random fixed word plus a number from 0 to 999; the longest fits the 15-character nickname limit. */
function quickJoinNickname(random: () => number = Math.random): string {
  const word = QUICK_JOIN_WORDS[Math.floor(random() * QUICK_JOIN_WORDS.length)];
  return `${word}${Math.floor(random() * 1000)}`;
}

const isOpen = (session: FeaturedSession) => session.status === "waiting";
const timeLimitOf = (session: FeaturedSession) => session.timeLimit ?? DEFAULT_TIME_LIMIT_SECONDS;

function averageTimeLimit(sessions: FeaturedSession[]): number {
  if (sessions.length === 0) return DEFAULT_TIME_LIMIT_SECONDS;
  const total = sessions.reduce((sum, session) => sum + timeLimitOf(session), 0);
  return Math.round(total / sessions.length);
}

async function fetchGameSessions(signal: AbortSignal): Promise<FeaturedSession[]> {
  const response = await fetch("/api/game-sessions", { credentials: "include", signal });
  if (!response.ok) throw new Error("Failed to fetch game sessions");
  const sessions: unknown = await response.json();
  if (!Array.isArray(sessions)) throw new Error("Failed to fetch game sessions");
  return sessions as FeaturedSession[];
}

type LoadState = { status: "loading" } | { status: "error" } | { status: "loaded"; sessions: FeaturedSession[] };

export default function Featured() {
  const { t, language } = useTranslation();
  const formatNumber = (value: number) => new Intl.NumberFormat(language).format(value);
  const toast = useToast();
  const { state: game, joinGame } = useGame();
  const [load, setLoad] = useState<LoadState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [pendingQuickJoin, setPendingQuickJoin] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: "loading" });
    fetchGameSessions(controller.signal)
      .then((sessions) => setLoad({ status: "loaded", sessions }))
      .catch(() => {
        if (controller.signal.aborted) return;
        setLoad({ status: "error" });
        toast({ title: t("featured.loadFailedToast.title"), description: t("featured.loadFailedToast.text"), variant: "destructive" });
      });
    return () => controller.abort();
  }, [attempt, toast, t]);

  // A refused join comes back as the provider's joinError; an accepted one moves the provider to the lobby.
  const joinErrorSeen = useRef<string | null>(null);
  useEffect(() => {
    if (!pendingQuickJoin) return;
    if (game.joinError && game.joinError !== joinErrorSeen.current) {
      joinErrorSeen.current = game.joinError;
      setPendingQuickJoin(null);
      toast({ title: t("featured.quickJoinFailed.title"), description: t("featured.quickJoinFailed.text"), variant: "destructive" });
    } else if (!game.joining && game.gameCode === pendingQuickJoin) {
      setPendingQuickJoin(null);
    }
  }, [pendingQuickJoin, game.joinError, game.joining, game.gameCode, toast, t]);

  const quickJoin = useCallback(
    (session: FeaturedSession) => {
      const nickname = quickJoinNickname();
      toast({ title: t("featured.joining.title"), description: t("featured.joining.text", { nickname, title: session.title }) });
      joinErrorSeen.current = null;
      setPendingQuickJoin(session.gameCode);
      joinGame(session.gameCode, nickname);
    },
    [joinGame, toast, t],
  );

  const sessions = load.status === "loaded" ? load.sessions : [];
  return (
    <main id={MAIN_ID} className="page featured">
      <div className="row featured-heading">
        <h1>{t("featured.title")}</h1>
        <span className="badge">{load.status === "loaded" ? t("featured.liveCount", { value: sessions.length }) : t("featured.live")}</span>
      </div>
      <p className="muted">{t("featured.intro")}</p>

      {load.status === "loading" ? (
        <div className="grid" aria-busy="true">
          <p className="visually-hidden" role="status">
            {t("featured.loading")}
          </p>
          {Array.from({ length: SKELETON_COUNT }, (_, index) => (
            <div key={index} className="skeleton" data-testid="featured-skeleton" aria-hidden="true" />
          ))}
        </div>
      ) : null}

      {load.status === "error" ? (
        <div className="card center featured-message" role="alert">
          <h2>{t("featured.error.title")}</h2>
          <p className="muted">{t("featured.error.text")}</p>
          <button type="button" className="button" onClick={() => setAttempt((count) => count + 1)}>
            {t("featured.error.tryAgain")}
          </button>
        </div>
      ) : null}

      {load.status === "loaded" && sessions.length === 0 ? (
        <div className="card center featured-message">
          <h2>{t("featured.empty.title")}</h2>
          <p className="muted">{t("featured.empty.text")}</p>
          <p className="muted">{t("featured.empty.why")}</p>
          <p className="muted">{t("featured.empty.howTo")}</p>
          <div className="row featured-empty-actions">
            <Link to="/create-quiz" className="button">
              {t("featured.empty.create")}
            </Link>
            <Link to="/ai-quiz" className="button button-secondary">
              {t("featured.empty.generate")}
            </Link>
          </div>
        </div>
      ) : null}

      {sessions.length > 0 ? (
        <ul className="grid featured-list" aria-label={t("featured.listLabel")}>
          {sessions.map((session) => (
            <li key={session.id}>
              <SessionCard session={session} joinPending={pendingQuickJoin !== null} onQuickJoin={quickJoin} />
            </li>
          ))}
        </ul>
      ) : null}

      {load.status === "loaded" ? (
        <section className="card featured-stats" aria-labelledby="featured-stats-title">
          <h2 id="featured-stats-title">{t("featured.stats.title")}</h2>
          <dl className="stats">
            <div>
              <dt>{t("featured.stats.active")}</dt>
              <dd className="stat-value">{formatNumber(sessions.length)}</dd>
            </div>
            <div>
              <dt>{t("featured.stats.open")}</dt>
              <dd className="stat-value">{formatNumber(sessions.filter(isOpen).length)}</dd>
            </div>
            <div>
              <dt>{t("featured.stats.averageTime")}</dt>
              <dd className="stat-value">{t("featured.seconds", { seconds: averageTimeLimit(sessions) })}</dd>
            </div>
          </dl>
        </section>
      ) : null}
    </main>
  );
}

function SessionCard({
  session,
  joinPending,
  onQuickJoin,
}: {
  session: FeaturedSession;
  joinPending: boolean;
  onQuickJoin: (session: FeaturedSession) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const open = isOpen(session);
  return (
    <article className="card featured-card" aria-labelledby={titleId}>
      <div className="featured-card-header">
        <h2 id={titleId}>{session.title}</h2>
        <span className={`badge${open ? " badge-success" : ""}`}>{t(`gameStatus.${session.status}`, { defaultValue: session.status })}</span>
      </div>
      {session.description ? <p className="muted">{session.description}</p> : null}
      <p className="featured-meta">
        <span>
          <Trans i18nKey="featured.card.code" components={{ code: <strong className="featured-code">{session.gameCode}</strong> }} />
        </span>
        <span>{t("featured.card.timeLimit", { seconds: timeLimitOf(session) })}</span>
      </p>
      <div className="row">
        <Link to={`/join?code=${encodeURIComponent(session.gameCode)}`} className="button button-secondary">
          {t("featured.card.join")}
        </Link>
        <button type="button" className="button" disabled={!open || joinPending} onClick={() => onQuickJoin(session)}>
          {t("featured.card.quickJoin")}
        </button>
      </div>
    </article>
  );
}
