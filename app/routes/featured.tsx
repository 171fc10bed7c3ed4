import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useToast } from "#app/components/toaster";
import { useGame } from "#app/game/client/game-provider";
import { DEFAULT_TIME_LIMIT_SECONDS } from "#app/game/rules";

export const meta: MetaFunction = () => [{ title: "Featured Quizzes | Quiz Night" }];

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
        toast({
          title: "Error loading quizzes",
          description: "Could not load featured quizzes. Please try again.",
          variant: "destructive",
        });
      });
    return () => controller.abort();
  }, [attempt, toast]);

  // A refused join comes back as the provider's joinError; an accepted one moves the provider to the lobby.
  const joinErrorSeen = useRef<string | null>(null);
  useEffect(() => {
    if (!pendingQuickJoin) return;
    if (game.joinError && game.joinError !== joinErrorSeen.current) {
      joinErrorSeen.current = game.joinError;
      setPendingQuickJoin(null);
      toast({ title: "Quick join failed", description: "Could not join the quiz. Please try again.", variant: "destructive" });
    } else if (!game.joining && game.gameCode === pendingQuickJoin) {
      setPendingQuickJoin(null);
    }
  }, [pendingQuickJoin, game.joinError, game.joining, game.gameCode, toast]);

  const quickJoin = useCallback(
    (session: FeaturedSession) => {
      const nickname = quickJoinNickname();
      toast({ title: "Joining quiz!", description: `Welcome ${nickname}! Joining ${session.title}...` });
      joinErrorSeen.current = null;
      setPendingQuickJoin(session.gameCode);
      joinGame(session.gameCode, nickname);
    },
    [joinGame, toast],
  );

  const sessions = load.status === "loaded" ? load.sessions : [];
  return (
    <main className="page featured">
      <div className="row featured-heading">
        <h1>Featured Quizzes</h1>
        <span className="badge">Live Quizzes{load.status === "loaded" ? `: ${sessions.length}` : ""}</span>
      </div>
      <p className="muted">Public quizzes that are live right now. Jump in with a code or a single tap.</p>

      {load.status === "loading" ? (
        <div className="grid" aria-busy="true">
          <p className="visually-hidden" role="status">
            Loading quizzes...
          </p>
          {Array.from({ length: SKELETON_COUNT }, (_, index) => (
            <div key={index} className="skeleton" data-testid="featured-skeleton" aria-hidden="true" />
          ))}
        </div>
      ) : null}

      {load.status === "error" ? (
        <div className="card center featured-message" role="alert">
          <h2>Could not load featured quizzes</h2>
          <p className="muted">Please check your connection and try again.</p>
          <button type="button" className="button" onClick={() => setAttempt((count) => count + 1)}>
            Try again
          </button>
        </div>
      ) : null}

      {load.status === "loaded" && sessions.length === 0 ? (
        <div className="card center featured-message">
          <h2>No active quizzes right now</h2>
          <p className="muted">Featured lists the live games of public quizzes, and every quiz is private until its creator makes it public.</p>
          <p className="muted">To list yours, set its Visibility to Public when you create or edit it, then host a game.</p>
          <div className="row featured-empty-actions">
            <Link to="/create-quiz" className="button">
              Create a Quiz
            </Link>
            <Link to="/ai-quiz" className="button button-secondary">
              Generate with AI
            </Link>
          </div>
        </div>
      ) : null}

      {sessions.length > 0 ? (
        <ul className="grid featured-list" aria-label="Live quizzes">
          {sessions.map((session) => (
            <li key={session.id}>
              <SessionCard session={session} joinPending={pendingQuickJoin !== null} onQuickJoin={quickJoin} />
            </li>
          ))}
        </ul>
      ) : null}

      {load.status === "loaded" ? (
        <section className="card featured-stats" aria-labelledby="featured-stats-title">
          <h2 id="featured-stats-title">Statistics</h2>
          <dl className="stats">
            <div>
              <dt>Active quizzes</dt>
              <dd className="stat-value">{sessions.length}</dd>
            </div>
            <div>
              <dt>Available to join</dt>
              <dd className="stat-value">{sessions.filter(isOpen).length}</dd>
            </div>
            <div>
              <dt>Average time per question</dt>
              <dd className="stat-value">{averageTimeLimit(sessions)}s</dd>
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
  const titleId = useId();
  const open = isOpen(session);
  return (
    <article className="card featured-card" aria-labelledby={titleId}>
      <div className="featured-card-header">
        <h2 id={titleId}>{session.title}</h2>
        <span className={`badge${open ? " badge-success" : ""}`}>{open ? "Open" : session.status}</span>
      </div>
      {session.description ? <p className="muted">{session.description}</p> : null}
      <p className="featured-meta">
        <span>
          Game code: <strong className="featured-code">{session.gameCode}</strong>
        </span>
        <span>Time limit: {timeLimitOf(session)}s</span>
      </p>
      <div className="row">
        <Link to={`/join?code=${encodeURIComponent(session.gameCode)}`} className="button button-secondary">
          Join Quiz
        </Link>
        <button type="button" className="button" disabled={!open || joinPending} onClick={() => onQuickJoin(session)}>
          Quick Join
        </button>
      </div>
    </article>
  );
}
