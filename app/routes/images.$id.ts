import type { LoaderFunctionArgs } from "@remix-run/node";
import { getImage, imagesExist } from "#app/models/image.server";

/** A picture's bytes never change under its id (the hash of the large rendition): cache it for good. */
const CACHE_FOREVER = "public, max-age=31536000, immutable";

function notFound(): Response {
  return new Response("Picture not found.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
}

/** Whether an If-None-Match header (a list, weak tags, or *) names `etag`. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}

/**
 * GET /images/:id: the large WebP (the host's screen); ?size=small: the small one (players' phones).
 * Anyone with the id may fetch it; ids are 256-bit hashes that only a quiz's host and its players see.
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const id = params.id ?? "";
  const requested = new URL(request.url).searchParams.get("size") ?? "large";
  if (requested !== "large" && requested !== "small") return notFound();
  const size: "large" | "small" = requested;
  // The two renditions are different bytes under one id, so each gets its own tag.
  const etag = size === "large" ? `"${id}"` : `"${id}-small"`;
  const headers = { "Cache-Control": CACHE_FOREVER, ETag: etag, "X-Content-Type-Options": "nosniff" };

  if (matches(request.headers.get("if-none-match"), etag)) {
    // The browser has these bytes already; only whether the picture exists is worth a query.
    const found = await imagesExist(context.db, [id]);
    return found.has(id) ? new Response(null, { status: 304, headers }) : notFound();
  }
  const data = await getImage(context.db, id, size);
  if (!data) return notFound();
  // A copy into its own ArrayBuffer: a Buffer may be a view of Node's shared pool, which Response does not take.
  return new Response(new Uint8Array(data), {
    headers: { ...headers, "Content-Type": "image/webp", "Content-Length": String(data.byteLength) },
  });
}
