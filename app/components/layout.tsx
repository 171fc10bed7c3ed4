import { Form, Link, NavLink, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { FlashToasts } from "#app/components/flash-toasts";
import { LogoutForm } from "#app/components/logout-form";
import { Tooltip } from "#app/components/tooltip";
import type { loader as rootLoader } from "#app/root";
import { LANGUAGE_NAMES, LANGUAGES } from "#app/i18n/languages";
import { isGameScreen } from "#app/game-pages/game-screens";
import { THEME_CHOICES } from "#app/theme/theme";
import { useOptionalUser, userLabel, type RootUser } from "#app/sessions/user";
import { useHydrated } from "./use-hydrated";

const NAV_LINKS = [
  { to: "/", label: "nav.home" },
  { to: "/featured", label: "nav.featured" },
  { to: "/create", label: "nav.myQuizzes" },
  { to: "/ai-quiz", label: "nav.aiQuiz" },
] as const;

const SOCIAL_LINKS = [
  { href: "#", label: "Twitter" },
  { href: "#", label: "Instagram" },
  { href: "#", label: "GitHub" },
] as const;

/** docs/product.md#roles: free-tier accounts (not guests) see Upgrade Plan. */
function showsUpgrade(user: RootUser): boolean {
  return !user.isGuest && user.subscriptionTier.toLowerCase() === "free";
}

/**
 * An open/closed menu that closes itself on navigation: it is open only while the location it
 * was opened at is still the current one. Before hydration the menu is a native <details>, so it
 * also works without JavaScript; once hydrated it becomes a button with aria-expanded, keeping
 * whatever state the <details> was left in.
 */
function useDisclosure() {
  const { key } = useLocation();
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const hydrated = useHydrated();
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const open = hydrated && openedAt === key;

  useEffect(() => {
    if (detailsRef.current?.open) setOpenedAt(key);
    // Only the first render's <details> is read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setOpen = useCallback((next: boolean) => setOpenedAt(next ? key : null), [key]);
  const toggle = useCallback(() => setOpenedAt(open ? null : key), [open, key]);
  return { hydrated, open, detailsRef, setOpen, toggle };
}

/** An open menu closes on Escape (focus back on its button) and on a press outside `root`. */
function useDismiss(open: boolean, setOpen: (open: boolean) => void, root: RefObject<HTMLElement | null>, button: RefObject<HTMLButtonElement | null>) {
  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open, setOpen, root, button]);
}

export function SiteHeader() {
  const { t } = useTranslation();
  const user = useOptionalUser();
  const menu = useDisclosure();
  const close = () => menu.setOpen(false);
  const headerRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useDismiss(menu.open, menu.setOpen, headerRef, toggleRef);

  const toggleLabel = menu.open ? t("menu.close") : t("menu.open");
  const mobileMenu = (
    <nav id="mobile-menu" className="mobile-menu" aria-label={t("nav.mobile")} hidden={menu.hydrated ? !menu.open : undefined}>
      {NAV_LINKS.map((link) => (
        <NavLink key={link.to} to={link.to} end={link.to === "/"} className="nav-link" onClick={close}>
          {t(link.label)}
        </NavLink>
      ))}
      {user ? (
        <>
          <p className="mobile-signed-in">
            {/* The name as the component's child, not an interpolated value, which Trans would escape a second time. */}
            <Trans i18nKey="account.signedInAs" components={{ strong: <strong>{userLabel(user, t)}</strong> }} />
          </p>
          <AccountLinks user={user} linkClassName="nav-link" onNavigate={close} />
          <LogoutForm buttonClassName="nav-link link-button">{t("account.signOut")}</LogoutForm>
        </>
      ) : (
        <>
          {/* Without an account, the games hosted from this browser. */}
          <Link to="/my-games" className="nav-link" onClick={close}>
            {t("account.myGames")}
          </Link>
          <Link to="/auth" className="nav-link" onClick={close}>
            {t("account.signIn")}
          </Link>
        </>
      )}
    </nav>
  );

  return (
    <header ref={headerRef} className="site-header">
      {/* The first stop of the Tab key: past the header's links to the page's own content (WCAG 2.4.1). */}
      <a href={`#${MAIN_ID}`} className="skip-link">
        {t("nav.skipToContent")}
      </a>
      <FlashToasts />
      <div className="header-inner">
        <Link to="/" className="brand" onClick={close}>
          <span className="brand-mark" aria-hidden="true">
            Q
          </span>
          Quiz Night
        </Link>
        <nav className="main-nav" aria-label={t("nav.main")}>
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.to === "/"} className="nav-link">
              {t(link.label)}
            </NavLink>
          ))}
        </nav>
        <div className="header-actions">
          {user ? (
            <>
              {showsUpgrade(user) ? (
                <Link to="/subscription" className="button button-secondary button-small header-upgrade">
                  {t("account.upgradePlan")}
                </Link>
              ) : null}
              <UserMenu user={user} />
            </>
          ) : (
            <Link to="/auth" className="button button-small">
              {t("account.signIn")}
            </Link>
          )}
          {menu.hydrated ? (
            <Tooltip label={toggleLabel}>
              <button ref={toggleRef} type="button" className="menu-toggle" aria-expanded={menu.open} aria-controls="mobile-menu" onClick={menu.toggle}>
                <span aria-hidden="true">{menu.open ? "✕" : "☰"}</span>
              </button>
            </Tooltip>
          ) : (
            <details ref={menu.detailsRef} className="mobile-menu-details">
              <summary className="menu-toggle" aria-label={toggleLabel}>
                <span aria-hidden="true">☰</span>
              </summary>
              {mobileMenu}
            </details>
          )}
        </div>
      </div>
      {menu.hydrated ? mobileMenu : null}
    </header>
  );
}

/** The account links both menus share: My Account, My Quizzes, My Games, Upgrade Plan (free tier), and for a guest a way to register. */
function AccountLinks({ user, linkClassName, onNavigate }: { user: RootUser; linkClassName: string; onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Link to="/account" className={linkClassName} onClick={onNavigate}>
        {t("account.myAccount")}
      </Link>
      <Link to="/my-quizzes" className={linkClassName} onClick={onNavigate}>
        {t("account.myQuizzes")}
      </Link>
      <Link to="/my-games" className={linkClassName} onClick={onNavigate}>
        {t("account.myGames")}
      </Link>
      {showsUpgrade(user) ? (
        <Link to="/subscription" className={linkClassName} onClick={onNavigate}>
          {t("account.upgradePlan")}
        </Link>
      ) : null}
      {user.isGuest ? (
        <Link to="/auth?tab=register" className={linkClassName} onClick={onNavigate}>
          {t("account.createAccount")}
        </Link>
      ) : null}
    </>
  );
}

/** The signed-in user's menu: a disclosure labelled with the display name or username ("Guest" for a guest). */
function UserMenu({ user }: { user: RootUser }) {
  const { t } = useTranslation();
  const menu = useDisclosure();
  const { open, setOpen } = menu;
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const label = userLabel(user, t);
  useDismiss(open, setOpen, rootRef, buttonRef);

  const panel = (
    <ul id={panelId} className="user-menu-list" hidden={menu.hydrated ? !open : undefined}>
      <AccountMenuItems user={user} onNavigate={() => setOpen(false)} />
    </ul>
  );

  if (!menu.hydrated) {
    return (
      <details ref={menu.detailsRef} className="user-menu">
        <summary className="user-menu-button">
          <UserMenuLabel label={label} />
        </summary>
        {panel}
      </details>
    );
  }
  return (
    <div ref={rootRef} className="user-menu">
      <button ref={buttonRef} type="button" className="user-menu-button" aria-expanded={open} aria-controls={panelId} onClick={menu.toggle}>
        <UserMenuLabel label={label} />
      </button>
      {panel}
    </div>
  );
}

function UserMenuLabel({ label }: { label: string }) {
  return (
    <>
      <span className="user-menu-name">{label}</span>
      <span className="user-menu-caret" aria-hidden="true">
        ▾
      </span>
    </>
  );
}

function AccountMenuItems({ user, onNavigate }: { user: RootUser; onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <li>
        <Link to="/account" className="user-menu-item" onClick={onNavigate}>
          {t("account.myAccount")}
        </Link>
      </li>
      <li>
        <Link to="/my-quizzes" className="user-menu-item" onClick={onNavigate}>
          {t("account.myQuizzes")}
        </Link>
      </li>
      <li>
        <Link to="/my-games" className="user-menu-item" onClick={onNavigate}>
          {t("account.myGames")}
        </Link>
      </li>
      {user.isGuest ? (
        <li>
          <Link to="/auth?tab=register" className="user-menu-item" onClick={onNavigate}>
            {t("account.createAccount")}
          </Link>
        </li>
      ) : null}
      <li>
        <LogoutForm buttonClassName="user-menu-item link-button">{t("account.logOut")}</LogoutForm>
      </li>
    </>
  );
}

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <span className="brand">Quiz Night</span>
        <ul className="social-links">
          {SOCIAL_LINKS.map((link) => (
            <li key={link.label}>
              <a href={link.href} aria-label={link.label}>
                {link.label}
              </a>
            </li>
          ))}
        </ul>
        <ThemeSwitch />
        <LanguageSwitch />
        <p>{t("footer.rights", { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}

/** The id of every page's <main>, where the header's skip link leads. */
export const MAIN_ID = "main";

export function Page({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  // A game's screens fill the view, so the footer waits below it and never moves in sight as a screen grows or shrinks.
  const game = isGameScreen(useLocation().pathname);
  return (
    <main id={MAIN_ID} className={`page${narrow ? " narrow" : ""}${game ? " page-game" : ""}`}>
      {children}
    </main>
  );
}

/** Light, dark or the system's; a plain form, so it works before any script has loaded. */
function ThemeSwitch() {
  const { t } = useTranslation();
  const theme = useRouteLoaderData<typeof rootLoader>("root")?.theme ?? "system";
  const location = useLocation();
  return (
    <Form method="post" action="/theme" className="theme-switch" aria-label={t("theme.label")}>
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <span className="theme-switch-label" aria-hidden="true">
        {t("theme.title")}
      </span>
      {THEME_CHOICES.map((choice) => (
        <button key={choice} type="submit" name="theme" value={choice} className="chip" aria-pressed={theme === choice}>
          <span className="visually-hidden">{t("theme.prefix")}</span>
          {t(`theme.${choice}`)}
        </button>
      ))}
    </Form>
  );
}

/**
 * The interface's language, each named in its own words and marked with its `lang`. A plain form
 * that reloads the whole page, which the server renders in the new language: no flash of the old
 * words, and it works before any script has loaded.
 */
function LanguageSwitch() {
  const { t, language: pageLanguage } = useTranslation();
  const location = useLocation();
  return (
    <Form method="post" action="/language" reloadDocument className="theme-switch language-switch" aria-label={t("language.label")}>
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <span className="theme-switch-label" aria-hidden="true">
        {t("language.title")}
      </span>
      {LANGUAGES.map((language) => (
        <button key={language} type="submit" name="language" value={language} className="chip" lang={language} aria-pressed={pageLanguage === language}>
          {LANGUAGE_NAMES[language]}
        </button>
      ))}
    </Form>
  );
}
