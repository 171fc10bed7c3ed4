/** A game as the database hands it to a room: in its lobby, one question ("2 + 2?", 4 is right), no players yet. */
import { QuestionInputSchema } from "#app/game/question-input";
import type { GameRow } from "#db/schema";
import type { LoadedGame } from "#app/models/game-play.server";

export function loadedGame({ id = 1, gameCode = "ROOM42", title = "Commit test" } = {}): LoadedGame {
  const game: GameRow = {
    id,
    quiz_id: 1,
    host_id: null,
    game_code: gameCode,
    status: "waiting",
    host_client_id: "host",
    creator_client_id: "host",
    host_secret_hash: null,
    time_limit: 20,
    phase: "lobby",
    question_index: -1,
    question_started_at: null,
    question_pauses: "[]",
    round: 0,
    locked: 0,
    pictures_on_players: 0,
    display_key: "display-key",
    remote_key: "remote-key",
    evening: null,
    created_at: 0,
    started_at: null,
    ended_at: null,
  };
  return {
    game,
    title,
    timeLimit: 20,
    questions: [{ id: 7, quizId: 1, order: 0, ...QuestionInputSchema.parse({ text: "2 + 2?", answers: ["3", "4", "5", "6"], correctAnswerIndex: 1 }) }],
    laterRounds: [],
    evening: null,
    players: [],
    answers: [],
    kickedClientIds: [],
    questionPauses: [],
  };
}
