/**
 * What the build gives a player's phone: the scripts of the screens from the join link to the
 * podium, with every script they import, hold no zod and no conform (docs/decisions/0025-player-download.md).
 * Reads the production build (`npm run build`).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CLIENT_DIR = path.resolve("build/client");

/** The screens a player goes through, by Remix route id. */
const PLAYER_ROUTES = [
  "root",
  "routes/join",
  "routes/waiting.$code",
  "routes/play.$code",
  "routes/result.$code",
  "routes/leaderboard.$code",
  "routes/break.$code",
  "routes/results.$code",
];

/** Strings each library's built code keeps, whatever the minifier renames. */
const LIBRARIES = { zod: ["$ZodType", "ZodError"], conform: ["@conform-to", "__intent__"] };

interface RemixManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
}

function readManifest(): RemixManifest {
  const file = fs.readdirSync(path.join(CLIENT_DIR, "assets")).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("no build: run `npm run build` first");
  const source = fs.readFileSync(path.join(CLIENT_DIR, "assets", file), "utf8");
  return JSON.parse(source.replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, "")) as RemixManifest;
}

/** A script and every script it imports, statically or on demand, by URL path. */
function withImports(start: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const source = fs.readFileSync(path.join(CLIENT_DIR, url), "utf8");
    for (const [, relative] of source.matchAll(/(?:from|import)\s*\(?\s*"(\.\/[^"]+\.js)"/g)) queue.push(path.posix.join(path.posix.dirname(url), relative));
  }
  return seen;
}

describe("a player's scripts", () => {
  const manifest = readManifest();
  const scripts = withImports([
    manifest.entry.module,
    ...manifest.entry.imports,
    ...PLAYER_ROUTES.flatMap((id) => {
      const route = manifest.routes[id];
      if (!route) throw new Error(`no route ${id} in the build`);
      return [route.module, ...(route.imports ?? [])];
    }),
  ]);

  it("are found (the check reads the build as it is)", () => {
    expect(scripts.size).toBeGreaterThan(PLAYER_ROUTES.length);
    // The markers are there to be found: the other screens' scripts have both libraries.
    const all = fs.readdirSync(path.join(CLIENT_DIR, "assets")).filter((name) => name.endsWith(".js"));
    const sources = all.map((name) => fs.readFileSync(path.join(CLIENT_DIR, "assets", name), "utf8"));
    for (const markers of Object.values(LIBRARIES)) expect(sources.some((source) => markers.every((marker) => source.includes(marker)))).toBe(true);
  });

  it.each(Object.entries(LIBRARIES))("hold no %s", (_library, markers) => {
    const holding = [...scripts].filter((url) => {
      const source = fs.readFileSync(path.join(CLIENT_DIR, url), "utf8");
      return markers.some((marker) => source.includes(marker));
    });
    expect(holding).toEqual([]);
  });
});
