/**
 * The single-game mode's figures (bench/single-game.ts): the table `npm run bench` prints for a run,
 * and what results.json has always held for one.
 */
import { BROADCAST_BYTES, type BaselineFigures } from "./baseline";
import { pagePassResults, pagePassRows, type PagePasses } from "./page-passes";
import { formatScreen, type ScreenFigures } from "./screens";
import type { GameFigures, SingleGameOptions } from "./single-game";
import { MIB, formatLatency } from "./stats";
import { clientKind } from "./client-socket";
import { clusterRows, serverLabel } from "./bench-target";

/** What a run's table derives from its game against the baseline. */
export interface SingleGameDerived {
  machine: string;
  kindsLabel: string;
  deliveryRatioP99: number;
  rssPerPlayerKiB: number;
  answersAllKept: boolean;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Whether a display or remote saw the whole game: every question, the podium, no ERROR. */
function screenProblems(figures: ScreenFigures, questionCount: number): string {
  const problems = [
    figures.questionsSeen === questionCount ? null : `saw ${figures.questionsSeen} of ${questionCount} questions  <-- MISSING`,
    figures.sawGameOver ? null : "no podium  <-- MISSING",
    figures.errors.length > 0 ? `${figures.errors.length} ERROR messages (${figures.errors[0]})` : null,
  ].filter(Boolean);
  return problems.length > 0 ? problems.join(", ") : `every question and the podium, no ERROR`;
}

/** The run's table, as `npm run bench` prints it. */
export function singleGameRows(
  options: SingleGameOptions,
  game: GameFigures,
  baseline: BaselineFigures,
  pages: PagePasses,
  derived: SingleGameDerived,
): Array<[string, string]> {
  const { playerCount, questionCount, timeLimitSeconds, kinds, workerCount } = options;
  const { machine, kindsLabel, deliveryRatioP99, rssPerPlayerKiB, answersAllKept } = derived;
  const lighthouseRuns = options.pages.lighthouseRuns;
  const rows: Array<[string, string]> = [
    ["machine", machine],
    [
      "players × questions",
      `${playerCount} × ${questionCount} (time limit ${timeLimitSeconds} s, ${kindsLabel}), ${workerCount} load-generator processes, ${clientKind()} client`,
    ],
    ["join", `${playerCount} in the lobby after ${game.joinSeconds.toFixed(2)} s (${Math.round(playerCount / game.joinSeconds)} players/s)`],
    ["question delivery", formatLatency(game.delivery)],
    ["bare ws broadcast", `${formatLatency(baseline.delivery)}, ${baseline.received}/${baseline.expected} received`],
    ["delivery p99 / baseline", `${deliveryRatioP99.toFixed(2)}× (QUESTION_STARTED ${game.questionStartedBytes} B vs ${BROADCAST_BYTES} B)`],
    [
      "question frame max bytes",
      `${game.questionStartedBytes} B${
        game.picture
          ? ` with a picture on players (picture over HTTP: ${game.picture.uploadBytes} B PNG uploaded, ${game.picture.smallBytes} B small / ${game.picture.largeBytes} B large WebP)`
          : " (no pictures)"
      }`,
    ],
    ...(game.display && game.remote
      ? ([
          ["display (projector)", `${formatScreen(game.display)}; ${screenProblems(game.display, questionCount)}`],
          ["display question delivery", formatLatency(game.display.delivery)],
          ["remote (host's phone)", `${formatScreen(game.remote)}; ${screenProblems(game.remote, questionCount)}`],
          ["remote question delivery", formatLatency(game.remote.delivery)],
        ] as Array<[string, string]>)
      : [["display and remote", "not attached (--no-display-remote)"] as [string, string]]),
    ["answer ack", formatLatency(game.ack)],
    ...(kinds === "mixed"
      ? [
          [
            "question delivery p99 by kind",
            Object.entries(game.deliveryByKind)
              .map(([kind, delivery]) => `${kind} ${delivery.p99}`)
              .join(" · ") + " ms",
          ] as [string, string],
          [
            "answer ack p99 by kind",
            Object.entries(game.ackByKind)
              .map(([kind, ack]) => `${kind} ${ack.p99}`)
              .join(" · ") + " ms",
          ] as [string, string],
        ]
      : []),
    [
      "answers",
      `${game.sent} sent, ${game.acknowledged} acknowledged, ${game.inFinalScores} in the final scores${answersAllKept ? "" : "  <-- MISMATCH"}${
        game.strayAcks > 0 ? `, ${game.strayAcks} stray acks` : ""
      }`,
    ],
    [serverLabel(options.nodes, "CPU"), `${round1(game.cpuSecondsJoining)} s joining, ${round1(game.cpuSecondsPlaying)} s playing`],
    [
      serverLabel(options.nodes, "RSS"),
      `${Math.round(game.idleRssBytes / MIB)} MiB idle, ${Math.round(game.peakRssBytes / MIB)} MiB peak, ${round1(rssPerPlayerKiB)} KiB per player`,
    ],
    ...(game.cluster ? clusterRows(game.cluster, 1) : []),
    ["errors / dropped", `${game.errors.length} ERROR messages, ${game.unexpectedCloses} sockets closed early`],
    ...pagePassRows(pages, lighthouseRuns),
  ];
  return rows;
}

export function singleGameResults(
  options: SingleGameOptions,
  game: GameFigures,
  baseline: BaselineFigures,
  pages: PagePasses,
  machine: string,
  deliveryRatioP99: number,
  rssPerPlayerKiB: number,
  picturesOn: number,
) {
  const { withScreens, command, playerCount, questionCount, kinds, timeLimitSeconds, workerCount } = options;
  return {
    date: new Date().toISOString(),
    displayAndRemote: withScreens,
    machine,
    command,
    players: playerCount,
    questions: questionCount,
    kinds,
    questionKinds: Object.keys(game.ackByKind),
    picturesOnQuestions: picturesOn,
    picture: game.picture,
    timeLimitSeconds,
    loadGeneratorProcesses: workerCount,
    joinSeconds: Number(game.joinSeconds.toFixed(2)),
    joinRatePerSecond: Math.round(playerCount / game.joinSeconds),
    questionDeliveryMs: game.delivery,
    baselineBroadcastMs: baseline.delivery,
    deliveryP99RatioToBaseline: Number(deliveryRatioP99.toFixed(2)),
    questionStartedBytes: game.questionStartedBytes,
    /** The largest QUESTION_STARTED frame a player received (the same figure; named for docs/capacity.md). */
    questionFrameMaxBytes: game.questionStartedBytes,
    baselineBroadcastBytes: BROADCAST_BYTES,
    answerAckMs: game.ack,
    answerAckMsByKind: game.ackByKind,
    questionDeliveryMsByKind: game.deliveryByKind,
    answersSent: game.sent,
    answersAcknowledged: game.acknowledged,
    strayAcks: game.strayAcks,
    answersInFinalScores: game.inFinalScores,
    errorMessages: game.errors.length,
    socketsClosedEarly: game.unexpectedCloses,
    serverCpuSecondsJoining: round1(game.cpuSecondsJoining),
    serverCpuSecondsPlaying: round1(game.cpuSecondsPlaying),
    serverIdleRssMiB: Math.round(game.idleRssBytes / MIB),
    serverPeakRssMiB: Math.round(game.peakRssBytes / MIB),
    serverRssPerPlayerKiB: round1(rssPerPlayerKiB),
    /** With `--nodes`: how many, and each node's figures (CPU over the play, RSS, games owned, forwarded sockets) and the proxy's CPU. */
    ...(game.cluster ? { nodes: options.nodes, cluster: game.cluster } : {}),
    /** What the projector's display and the host's phone received over the game (null with --no-display-remote). */
    display: game.display,
    remote: game.remote,
    ...pagePassResults(pages),
  };
}
