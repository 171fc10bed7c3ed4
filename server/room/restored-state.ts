import { restoreGameState, type GameSettings, type GameState, type Phase } from "#app/game/engine/index";
import type { LoadedGame } from "#app/models/game-play.server";

/** A game as stored, as the engine's state: a room starts from it, new or after a restart. */
export function restoredState(loaded: LoadedGame, settings: Partial<GameSettings> | undefined, now: number): GameState {
  return restoreGameState(
    {
      gameCode: loaded.game.game_code,
      title: loaded.title,
      timeLimitSeconds: loaded.timeLimit,
      questions: loaded.questions,
      settings,
      firstRoundTitle: loaded.firstRoundTitle,
      laterRounds: loaded.laterRounds,
    },
    {
      phase: loaded.game.phase as Phase,
      round: loaded.game.round,
      questionIndex: loaded.game.question_index,
      questionStartedAt: loaded.game.question_started_at,
      locked: loaded.game.locked === 1,
      picturesOnPlayers: loaded.game.pictures_on_players === 1,
      kickedClientIds: loaded.kickedClientIds,
      questionPauses: loaded.questionPauses,
      evening: loaded.evening ?? undefined,
    },
    loaded.players,
    loaded.answers,
    now,
  );
}
