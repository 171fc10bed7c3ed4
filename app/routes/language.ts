import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { LanguageFormSchema } from "#app/i18n/language-schema";
import { rememberLanguage } from "#app/i18n/language.server";
import { setUserLanguage } from "#app/models/user.server";
import { parseForm } from "#app/forms/forms";
import { readForm } from "#app/http/api.server";
import { safeRedirect } from "#app/http/safe-redirect";
import { getUser } from "#app/sessions/session.server";

/**
 * POST /language: the footer's switcher. Remembers the choice for this browser and, when signed
 * in, on the account (the user's other browsers follow it), then goes back to the page, which the
 * server renders in the new language (works without JavaScript).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request, "/language"), LanguageFormSchema);
  if (submission.status !== "success") return Response.json({ error: "Choose English, Deutsch, Español or Français." }, { status: 400 });
  const { language, redirectTo } = submission.value;
  const user = await getUser(context, request);
  if (user) await setUserLanguage(context.db, user.id, language);
  return redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": await rememberLanguage(language) } });
}

export function loader() {
  return redirect("/");
}
