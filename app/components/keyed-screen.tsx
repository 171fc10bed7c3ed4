/** What the display's and the remote's pages share (docs/decisions/0032-display-and-remote.md). */
import { Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { Page } from "./layout";

/** The page a wrong, old or cut link opens: what it is, and what to do. */
export function InvalidLink({ which }: { which: "display" | "remote" }) {
  const { t } = useTranslation("game");
  return (
    <Page narrow>
      <div className="card stack">
        <h1>{t(`${which}.invalidTitle`)}</h1>
        <p>{t(`${which}.invalidText`)}</p>
        <div>
          <Link to="/" className="button">
            {t("results.home")}
          </Link>
        </div>
      </div>
    </Page>
  );
}

/** Joins once for the page's life; the game provider joins again by itself after a reconnect. */
export function useJoinOnce(join: () => void): void {
  const joined = useRef(false);
  const joinRef = useRef(join);
  joinRef.current = join;
  useEffect(() => {
    if (joined.current) return;
    joined.current = true;
    joinRef.current();
  }, []);
}
