/**
 * The protocol's routing table (app/game/protocol-routes.ts, docs/decisions/0046-messages-routed-once.md):
 * every client message type has exactly one route, and who a route says may send a message agrees
 * with what the engine lets through.
 */
import { describe, expect, it } from "vitest";
import { createGameState, isRejection, transition, type Actor, type EngineQuestion, type GameState } from "#app/game/engine/index";
import { ClientMessageSchema } from "#app/game/protocol";
import { CLIENT_MESSAGE_ROUTES, type Sender } from "#app/game/protocol-routes";

const unionTypes = ClientMessageSchema.options.map((option) => option.shape.type.value);
const routes = CLIENT_MESSAGE_ROUTES as Record<string, (typeof CLIENT_MESSAGE_ROUTES)[keyof typeof CLIENT_MESSAGE_ROUTES]>;

describe("the routing table", () => {
  it("has exactly one entry for every client message type of the protocol's union, and no other", () => {
    expect(new Set(unionTypes).size).toBe(unionTypes.length);
    expect(Object.keys(routes).sort()).toEqual([...unionTypes].sort());
  });

  it.each(unionTypes)("gives %s the union's own schema for it", (type) => {
    expect(routes[type]?.schema).toBe(ClientMessageSchema.options.find((option) => option.shape.type.value === type));
  });

  it("leaves to the transport only the messages that choose a room", () => {
    expect(unionTypes.filter((type) => routes[type]?.by === "transport").sort()).toEqual(["JOIN_GAME", "WATCH_GAME"]);
  });
});

const T0 = 1_700_000_000_000;
const QUESTIONS: EngineQuestion[] = [
  { id: 101, kind: "choice", text: "Capital of France?", answers: ["Rome", "Paris", "Berlin", "Madrid"], correctAnswerIndex: 1 },
  { id: 102, kind: "choice", text: "2 + 2?", answers: ["3", "5", "4", "22"], correctAnswerIndex: 2 },
];
/** Every field any message's payload has, so each route's builder finds what it reads. */
const PAYLOAD = {
  gameCode: "ABC234",
  playerId: 1,
  answerIndex: 0,
  locked: true,
  questionNumber: 1,
  text: "Paris",
  enabled: true,
  name: "Table 4",
  teamId: 1,
  team: "Table 4",
  minutes: 5,
};

/** A game with one player, in the lobby or with its first question open. */
function game(phase: "lobby" | "question"): { state: GameState; playerId: number } {
  const state = createGameState({ gameCode: "ABC234", title: "T", timeLimitSeconds: 20, questions: QUESTIONS });
  const joined = transition(state, { type: "join", clientId: "c1", nickname: "Ann" }, T0);
  if (isRejection(joined) || joined.effects[0].type !== "playerJoined") throw new Error("join refused");
  const playerId = joined.effects[0].player.id;
  if (phase === "question") {
    const started = transition(state, { type: "start", actor: { role: "host" } }, T0 + 1000);
    if (isRejection(started)) throw new Error("start refused");
  }
  return { state, playerId };
}

const actorOf = (sender: Sender, playerId: number): Actor => (sender === "player" ? { role: "player", playerId } : { role: sender });
const SENDERS: Sender[] = ["host", "display", "player", "guest"];

describe("who may send a message, as the table says it", () => {
  const commandRoutes = unionTypes.flatMap((type) => {
    const route = routes[type];
    // A type without a route fails the first test; it has no command to check here.
    return route?.by === "engine" ? [{ type, route }] : [];
  });

  it.each(
    commandRoutes.flatMap(({ type, route }) =>
      SENDERS.filter((sender) => !(route.senders as readonly Sender[]).includes(sender)).map((sender) => ({ type, route, sender })),
    ),
  )("$type from a $sender is refused by the engine", ({ route, sender }) => {
    for (const phase of ["lobby", "question"] as const) {
      const { state, playerId } = game(phase);
      const command = route.command({ ...PAYLOAD, playerId } as never, actorOf(sender, playerId), undefined);
      expect(isRejection(transition(state, command, T0 + 2000)), `${phase}`).toBe(true);
    }
  });

  it("lets each sender it names through the engine's check of who sends it", () => {
    const refusedForWho = ["NOT_HOST", "NOT_YOUR_PLAYER", "UNKNOWN_PLAYER", "HOST_CANNOT_ANSWER"];
    for (const { type, route } of commandRoutes) {
      for (const sender of route.senders) {
        for (const phase of ["lobby", "question"] as const) {
          const { state, playerId } = game(phase);
          const result = transition(state, route.command({ ...PAYLOAD, playerId } as never, actorOf(sender, playerId), undefined), T0 + 2000);
          if (isRejection(result)) expect(refusedForWho, `${type} from a ${sender} in the ${phase}`).not.toContain(result.error.code);
        }
      }
    }
  });
});
