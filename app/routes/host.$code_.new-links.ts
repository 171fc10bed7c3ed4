import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { LINKS_RENEWED } from "#app/components/display-links";
import { renewGameKeys } from "#app/models/game-keys.server";
import { parseForm } from "#app/forms/forms";
import { requireHostScreen, readForm } from "#app/http/api.server";
import { safeRedirect } from "#app/http/safe-redirect";
import { requesterOf } from "#app/sessions/session.server";
import { KEYED_PAGE_HEADERS } from "#app/game-pages/game-links.server";

const NewLinksFormSchema = z.object({ redirectTo: z.string().optional() });

/**
 * POST /host/CODE/new-links: the host's "New links" button (docs/decisions/0032-display-and-remote.md).
 * Draws the game's display and remote keys again, closes every display and remote that came in with
 * the old ones (on whichever node has the game's room: the hub tells the others,
 * docs/decisions/0056-forwarding-and-signals.md), and goes back to the host's page, whose loader shows the new links and QR codes.
 * The host's seat is checked as the host's pages check it (this browser's client id, and its account
 * or host secret: docs/decisions/0044-shared-browsers.md); anyone else goes home. A plain form post: it works without JavaScript.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  // The form first, within its limits, so no refusal leaves it unread.
  const submission = parseForm(await readForm(request, "/host/:code/new-links"), NewLinksFormSchema);
  const screen = await requireHostScreen(context, request, params.code);
  const back = new URL(
    safeRedirect(submission.status === "success" ? submission.value.redirectTo : null, `/waiting/${screen.gameCode}`),
    "http://quiz.invalid",
  );
  const result = await renewGameKeys(context.db, screen.gameCode, await requesterOf(context, request));
  if (result.status === "not-host") throw redirect("/");
  if (result.status === "ok") {
    const { gameId, displayKey, remoteKey } = result.value;
    await context.hub.replaceGameKeys(screen.gameCode, gameId, { displayKey, remoteKey });
    back.searchParams.set(LINKS_RENEWED.param, LINKS_RENEWED.value);
  }
  // A finished game keeps its links: there is nothing left to run.
  return redirect(`${back.pathname}${back.search}`, { headers: KEYED_PAGE_HEADERS });
}

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const screen = await requireHostScreen(context, request, params.code);
  return redirect(`/waiting/${screen.gameCode}`);
}
