/**
 * The SQLite driver for the running Node.js. better-sqlite3 13 (Node-API, with prebuilt binaries)
 * needs Node 22 or later; the 12 line, the last that runs on Node 20, aborts Node 24.19 and later
 * when the garbage collector frees one of its statements outside JavaScript (its Statement
 * destructor removes a cleanup hook with no Environment). So both are installed, 12 under the
 * alias `better-sqlite3-node20`, and Node 20 loads that one (docs/decisions/0024).
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split(".")[0]);

export const SQLITE_DRIVER_PACKAGE = nodeMajor >= 22 ? "better-sqlite3" : "better-sqlite3-node20";

/** better-sqlite3's Database class: `new SQLite(file, options)`. */
export const SQLite: typeof BetterSqlite3 = require(SQLITE_DRIVER_PACKAGE);

export type SQLiteDatabase = BetterSqlite3.Database;
