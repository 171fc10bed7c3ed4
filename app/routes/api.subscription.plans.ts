import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPlans } from "#app/models/plan.server";
import { handleApi } from "#app/http/api.server";

/** GET /api/subscription/plans -> [{id, name, price, currency, description, aiQuizLimit, features}]. */
export async function loader({ context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => Response.json(await listPlans(context.db)));
}
