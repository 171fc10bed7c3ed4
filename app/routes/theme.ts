import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseForm } from "#app/forms/forms";
import { readForm } from "#app/http/api.server";
import { safeRedirect } from "#app/http/safe-redirect";
import { THEME_CHOICES } from "#app/theme/theme";
import { rememberTheme } from "#app/theme/theme.server";

const ThemeFormSchema = z.object({
  theme: z.enum(THEME_CHOICES, { error: "Choose system, light or dark." }),
  redirectTo: z.string().optional(),
});

/** POST /theme: the footer's switch; remembers the choice for this browser and goes back (works without JavaScript). */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request, "/theme"), ThemeFormSchema);
  if (submission.status !== "success") return Response.json({ error: "Choose system, light or dark." }, { status: 400 });
  const { theme, redirectTo } = submission.value;
  return redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": await rememberTheme(theme) } });
}

export function loader() {
  return redirect("/");
}
