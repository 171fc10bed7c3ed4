import type { ActionFunctionArgs } from "@remix-run/node";
import { openBillingPortal } from "#app/models/subscription.server";
import { billingError, handleApi, methodNotAllowed } from "#app/http/api.server";
import { getUser } from "#app/sessions/session.server";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/subscription/portal -> {url} of the Stripe customer portal. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    const portal = await openBillingPortal(context.db, context.billing, await getUser(context, request), new URL(request.url).origin, context.logger);
    if (!portal.ok) throw billingError(portal);
    return Response.json(portal.value);
  });
}
