import type { LoaderFunctionArgs } from "@remix-run/node";
import { findUserByFirebaseUid, remainingAiQuizzes } from "#app/models/user.server";
import { ApiError, handleApi, methodNotAllowed, requireGoogleIdentity } from "#app/http/api.server";
import { verifyGoogleToken } from "#app/auth/firebase.server";
import { startSession } from "#app/sessions/session.server";

/**
 * GET /api/auth/me with `Authorization: Bearer <Firebase ID token>` (after the Google popup):
 * the account linked to that Google user, signed in here with our own session cookie, or
 * 404 {error: "Not registered"} so the browser goes on to POST /api/auth/register.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => {
    const identity = requireGoogleIdentity(await verifyGoogleToken(request, context.logger));
    const user = await findUserByFirebaseUid(context.db, identity.uid);
    if (!user) throw new ApiError(404, "Not registered");
    const cookie = await startSession(context, request, user.id);
    return Response.json(
      { ...user, remainingQuizzes: await remainingAiQuizzes(context.db, user) },
      { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } },
    );
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
