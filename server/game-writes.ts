import { eveningToStored, isNight, pausesToStored, type AnswerRecord, type Effect, type GameState } from "#app/game/engine/index";
import type { GameWriteBatch } from "#app/models/game-batch.server";

export function emptyBatch(): GameWriteBatch {
  return {
    joined: [],
    kicked: [],
    locked: null,
    picturesOnPlayers: null,
    resetScores: false,
    left: [],
    answers: [],
    rescored: [],
    scores: [],
    progress: null,
    teamAssignments: [],
    evening: null,
  };
}

export function isEmptyBatch(batch: GameWriteBatch): boolean {
  return (
    batch.joined.length === 0 &&
    batch.kicked.length === 0 &&
    batch.locked === null &&
    batch.picturesOnPlayers == null &&
    !batch.rescored?.length &&
    !batch.resetScores &&
    batch.left.length === 0 &&
    batch.answers.length === 0 &&
    batch.scores.length === 0 &&
    batch.progress === null &&
    !batch.teamAssignments?.length &&
    !batch.evening
  );
}

/** Rows and changes in a batch, as the commit histogram counts them. */
export function writesIn(batch: GameWriteBatch): number {
  return (
    batch.joined.length +
    batch.kicked.length +
    batch.left.length +
    batch.answers.length +
    batch.scores.length +
    (batch.rescored?.length ?? 0) +
    (batch.locked === null ? 0 : 1) +
    (batch.picturesOnPlayers == null ? 0 : 1) +
    (batch.resetScores ? 1 : 0) +
    (batch.progress === null ? 0 : 1) +
    (batch.teamAssignments?.length ?? 0) +
    (batch.evening ? 1 : 0)
  );
}

export function rescoreOf(round: number, answer: AnswerRecord) {
  return { playerId: answer.playerId, round, questionIndex: answer.questionIndex, correct: answer.correct, points: answer.points };
}

/** A game's writes waiting for their group commit, as its engine's effects change them. */
export class GameWrites {
  batch = emptyBatch();
  /** The batch holds a change of phase: it is committed and announced now, not at the end of the interval. */
  phaseChanged = false;

  constructor(
    private readonly gameId: number,
    private readonly options: { now: () => number },
  ) {}

  /** What an effect changes in the database, added to the next group commit. */
  record(state: GameState, effect: Effect): void {
    const batch = this.batch;
    switch (effect.type) {
      case "playerJoined": {
        if (effect.rejoined) return;
        const { player } = effect;
        batch.joined.push({ id: player.id, nickname: player.nickname, clientId: player.clientId, joinedAt: player.joinedAt });
        return;
      }
      case "playerLeft":
      case "playerKicked": {
        const { player } = effect;
        // A player who joins and goes within one batch is never written.
        const pending = batch.joined.findIndex((joined) => joined.id === player.id);
        if (pending >= 0) batch.joined.splice(pending, 1);
        else batch.left.push(player.id);
        if (effect.type === "playerLeft") return;
        // Its answers go with it (the database deletes them with the player row).
        batch.answers = batch.answers.filter((answer) => answer.player_id !== player.id);
        batch.scores = batch.scores.filter((score) => score.id !== player.id);
        batch.kicked.push(player.clientId);
        return;
      }
      case "teamsChanged":
        for (const player of effect.players) batch.teamAssignments!.push({ id: player.id, teamId: player.teamId });
        batch.evening = eveningToStored(state);
        return;
      case "breakTimerSet":
        batch.evening = eveningToStored(state);
        this.phaseChanged = true;
        return;
      case "roundOver":
      case "roundStarted":
        this.recordProgress(state);
        return;
      case "lobbyLocked":
        batch.locked = effect.locked;
        return;
      case "picturesOnPlayersChanged":
        batch.picturesOnPlayers = effect.enabled;
        return;
      case "gameStarted":
        return;
      case "answerAccepted": {
        const { answer } = effect;
        batch.answers.push({
          game_id: this.gameId,
          player_id: answer.playerId,
          round: state.round,
          question_id: answer.questionId,
          question_index: answer.questionIndex,
          answer_index: answer.answerIndex,
          answer_value: answer.value === null ? null : JSON.stringify(answer.value),
          response_ms: answer.responseTimeMs,
          correct: answer.correct ? 1 : 0,
          points: answer.points,
          answered_at: answer.answeredAt,
        });
        return;
      }
      case "questionClosed":
      case "typedAnswerAccepted": {
        for (const player of effect.changedPlayers) {
          batch.scores.push({ id: player.id, score: player.score, streak: player.streak, correctCount: player.correctCount, teamPoints: player.teamPoints });
        }
        const rescored = effect.type === "questionClosed" ? effect.scoredAnswers : effect.answers;
        for (const answer of rescored) batch.rescored!.push(rescoreOf(state.round, answer));
        if (effect.type === "questionClosed") this.recordProgress(state);
        else if (state.teamMode) batch.evening = eveningToStored(state);
        return;
      }
      case "gameReset":
        batch.resetScores = true;
        batch.scores = [];
        this.recordProgress(state);
        return;
      case "questionStarted":
        this.recordProgress(state, { opensGame: state.questionIndex === 0 });
        return;
      // A pause too is stored before anyone is told, so a restart finds the question as its players last saw it.
      case "leaderboardShown":
      case "gameOver":
      case "questionPaused":
      case "questionResumed":
        this.recordProgress(state);
        return;
    }
  }

  private recordProgress(state: GameState, { opensGame = false } = {}): void {
    this.phaseChanged = true;
    // Team scores and a night's rounds change with the phases; they are a few kilobytes at most.
    if (state.teamMode || isNight(state)) this.batch.evening = eveningToStored(state);
    const now = this.options.now();
    const started = opensGame && state.phase === "question";
    this.batch.progress = {
      ...this.batch.progress,
      phase: state.phase,
      round: state.round,
      questionIndex: state.questionIndex,
      questionStartedAt: state.questionIndex >= 0 ? state.questionStartedAt : null,
      questionPauses: state.phase === "question" ? pausesToStored(state.questionPauses) : [],
      status: state.phase === "finished" ? "finished" : state.phase === "lobby" ? "waiting" : "active",
      ...(started ? { startedAt: now } : {}),
      ...(state.phase === "finished" ? { endedAt: now } : {}),
    };
  }

  /** The batch, for its commit; the next one starts empty. */
  take(): GameWriteBatch {
    const batch = this.batch;
    this.batch = emptyBatch();
    this.phaseChanged = false;
    return batch;
  }
}
