import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { LOGOUT_FAILED } from "#app/components/logout-form";
import { readForm } from "#app/http/api.server";
import { endSession } from "#app/sessions/session.server";

/**
 * POST /logout: deletes the session row and clears the cookie, then goes home. The page's script
 * asks for JSON instead (app/components/logout-form.tsx), so that a failure can stay on the page
 * with a toast rather than replace it with an error page.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  // The form has no fields; whatever was sent is read within a form's limits all the same.
  await readForm(request, "/logout");
  if (!(request.headers.get("accept") ?? "").includes("application/json")) {
    return redirect("/", { headers: { "Set-Cookie": await endSession(context, request) } });
  }
  try {
    return Response.json({ ok: true }, { headers: { "Set-Cookie": await endSession(context, request), "Cache-Control": "no-store" } });
  } catch (error) {
    context.logger.error({ event: "logout_failed", err: error }, "a logout failed on the server");
    return Response.json({ error: LOGOUT_FAILED }, { status: 500 });
  }
}

export function loader() {
  return redirect("/");
}
