import { answerProgress, lobbyUpdate, teamsUpdate, type Effect, type GameState } from "#app/game/engine/index";
import { ANSWER_PROGRESS_INTERVAL_MS, LOBBY_UPDATE_INTERVAL_MS } from "#app/game/rules";
import type { GameOutbox } from "../game-outbox";
import { Throttle } from "../throttle";
import type { RoomMembership } from "./membership";

/**
 * The room's running updates, each sent at most once per its interval however often what it shows
 * changes: the lobby's list (with the teams, when they changed) and the open question's answer count.
 */
export class LiveUpdates {
  private readonly lobbyThrottle: Throttle;
  private readonly progressThrottle: Throttle;
  /** The teams changed in the lobby: the next lobby update carries them. */
  private teamsChanged = false;

  constructor(
    private readonly state: GameState,
    private readonly outbox: GameOutbox,
    private readonly membership: RoomMembership,
    now: () => number,
  ) {
    this.lobbyThrottle = new Throttle(LOBBY_UPDATE_INTERVAL_MS, () => this.sendLobbyUpdate(), now);
    this.progressThrottle = new Throttle(ANSWER_PROGRESS_INTERVAL_MS, () => this.sendAnswerProgress(), now);
  }

  /** An effect the room applied: the updates it changes are asked for, or stop. */
  follow(effect: Effect): void {
    const phase = this.state.phase;
    switch (effect.type) {
      case "playerJoined": {
        if (!effect.rejoined && phase === "lobby") this.lobbyThrottle.request();
        return;
      }
      case "playerLeft": {
        this.lobbyThrottle.request();
        return;
      }
      case "playerKicked": {
        if (phase === "lobby") this.lobbyThrottle.request();
        else if (phase === "question") this.progressChanged();
        return;
      }
      case "teamsChanged": {
        if (phase === "lobby") {
          this.teamsChanged = true;
          this.lobbyThrottle.request();
        }
        return;
      }
      case "gameStarted": {
        if (effect.questionCount > 0) this.lobbyThrottle.cancel();
        return;
      }
      case "questionStarted":
      case "answerAccepted": {
        this.progressChanged();
        return;
      }
      case "questionClosed": {
        this.progressThrottle.cancel();
        return;
      }
    }
  }

  /** The answer count changed: only hosts and displays see it. */
  private progressChanged(): void {
    if (this.membership.hasScreens()) this.progressThrottle.request();
  }

  cancel(): void {
    this.lobbyThrottle.cancel();
    this.progressThrottle.cancel();
  }

  private sendLobbyUpdate(): void {
    const members = this.membership.members;
    const teams = this.teamsChanged ? teamsUpdate(this.state) : null;
    this.teamsChanged = false;
    if (teams) this.outbox.send(teams, members);
    const update = this.membership.players.size === 0 && this.membership.displays.size === 0 ? null : lobbyUpdate(this.state);
    if (update) this.outbox.send(update, members);
    if (teams || update) this.outbox.scheduleFlush();
  }

  private sendAnswerProgress(): void {
    const progress = answerProgress(this.state);
    if (progress.length === 0) return;
    for (const addressed of progress) this.outbox.send(addressed, this.membership.members);
    this.outbox.scheduleFlush();
  }
}
