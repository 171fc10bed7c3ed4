import type { ActionFunctionArgs } from "@remix-run/node";
import { startSubscription } from "#app/models/subscription.server";
import { billingError, handleApi, methodNotAllowed, readJson } from "#app/http/api.server";
import { CreateSubscriptionSessionSchema } from "#app/schemas/api-schemas";
import { getUser } from "#app/sessions/session.server";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/subscription/create-session {planId} -> {url}: Stripe Checkout, or the portal for a subscriber. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    const { planId } = await readJson(request, CreateSubscriptionSessionSchema);
    const user = await getUser(context, request);
    const session = await startSubscription(context.db, context.billing, user, planId, new URL(request.url).origin, context.logger);
    if (!session.ok) throw billingError(session);
    return Response.json(session.value);
  });
}
