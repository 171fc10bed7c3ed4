/**
 * Every page a browser loads gives it its host secret if it has none yet (docs/decisions/0044-shared-browsers.md):
 * the game's socket opens as the page loads and proves the host with the cookies of its upgrade, so
 * the secret must be there before the page's first game is made, not set by the request that makes it.
 */
import type { RequestHandler } from "express";
import { hostSecretOf, newHostSecret } from "#app/sessions/host-secret.server";

export function issueHostSecret(): RequestHandler {
  return (req, res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && (req.headers.accept ?? "").includes("text/html") && !hostSecretOf(req.headers.cookie)) {
      res.append("Set-Cookie", newHostSecret(req.secure || req.headers["x-forwarded-proto"] === "https").setCookie);
    }
    next();
  };
}
