/**
 * Two real servers on one real PostgreSQL (issue 28; docs/decisions/0056-forwarding-and-signals.md):
 * a socket for a game that node A owns, arriving at node B, is forwarded to A and plays there, A
 * counting it by its player's address; forwarding headers that do not check out are refused, and a
 * forwarded socket is never forwarded again; an owner that cannot be reached leaves the socket with
 * the node it reached, which closes it with 4000. What a request on B changes for a room on A
 * reaches A: new display links close A's displays, a sign-out on B ends the host seat on A; B
 * answers the team list from the database. The sweep on B leaves alone the waiting game A has open,
 * and runs on one node at a time.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import { openDatabase } from "#db/connection.server";
import { lockKey } from "#db/locks.server";
import { ownerRowOf } from "#app/models/game-owners.server";
import { PostgresOwnership } from "#server/ownership-postgres";
import { CLUSTER_SIGNAL_CHANNEL } from "#server/cluster-signals";
import { leaseTimings } from "#server/ownership-lease";
import { forwardHeaders, forwardingKeyOf, FORWARD_HEADERS } from "#server/socket/forward-auth";
import { testPostgres, type TestPostgres } from "#tests/postgres";
import { describeWithPostgres } from "./with-postgres";
import { TEST_SESSION_SECRET, TestClient, browserCookie, createGameFixture, startTestServer, type TestServer } from "./harness";
import { freePort } from "#tests/free-port";

const METRICS_TOKEN = "forwarding-test-metrics-token";
const TIMINGS = { heartbeatMs: 200, leaseMs: 1000 };

let postgres: TestPostgres;
let databaseUrl: string;
let nodeA: TestServer;
let nodeB: TestServer;

async function startNode(nodeId: string): Promise<TestServer> {
  const port = await freePort();
  return startTestServer({
    databaseUrl,
    port,
    nodeId,
    nodeAddress: `127.0.0.1:${port}`,
    ownershipTimings: TIMINGS,
    metricsToken: METRICS_TOKEN,
    // One player per address and game: the owner must count a forwarded player by the player's address.
    limits: { playersPerIpPerGame: 1 },
  });
}

describeWithPostgres("two nodes on one PostgreSQL", () => {
  beforeAll(async () => {
    postgres = await testPostgres();
    databaseUrl = await postgres.freshDatabase("forwarding");
    nodeA = await startNode("node-a");
    nodeB = await startNode("node-b");
  });

  afterAll(async () => {
    await nodeB?.stop();
    await nodeA?.stop();
    await postgres?.release();
  });

  /** A game made over HTTP on A, its host's socket on A: A claims and owns it. */
  async function gameOwnedByA() {
    const fixture = await createGameFixture(nodeA);
    const host = await TestClient.connect(nodeA, fixture.hostClientId, undefined, { game: fixture.gameCode });
    await host.joinAsHost(fixture.gameCode);
    const gameId = (await nodeA.db.selectFrom("games").select("id").where("game_code", "=", fixture.gameCode).executeTakeFirstOrThrow()).id;
    expect(await ownerRowOf(nodeA.db, gameId)).toMatchObject({ nodeId: "node-a" });
    return { ...fixture, gameId, host };
  }

  async function forwardedSockets(node: TestServer): Promise<number> {
    const text = await (await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const line = text.split("\n").find((candidate) => candidate.startsWith("quiz_night_forwarded_sockets_total"));
    return Number(line?.split(" ").at(-1) ?? NaN);
  }

  async function connectionsOf(node: TestServer): Promise<number> {
    return ((await (await fetch(`${node.url}/healthz`)).json()) as { connections: number }).connections;
  }

  /** Waits for `check` to hold, polling: what another node does arrives a moment later. */
  async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error("the condition did not come true in time");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** An upgrade's answer when it was refused: its status. */
  function refusedStatus(url: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      import("ws").then(({ default: WebSocket }) => {
        const socket = new WebSocket(url, { headers });
        socket.once("open", () => reject(new Error("the upgrade was let through")));
        socket.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
        socket.once("error", () => {});
      }, reject);
    });
  }

  describe("a socket for a game another node owns", () => {
    it("is forwarded to the owner and plays there: join, question, answer, its acknowledgement", async () => {
      const game = await gameOwnedByA();
      const forwardedBefore = await forwardedSockets(nodeB);
      const connectionsOfB = await connectionsOf(nodeB);
      const player = await TestClient.connect(nodeB, `player-${randomUUID()}`, undefined, { game: game.gameCode });
      const playerId = await player.joinAsPlayer(game.gameCode, "Ann");
      expect(await game.host.next("PLAYER_JOINED", (payload) => payload.player.id === playerId)).toBeDefined();

      game.host.send("START_GAME", { gameCode: game.gameCode });
      await player.next("GAME_STARTED");
      const question = await player.next("QUESTION_STARTED");
      player.send("SUBMIT_ANSWER", { gameCode: game.gameCode, playerId, answerIndex: 1, time: 1 });
      expect(await player.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: question.questionNumber, answerIndex: 1 });
      // The only player answered: the question closes at once on A.
      await game.host.next("ANSWER_RESULTS");

      // B carried it and counted it; A holds the socket; the answer is stored once, by A.
      expect(await forwardedSockets(nodeB)).toBe(forwardedBefore + 1);
      expect(await connectionsOf(nodeB)).toBe(connectionsOfB);
      await eventually(async () => {
        const answers = await nodeA.db.selectFrom("answers").select("player_id").where("player_id", "=", playerId).execute();
        return answers.length === 1;
      });
      await Promise.all([player.close(), game.host.close()]);
    });

    it("is closed by the node carrying it once another live node owns its game, and the carrier's other games' sockets stay", async () => {
      const [moved, stays] = [await gameOwnedByA(), await gameOwnedByA()];
      const movedPlayer = await TestClient.connect(nodeB, `player-${randomUUID()}`, undefined, { game: moved.gameCode });
      await movedPlayer.joinAsPlayer(moved.gameCode, "Ann");
      const stayingPlayer = await TestClient.connect(nodeB, `player-${randomUUID()}`, undefined, { game: stays.gameCode });
      await stayingPlayer.joinAsPlayer(stays.gameCode, "Bo");
      // B now owns the first game (as after a takeover): the socket B carries to A for it is stale.
      await sql`update game_owners set node_id = ${"node-b"} where game_id = ${moved.gameId}`.execute(nodeA.db);
      expect(await movedPlayer.closedByServer(5000)).toBeGreaterThan(0);
      // The other game's carried socket still plays.
      stays.host.send("START_GAME", { gameCode: stays.gameCode });
      expect(await stayingPlayer.next("GAME_STARTED")).toBeDefined();
      await sql`update game_owners set node_id = ${"node-a"} where game_id = ${moved.gameId}`.execute(nodeA.db);
      await Promise.all([stayingPlayer.close(), moved.host.close(), stays.host.close()]);
    });

    it("is counted by the owner under its player's address, not the forwarding node's", async () => {
      const game = await gameOwnedByA();
      // Three players through B, from two addresses of their own: B reaches A from 127.0.0.1 for all.
      const join = async (localAddress: string, nickname: string) => {
        const player = await TestClient.connect(nodeB, `player-${randomUUID()}`, undefined, { game: game.gameCode, localAddress });
        player.send("JOIN_GAME", { gameCode: game.gameCode, nickname });
        const outcome = await Promise.race([player.next("PLAYER_JOINED").then(() => "joined"), player.next("ERROR").then((error) => error.code)]);
        return { player, outcome };
      };
      const first = await join("127.0.0.2", "Bea");
      const second = await join("127.0.0.3", "Cas");
      const third = await join("127.0.0.2", "Dee");
      expect([first.outcome, second.outcome, third.outcome]).toEqual(["joined", "joined", "JOIN_RATE_LIMITED"]);
      await Promise.all([first.player.close(), second.player.close(), third.player.close(), game.host.close()]);
    });

    it("is never forwarded twice: a forwarded socket for a game its node does not own is closed there with 4000", async () => {
      // A game owned by B; a socket forwarded to A (signed as B would sign it for A) must stay on A.
      const fixture = await createGameFixture(nodeB);
      const host = await TestClient.connect(nodeB, fixture.hostClientId, undefined, { game: fixture.gameCode });
      await host.joinAsHost(fixture.gameCode);
      const forwardedByA = await forwardedSockets(nodeA);
      const headers = forwardHeaders(forwardingKeyOf(TEST_SESSION_SECRET), {
        targetNodeId: "node-a",
        at: Date.now(),
        clientAddress: "198.51.100.20",
        gameCode: fixture.gameCode,
      });
      const stray = await TestClient.connect(nodeA, `player-${randomUUID()}`, headers, { game: fixture.gameCode });
      stray.send("JOIN_GAME", { gameCode: fixture.gameCode, nickname: "Eve" });
      expect(await stray.closedByServer()).toBe(CloseCode.SERVER_RESTARTING);
      expect(await forwardedSockets(nodeA)).toBe(forwardedByA);
      await host.close();
    });

    it("goes nowhere with forwarding headers that do not check out: forged, unsigned, for another node, or stale", async () => {
      const game = await gameOwnedByA();
      const url = `${nodeA.url.replace("http", "ws")}/ws?clientId=intruder&game=${game.gameCode}`;
      const key = forwardingKeyOf(TEST_SESSION_SECRET);
      const signed = (targetNodeId: string, at = Date.now()) =>
        forwardHeaders(key, { targetNodeId, at, clientAddress: "198.51.100.30", gameCode: game.gameCode });
      const forged = forwardHeaders(forwardingKeyOf("not-the-cluster-session-secret-at-all-0000"), {
        targetNodeId: "node-a",
        at: Date.now(),
        clientAddress: "198.51.100.30",
        gameCode: game.gameCode,
      });
      expect(await refusedStatus(url, forged)).toBe(403);
      expect(await refusedStatus(url, { [FORWARD_HEADERS.address]: "198.51.100.30" })).toBe(403);
      expect(await refusedStatus(url, signed("node-b"))).toBe(403);
      expect(await refusedStatus(url, signed("node-a", Date.now() - 60_000))).toBe(403);
      // The same headers, signed for A with the cluster's key, pass.
      const welcome = await TestClient.connect(nodeA, "intruder", signed("node-a"), { game: game.gameCode });
      expect(await welcome.joinAsPlayer(game.gameCode, "Fay")).toBeGreaterThan(0);
      await Promise.all([welcome.close(), game.host.close()]);
    });

    it("reaching a draining node is not forwarded: it is closed with 4000, for the browser to land on another node", async () => {
      const game = await gameOwnedByA();
      const nodeC = await startNode("node-c");
      try {
        await nodeC.drain();
        const player = await TestClient.connect(nodeC, `player-${randomUUID()}`, undefined, { game: game.gameCode });
        expect(await player.closedByServer()).toBe(CloseCode.SERVER_RESTARTING);
        expect(await forwardedSockets(nodeC)).toBe(0);
      } finally {
        await nodeC.stop();
        await game.host.close();
      }
    });

    it("whose owner cannot be reached stays on the node it reached, which closes it with 4000 while the owner lives", async () => {
      const fixture = await createGameFixture(nodeA);
      const gameId = (await nodeA.db.selectFrom("games").select("id").where("game_code", "=", fixture.gameCode).executeTakeFirstOrThrow()).id;
      // A third node, alive in the database, listening nowhere: its address refuses connections.
      const nodeC = new PostgresOwnership({
        db: nodeA.db,
        heartbeatDb: openDatabase(databaseUrl, { poolSize: 1 }),
        nodeId: "node-c",
        address: `127.0.0.1:${await freePort()}`,
        timings: leaseTimings(TIMINGS.heartbeatMs, TIMINGS.leaseMs),
      });
      await nodeC.start();
      try {
        expect(await nodeC.claim(gameId)).toMatchObject({ owned: true });
        const forwardedBefore = await forwardedSockets(nodeB);
        const player = await TestClient.connect(nodeB, `player-${randomUUID()}`, undefined, { game: fixture.gameCode });
        player.send("JOIN_GAME", { gameCode: fixture.gameCode, nickname: "Gus" });
        expect(await player.closedByServer()).toBe(CloseCode.SERVER_RESTARTING);
        expect(await forwardedSockets(nodeB)).toBe(forwardedBefore);
      } finally {
        await nodeC.stop();
      }
    });
  });

  describe("what a request on one node changes for a room on another", () => {
    it("new display links made through B close the display on A (forwarded there from B)", async () => {
      const game = await gameOwnedByA();
      const { display_key: displayKey } = await nodeA.db.selectFrom("games").select("display_key").where("id", "=", game.gameId).executeTakeFirstOrThrow();
      const display = await TestClient.connect(nodeB, `display-${randomUUID()}`, undefined, { game: game.gameCode });
      display.send("WATCH_GAME", { gameCode: game.gameCode, key: displayKey });
      await display.next("GAME_SNAPSHOT");

      const response = await fetch(`${nodeB.url}/host/${game.gameCode}/new-links`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: browserCookie(game.hostClientId), origin: nodeB.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ redirectTo: `/waiting/${game.gameCode}` }),
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/waiting/${game.gameCode}?links=new`);
      expect(await display.next("ERROR")).toMatchObject({ code: "LINK_REPLACED" });
      expect(await display.closedByServer()).toBe(CloseCode.LINK_REPLACED);
      // The new key works on A, the room having read it from the database.
      const { display_key: newKey } = await nodeA.db.selectFrom("games").select("display_key").where("id", "=", game.gameId).executeTakeFirstOrThrow();
      const fresh = await TestClient.connect(nodeA, `display-${randomUUID()}`, undefined, { game: game.gameCode });
      fresh.send("WATCH_GAME", { gameCode: game.gameCode, key: newKey });
      await fresh.next("GAME_SNAPSHOT");
      await Promise.all([fresh.close(), game.host.close()]);
    });

    /** The host's browser signs out on B: its host socket on A is closed with the sign-in-changed code. */
    async function expectSignOutOnBEndsHostSeatOnA(game: Awaited<ReturnType<typeof gameOwnedByA>>): Promise<void> {
      const response = await fetch(`${nodeB.url}/logout`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: browserCookie(game.hostClientId), "content-type": "application/x-www-form-urlencoded" },
        body: "",
      });
      expect(response.status).toBe(302);
      expect(await game.host.closedByServer()).toBe(CloseCode.SIGN_IN_CHANGED);
    }

    it("a sign-out on B ends the host seat of that browser's socket on A", async () => {
      const game = await gameOwnedByA();
      await expectSignOutOnBEndsHostSeatOnA(game);
    });

    it("still reaches A after the nodes' listening connections were cut: they listen again", async () => {
      const game = await gameOwnedByA();
      const listeners = async () =>
        (
          await sql<{
            pid: number;
          }>`select pid from pg_stat_activity where datname = current_database() and query = ${`listen "${CLUSTER_SIGNAL_CHANNEL}"`}`.execute(nodeA.db)
        ).rows.map((row) => row.pid);
      const before = await listeners();
      expect(before).toHaveLength(2);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where pid in (${sql.join(before)})`.execute(nodeA.db);
      await eventually(async () => {
        const now = await listeners();
        return now.length === 2 && now.every((pid) => !before.includes(pid));
      });
      await expectSignOutOnBEndsHostSeatOnA(game);
    });

    it("B answers the team list of A's game from the database, as A's room has it", async () => {
      const game = await gameOwnedByA();
      game.host.send("SET_TEAM_MODE", { gameCode: game.gameCode, enabled: true });
      game.host.send("ADD_TEAM", { gameCode: game.gameCode, name: "Owls" });
      game.host.send("ADD_TEAM", { gameCode: game.gameCode, name: "Foxes" });
      await game.host.next("TEAMS_UPDATE", (update) => update.teams.length === 2);
      const player = await TestClient.connect(nodeA, `player-${randomUUID()}`, undefined, { game: game.gameCode });
      player.send("JOIN_GAME", { gameCode: game.gameCode, nickname: "Hal", team: "Foxes" });
      await player.next("TEAM_CHOSEN");
      const teamsOnB = async () => (await nodeB.api(`/api/games/${game.gameCode}/teams`)).body;
      await eventually(async () => (await teamsOnB())?.teams?.find((team: { name: string }) => team.name === "Foxes")?.members === 1);
      expect(await teamsOnB()).toEqual({
        gameCode: game.gameCode,
        started: false,
        teams: [
          { id: expect.any(Number), name: "Owls", members: 0 },
          { id: expect.any(Number), name: "Foxes", members: 1 },
        ],
      });
      await Promise.all([player.close(), game.host.close()]);
    });
  });

  describe("the sweep in a cluster", () => {
    it("leaves alone a waiting game another live node has open, and closes one nobody opened", async () => {
      const game = await gameOwnedByA();
      const unopened = await createGameFixture(nodeA);
      // Both made long ago, as far as the sweep can tell.
      await nodeA.db
        .updateTable("games")
        .set({ created_at: Date.now() - 24 * 60 * 60_000 })
        .where("game_code", "in", [game.gameCode, unopened.gameCode])
        .where("status", "=", "waiting")
        .execute();
      await nodeB.hub.sweep();
      const statusOf = async (gameCode: string) =>
        (await nodeA.db.selectFrom("games").select("status").where("game_code", "=", gameCode).orderBy("id", "desc").executeTakeFirstOrThrow()).status;
      expect(await statusOf(game.gameCode)).toBe("waiting");
      expect(await statusOf(unopened.gameCode)).toBe("finished");

      // The purges run on the connection that holds the sweep's lock, in their own transactions: a
      // game past the report retention goes.
      await nodeA.db
        .updateTable("games")
        .set({ ended_at: Date.now() - 2 * nodeB.hub.reportRetentionMs })
        .where("game_code", "=", unopened.gameCode)
        .execute();
      await nodeB.hub.sweep();
      expect(await nodeA.db.selectFrom("games").select("id").where("game_code", "=", unopened.gameCode).execute()).toEqual([]);
      await game.host.close();
    });

    it("runs its stored share on one node at a time: skipped while another holds the sweep's lock", async () => {
      const unopened = await createGameFixture(nodeA);
      await nodeA.db
        .updateTable("games")
        .set({ created_at: Date.now() - 24 * 60 * 60_000 })
        .where("game_code", "=", unopened.gameCode)
        .execute();
      const statusOf = async () =>
        (await nodeA.db.selectFrom("games").select("status").where("game_code", "=", unopened.gameCode).executeTakeFirstOrThrow()).status;
      // Another node's sweep, standing in: a session holding the same lock.
      const other = new pg.Client({ connectionString: databaseUrl });
      await other.connect();
      try {
        await other.query("select pg_advisory_lock($1::bigint)", [lockKey("hub-sweep")]);
        await nodeB.hub.sweep();
        expect(await statusOf()).toBe("waiting");
        await other.query("select pg_advisory_unlock($1::bigint)", [lockKey("hub-sweep")]);
        await nodeB.hub.sweep();
        expect(await statusOf()).toBe("finished");
      } finally {
        await other.end();
      }
    });
  });
});
