import { redirect } from "@remix-run/node";

/** The featured page's empty state links here (docs/product.md#screens); the quiz form lives at /create. */
export function loader() {
  return redirect("/create");
}
