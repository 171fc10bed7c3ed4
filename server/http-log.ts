/**
 * A child of the server's logger for each HTTP request, so whatever a loader, an action or the
 * renderer logs can be told apart from the requests around it. getLoadContext hands it to Remix
 * as `context.logger`.
 */
import { randomBytes } from "node:crypto";
import type { RequestHandler, Response } from "express";
import type { Logger } from "./logger";

/** The path only: a query string may carry a redirect target or a token nobody should read in a log. */
export function requestLogs(logger: Logger): RequestHandler {
  return (req, res, next) => {
    res.locals.log = logger.child({ requestId: randomBytes(6).toString("base64url"), method: req.method, path: req.path });
    next();
  };
}

/** The request's logger; the server's own when the middleware has not run (it always runs first). */
export function requestLog(res: Response, fallback: Logger): Logger {
  return (res.locals.log as Logger | undefined) ?? fallback;
}
