import { redirect } from "@remix-run/node";

/** The featured page's empty state links here (spec section 2); the quiz form lives at /create. */
export function loader() {
  return redirect("/create");
}
