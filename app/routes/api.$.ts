import { jsonError } from "#app/utils/api.server";

/** Unknown API paths answer JSON, not the HTML not-found page. */
export function loader() {
  return jsonError(404, "Not found.");
}

export function action() {
  return jsonError(404, "Not found.");
}
