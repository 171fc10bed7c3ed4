import { jsonError } from "#app/http/api.server";

/** Unknown API paths answer JSON, not the HTML not-found page. */
export function loader() {
  return jsonError(404, "Not found.");
}

export function action() {
  return jsonError(404, "Not found.");
}
