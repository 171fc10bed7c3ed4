/**
 * A page's form post is checked here, in front of Remix, against the same limits its action reads
 * it with (app/limits/body-limits.ts): its fields, names, lengths, repeats and list indexes for an
 * urlencoded body, and its type. Why twice: a page's action refuses a body by throwing a response,
 * and Remix answers that with a whole rendered error page, tens of milliseconds of the game's CPU
 * for each; twenty of them at once from one stranger cost a live game its heartbeat and grew the
 * heap by a hundred megabytes (bench/attack-night.ts). Here a refusal costs a scan of at most the
 * route's bytes and a short `{ error, code }`. A body that passes is put back on the request,
 * untouched, for Remix to read as it always did (docs/decisions/0040-bounded-bodies.md).
 *
 * The API's routes (`/api/...`) answer in JSON without rendering and are left to their own
 * readers, as are multipart bodies, which the actions count part by part as they stream in.
 */
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { isMultipart, limitsFor, routeBodyOf } from "#app/limits/body-limits";
import { BodyRefusal, urlEncodedFieldsWithin } from "#app/http/request-body.server";

/**
 * The whole body of `request`, `length` bytes as its Content-Length declared (limitRequestBodies
 * has capped it and refused a body of unknown length). The stream is paused at its last byte, so it
 * has not ended yet and what was read can be put back (`unshift`).
 */
function readDeclaredBody(request: IncomingMessage, length: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: Buffer | null) => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onEnd);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size < length) return;
      request.pause();
      finish(Buffer.concat(chunks));
    };
    // Ended short of its length, or broken: the client is gone; nothing to answer.
    const onEnd = () => finish(null);
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("error", onEnd);
  });
}

function refuse(res: Parameters<RequestHandler>[1], refusal: BodyRefusal): void {
  res.status(refusal.status).set("Cache-Control", "no-store").json({ error: refusal.message, code: refusal.code });
}

export function precheckPageForms(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST" || req.path.startsWith("/api/")) return next();
    const contentType = req.headers["content-type"];
    if (isMultipart(contentType)) return next();
    const type = (contentType ?? "").trimStart().toLowerCase();
    const length = Number(req.headers["content-length"] ?? 0);
    if (!(type === "" || type.startsWith("application/x-www-form-urlencoded"))) {
      // Read to its end and dropped (capped in front of this), so a kept-alive connection goes on.
      req.resume();
      refuse(res, new BodyRefusal(415, "FORM_CONTENT_TYPE"));
      return;
    }
    if (!(length > 0)) return next();
    const limits = limitsFor(routeBodyOf(req.path), contentType);
    readDeclaredBody(req, length).then(
      (body) => {
        if (body === null) return;
        try {
          urlEncodedFieldsWithin(body, limits);
        } catch (error) {
          if (error instanceof BodyRefusal) return refuse(res, error);
          return next(error);
        }
        // Back where Remix reads it; the stream resumes when Remix starts reading.
        req.unshift(body);
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
