import { useRouteLoaderData } from "@remix-run/react";
import type { Translate } from "#app/i18n/translator";
import type { loader as rootLoader } from "#app/root";

export type RootUser = NonNullable<Awaited<ReturnType<typeof rootLoader>>["user"]>;

/** The signed-in user (or guest) from the root loader, on any route; null when signed out. */
export function useOptionalUser(): RootUser | null {
  return useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
}

/** The name the user menu shows: the display name, else the username. */
export function userLabel(user: Pick<RootUser, "displayName" | "username" | "isGuest">, t: Translate): string {
  if (user.isGuest) return t("account.guest", { ns: "common" });
  return user.displayName || user.username;
}
