import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { endSession } from "#app/utils/session.server";

/** POST /logout: deletes the session row and clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  return redirect("/", { headers: { "Set-Cookie": await endSession(context, request) } });
}

export function loader() {
  return redirect("/");
}
