import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, AUTH_FAILURE_STATUS, handleApi, methodNotAllowed, readForm } from "#app/http/api.server";
import { AuthError, continueAsGuest } from "#app/auth/auth.server";

/**
 * POST /api/auth/guest: 'Continue as Guest' for a script or the quiz editor, which needs a session
 * before it may upload a picture (issue 26): 201 with a session cookie for a new guest, 200 for a
 * browser already signed in (nothing changes), 429 past the guests an address may start.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  // It takes no fields; whatever was sent is read within a form's limits all the same (body-limits.ts).
  await readForm(request, "/api/auth/guest");
  return handleApi(context.logger, async () => {
    try {
      const { user, cookie } = await continueAsGuest(context, request);
      const headers: Record<string, string> = { "Cache-Control": "no-store", ...(cookie ? { "Set-Cookie": cookie } : {}) };
      return Response.json({ id: user.id, isGuest: user.isGuest }, { status: cookie ? 201 : 200, headers });
    } catch (error) {
      if (error instanceof AuthError) throw new ApiError(AUTH_FAILURE_STATUS[error.reason], error.error ?? error.message, undefined, error.retryAfterSeconds);
      throw error;
    }
  });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
