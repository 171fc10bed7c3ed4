/**
 * The soak and storm tests: minutes of CPU on two cores for what the rest of the suite checks in
 * small (a server killed under 50 players and 1000 coming back, a three-node cluster's owners killed, hung and drained, 2,000 idle lobbies, a 5,000-join
 * flood, 10,000 fuzzed frames, a 10,000-player report, 100 games at once). `npm test` leaves them to
 * `npm run test:heavy`, which CI runs (docs/decisions/0049-ten-minute-test-loop.md);
 * tests/unit/test-split.test.ts checks that each still names a test file.
 */
export const heavyTests = [
  "tests/integration/cluster.test.ts",
  "tests/integration/crash.test.ts",
  "tests/integration/fuzz.test.ts",
  "tests/integration/game-reports-scale.test.ts",
  "tests/integration/idle-lobbies.test.ts",
  "tests/integration/join-limits.test.ts",
  "tests/integration/many-games.test.ts",
];

/** The attack night measures the server's event loop, so it runs alone, after the others (`npm run test:attacks`). */
export const attackNight = "tests/integration/attacks-under-play.test.ts";
