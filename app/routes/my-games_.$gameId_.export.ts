import type { LoaderFunctionArgs } from "@remix-run/node";
import { languageOf } from "#app/i18n/language.server";
import { getFullGameReport } from "#app/models/game-report.server";
import { attachmentResponse, retryAfterHeaders } from "#app/http/api.server";
import { releasedWhenRead, REPORT_FORMATS, reportCsvFile, reportXlsxFile, type ReportFormat } from "#app/reports/game-report-files.server";
import { busyAnswer } from "#app/limits/heavy-limits";
import { getUser } from "#app/sessions/session.server";
import { clientIdOf } from "#app/sessions/client-id.server";
import { hostSecretOf } from "#app/sessions/host-secret.server";

/**
 * GET /my-games/:gameId/export?format=csv|xlsx (&round=N): the report as a file, for the game's
 * host only; anyone else, like an unknown game, gets 404 (docs/decisions/0031-game-reports.md).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const format = (url.searchParams.get("format") ?? "xlsx").toLowerCase();
  const gameId = params.gameId && /^\d{1,15}$/.test(params.gameId) ? Number(params.gameId) : null;
  if (gameId === null) throw new Response("Not Found", { status: 404 });
  if (!REPORT_FORMATS.includes(format as ReportFormat)) return new Response(`format must be one of ${REPORT_FORMATS.join(", ")}.`, { status: 400 });
  const user = await getUser(context, request);
  const round = Number(url.searchParams.get("round"));
  const found = await getFullGameReport(
    context.db,
    gameId,
    { userId: user?.id ?? null, clientId: clientIdOf(request), hostSecret: hostSecretOf(request.headers.get("cookie")) },
    { round: Number.isInteger(round) && round >= 1 ? round - 1 : undefined },
  );
  if (found.status !== "ok") throw new Response("Not Found", { status: 404 });
  const language = await languageOf(request, user);
  // A report of a large game is seconds of writing: one of the node's slots for heavy work, held
  // until the file is sent or the download is dropped (server/heavy-work.ts).
  const slot = await context.heavyWork.acquire(context.clientIp);
  if (!slot.ok) {
    const { status, message } = busyAnswer(slot);
    return new Response(message, { status, headers: retryAfterHeaders(slot.retryAfterSeconds) });
  }
  context.logger.info({ event: "report_exported", gameId, format }, "a host downloaded a game's report");
  const file = format === "csv" ? reportCsvFile(found.value, language) : reportXlsxFile(found.value, language);
  // Players' names and answers: no shared cache may keep them.
  return attachmentResponse({ ...file, body: releasedWhenRead(file.body, slot.release) });
}
