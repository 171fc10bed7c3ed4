/**
 * The routing rule of `npm run cluster`'s proxy (scripts/cluster-proxy.ts), the same as
 * docs/deploy's nginx and HAProxy files: a request naming a game goes to that game's node by
 * rendezvous hashing over the live nodes; the hash is consistent, so a node leaving moves only its
 * own games and a node joining takes about one game in N (docs/decisions/0053-routing-by-game.md).
 */
import { describe, expect, it } from "vitest";
import { gameOf, nodeForGame, rendezvousOrder } from "../../scripts/cluster-proxy";

/** Game codes as the server draws them: six of 32 letters and digits. */
function codes(count: number): string[] {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from({ length: count }, (_, i) => {
    let code = "";
    for (let n = i * 7919 + 104729, k = 0; k < 6; k++, n = Math.floor(n / 32)) code += alphabet[n % 32];
    return code;
  });
}

const THREE = ["node-1", "node-2", "node-3"];
const CODES = codes(3000);

describe("gameOf: the key a request is routed by", () => {
  it("is the game socket's `game` query argument, the first when there are several", () => {
    expect(gameOf("/ws?clientId=abc&game=K7QX2M")).toBe("K7QX2M");
    expect(gameOf("/ws?game=AAAAAA&clientId=abc&game=BBBBBB")).toBe("AAAAAA");
    expect(gameOf("/reports/x?game=K7Q%20X")).toBe("K7Q X");
  });

  it("is none without one, or with an empty one: those requests go round robin", () => {
    expect(gameOf("/ws?clientId=abc")).toBeNull();
    expect(gameOf("/ws?clientId=abc&game=")).toBeNull();
    expect(gameOf("/join")).toBeNull();
    expect(gameOf(undefined)).toBeNull();
    // A path that merely says "game" is not a query argument.
    expect(gameOf("/game/K7QX2M")).toBeNull();
  });
});

describe("nodeForGame: rendezvous hashing", () => {
  it("sends a code to the same node whatever the order the nodes are listed in", () => {
    for (const code of CODES.slice(0, 200)) {
      expect(nodeForGame(code, THREE)).toBe(nodeForGame(code, [...THREE].reverse()));
    }
  });

  it("spreads codes over the nodes: each of three gets between a quarter and two fifths", () => {
    const counts = new Map<string, number>();
    for (const code of CODES) counts.set(nodeForGame(code, THREE)!, (counts.get(nodeForGame(code, THREE)!) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(THREE);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(CODES.length / 4);
      expect(count).toBeLessThan((CODES.length * 2) / 5);
    }
  });

  it("moves only the leaving node's games when one leaves, each to the node next in its order", () => {
    const before = new Map(CODES.map((code) => [code, nodeForGame(code, THREE)!]));
    const left = ["node-1", "node-3"];
    let moved = 0;
    for (const code of CODES) {
      const after = nodeForGame(code, left);
      if (before.get(code) === "node-2") {
        moved++;
        expect(after).toBe(rendezvousOrder(code, THREE)[1]);
      } else {
        expect(after, code).toBe(before.get(code));
      }
    }
    expect(moved).toBeGreaterThan(0);
  });

  it("gives a joining node about one game in four of three nodes', taken from each, and moves no other", () => {
    const four = [...THREE, "node-4"];
    const moved = CODES.filter((code) => nodeForGame(code, four) !== nodeForGame(code, THREE));
    for (const code of moved) expect(nodeForGame(code, four)).toBe("node-4");
    expect(moved.length).toBeGreaterThan(CODES.length * 0.18);
    expect(moved.length).toBeLessThan(CODES.length * 0.32);
    expect(new Set(moved.map((code) => nodeForGame(code, THREE)))).toEqual(new Set(THREE));
  });

  it("has no node for a game when no node is live", () => {
    expect(nodeForGame("K7QX2M", [])).toBeUndefined();
  });
});
