import type { Effect, GameState } from "#app/game/engine/index";
import type { Logger } from "../logger";

/** What a room's log says of an effect of the engine, once it is applied: the moments an operator looks for. */
export function logEffect(logger: Logger, state: GameState, effect: Effect): void {
  switch (effect.type) {
    case "playerKicked": {
      logger.info({ event: "player_kicked", playerId: effect.player.id, players: state.players.size }, "player removed by the host");
      return;
    }
    case "roundOver": {
      logger.info({ event: "round_over", round: state.round + 1, rounds: state.rounds.length }, "round over: break");
      return;
    }
    case "roundStarted": {
      logger.info({ event: "round_started", round: state.round + 1, rounds: state.rounds.length }, "next round started");
      return;
    }
    case "lobbyLocked": {
      logger.info({ event: effect.locked ? "game_locked" : "game_unlocked" }, effect.locked ? "game locked" : "game unlocked");
      return;
    }
    case "gameStarted": {
      if (effect.questionCount > 0) {
        logger.info({ event: "game_started", players: state.players.size, questions: effect.questionCount, round: state.round }, "game started");
      }
      return;
    }
    case "questionPaused":
    case "questionResumed": {
      logger.info(
        { event: effect.type === "questionPaused" ? "question_paused" : "question_resumed", question: state.questionIndex + 1 },
        effect.type === "questionPaused" ? "question paused" : "question resumed",
      );
      return;
    }
    case "typedAnswerAccepted": {
      logger.info({ event: "typed_answer_accepted", players: effect.changedPlayers.length }, "host accepted a typed answer");
      return;
    }
    case "gameOver": {
      logger.info(
        { event: "game_finished", players: state.players.size, round: state.round, ...(effect.endedEarly ? { endedEarly: true } : {}) },
        effect.endedEarly ? "game ended by the host" : "game finished",
      );
      return;
    }
  }
}
