/**
 * Game ownership through two whole servers on one PostgreSQL, with real sockets
 * (docs/decisions/0052-game-ownership-and-fencing.md): the node that first opens a game owns it; a
 * socket for that game on the other node is closed with 4000 ("server restarting") so the client
 * reconnects (forwarding goes there later); a drain hands the game over at its safe point, and the
 * other node takes it at once; a node's stop releases its games. Runs in the SQLite pass too, on a
 * PostgreSQL of its own (tests/postgres.ts).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import { ownerRowOf } from "#app/models/game-owners.server";
import { testPostgres, type TestPostgres } from "../postgres";
import { createGameFixture, startTestServer, TestClient, type TestServer } from "./harness";
import { describeWithPostgres } from "./with-postgres";

let postgres: TestPostgres;
let a: TestServer;
let b: TestServer;

describeWithPostgres("two servers on one database", () => {
  beforeAll(async () => {
    postgres = await testPostgres();
    const databaseUrl = await postgres.freshDatabase("ownership_servers");
    a = await startTestServer({ databaseUrl, nodeId: "server-a", nodeAddress: "server-a.test:3000", drainSeconds: 10 });
    b = await startTestServer({ databaseUrl, nodeId: "server-b", nodeAddress: "server-b.test:3000" });
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await postgres?.release();
  });

  it("send a socket for a game the other node owns away with 4000, hand the game over on a drain, and let the other node take it at once", async () => {
    const game = await createGameFixture(a);
    const host = await TestClient.connect(a, game.hostClientId);
    await host.joinAsHost(game.gameCode);
    const ann = await TestClient.connect(a);
    await ann.joinAsPlayer(game.gameCode, "Ann");
    const gameId = (await a.db.selectFrom("games").select("id").where("game_code", "=", game.gameCode).executeTakeFirstOrThrow()).id;
    expect((await ownerRowOf(a.db, gameId))?.nodeId).toBe("server-a");

    // On B, the game is A's: the socket is sent away to reconnect.
    const lost = await TestClient.connect(b);
    lost.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "Bob" });
    expect(await lost.closedByServer()).toBe(CloseCode.SERVER_RESTARTING);

    // A drains mid-question: the question runs to its close (Ann answers), then the game is handed over.
    host.send("START_GAME", { gameCode: game.gameCode });
    await ann.next("QUESTION_STARTED");
    const drained = a.drain();
    const annId = (await a.db.selectFrom("players").select("id").where("game_id", "=", gameId).executeTakeFirstOrThrow()).id;
    ann.send("SUBMIT_ANSWER", { gameCode: game.gameCode, playerId: annId, answerIndex: 1 });
    await ann.next("ANSWER_RESULTS");
    expect(await ann.closedByServer()).toBe(CloseCode.SERVER_RESTARTING);
    expect(await host.closedByServer()).toBe(CloseCode.SERVER_RESTARTING);
    await drained;
    expect((await ownerRowOf(a.db, gameId))?.nodeId).toBeNull();

    // Ann reconnects, to B this time: B claims the game at once and she is back in it with her score.
    const annAgain = await TestClient.connect(b, ann.clientId);
    annAgain.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "Ann" });
    const snapshot = await annAgain.next("GAME_SNAPSHOT");
    expect(snapshot.phase).not.toBe("lobby");
    expect((await ownerRowOf(b.db, gameId))?.nodeId).toBe("server-b");
    await annAgain.close();
  });
});
