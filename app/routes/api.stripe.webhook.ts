import type { ActionFunctionArgs } from "@remix-run/node";
import { applyStripeEvent } from "#app/models/subscription.server";
import { ApiError, billingError, handleApi, methodNotAllowed } from "#app/http/api.server";
import { ROUTE_BODIES } from "#app/limits/body-limits";
import { readBodyBytes } from "#app/http/request-body.server";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/stripe/webhook: Stripe's events, verified against the raw body with
 * STRIPE_WEBHOOK_SECRET (400 and nothing changed when the signature fails), each applied once. An
 * event about a subscription of no account (deleted with a Checkout tab open) cancels it; when
 * Stripe cannot cancel it now, 502, and Stripe delivers the event again.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    const { billing } = context;
    if (!billing) throw new ApiError(503, "Billing is not configured on this server.");
    const body = await readBodyBytes(request, ROUTE_BODIES["/api/stripe/webhook"].body.maxBytes);
    const verified = billing.verifyWebhook(body, request.headers.get("stripe-signature"));
    if (!verified.ok) {
      // An unverified body's type is whatever its sender wrote: it is not a label.
      context.metrics.webhookEvent("unverified", "rejected");
      throw billingError(verified);
    }
    const event = verified.value;
    try {
      const applied = await applyStripeEvent(context.db, billing, event, context.logger);
      if (!applied.ok) {
        // A subscription of no account could not be cancelled: an error, so Stripe delivers the event again.
        context.metrics.webhookEvent(event.type, "failed");
        throw billingError(applied);
      }
      context.metrics.webhookEvent(event.type, applied.value);
      return Response.json({ received: true, outcome: applied.value });
    } catch (error) {
      context.metrics.webhookEvent(event.type, "failed");
      throw error;
    }
  });
}
