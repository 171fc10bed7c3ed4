import { Form, Link, NavLink, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { FlashToasts } from "#app/components/flash-toasts";
import { LogoutForm } from "#app/components/logout-form";
import { Tooltip } from "#app/components/tooltip";
import type { loader as rootLoader } from "#app/root";
import { THEME_CHOICES, THEME_LABELS } from "#app/utils/theme";
import { useOptionalUser, userLabel, type RootUser } from "#app/utils/user";

const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/featured", label: "Featured Quizzes" },
  { to: "/create", label: "My Quizzes" },
  { to: "/ai-quiz", label: "AI Quiz" },
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
  const [hydrated, setHydrated] = useState(false);
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const open = hydrated && openedAt === key;

  useEffect(() => {
    if (detailsRef.current?.open) setOpenedAt(key);
    setHydrated(true);
    // Only the first render's <details> is read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setOpen = useCallback((next: boolean) => setOpenedAt(next ? key : null), [key]);
  const toggle = useCallback(() => setOpenedAt(open ? null : key), [open, key]);
  return { hydrated, open, detailsRef, setOpen, toggle };
}

export function SiteHeader() {
  const user = useOptionalUser();
  const menu = useDisclosure();
  const close = () => menu.setOpen(false);

  const toggleLabel = menu.open ? "Close menu" : "Open menu";
  const mobileMenu = (
    <nav id="mobile-menu" className="mobile-menu" aria-label="Mobile" hidden={menu.hydrated ? !menu.open : undefined}>
      {NAV_LINKS.map((link) => (
        <NavLink key={link.to} to={link.to} end={link.to === "/"} className="nav-link" onClick={close}>
          {link.label}
        </NavLink>
      ))}
      {user ? (
        <>
          <p className="mobile-signed-in">
            Signed in as <strong>{userLabel(user)}</strong>
          </p>
          <AccountLinks user={user} linkClassName="nav-link" onNavigate={close} />
          <LogoutForm buttonClassName="nav-link link-button">Sign Out</LogoutForm>
        </>
      ) : (
        <Link to="/auth" className="nav-link" onClick={close}>
          Sign In
        </Link>
      )}
    </nav>
  );

  return (
    <header className="site-header">
      <FlashToasts />
      <div className="header-inner">
        <Link to="/" className="brand" onClick={close}>
          <span className="brand-mark" aria-hidden="true">
            Q
          </span>
          Quiz Night
        </Link>
        <nav className="main-nav" aria-label="Main">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.to === "/"} className="nav-link">
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="header-actions">
          {user ? (
            <>
              {showsUpgrade(user) ? (
                <Link to="/subscription" className="button button-secondary button-small header-upgrade">
                  Upgrade Plan
                </Link>
              ) : null}
              <UserMenu user={user} />
            </>
          ) : (
            <Link to="/auth" className="button button-small">
              Sign In
            </Link>
          )}
          {menu.hydrated ? (
            <Tooltip label={toggleLabel}>
              <button type="button" className="menu-toggle" aria-expanded={menu.open} aria-controls="mobile-menu" onClick={menu.toggle}>
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

/** The account links both menus share: My Account, My Quizzes, Upgrade Plan (free tier), and for a guest a way to register. */
function AccountLinks({ user, linkClassName, onNavigate }: { user: RootUser; linkClassName: string; onNavigate: () => void }) {
  return (
    <>
      <Link to="/account" className={linkClassName} onClick={onNavigate}>
        My Account
      </Link>
      <Link to="/my-quizzes" className={linkClassName} onClick={onNavigate}>
        My Quizzes
      </Link>
      {showsUpgrade(user) ? (
        <Link to="/subscription" className={linkClassName} onClick={onNavigate}>
          Upgrade Plan
        </Link>
      ) : null}
      {user.isGuest ? (
        <Link to="/auth?tab=register" className={linkClassName} onClick={onNavigate}>
          Create Account
        </Link>
      ) : null}
    </>
  );
}

/** The signed-in user's menu: a disclosure labelled with the display name or username ("Guest" for a guest). */
function UserMenu({ user }: { user: RootUser }) {
  const menu = useDisclosure();
  const { open, setOpen } = menu;
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const label = userLabel(user);

  // An open menu closes on Escape (focus back on its button) and on a click elsewhere.
  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open, setOpen]);

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
  return (
    <>
      <li>
        <Link to="/account" className="user-menu-item" onClick={onNavigate}>
          My Account
        </Link>
      </li>
      <li>
        <Link to="/my-quizzes" className="user-menu-item" onClick={onNavigate}>
          My Quizzes
        </Link>
      </li>
      {user.isGuest ? (
        <li>
          <Link to="/auth?tab=register" className="user-menu-item" onClick={onNavigate}>
            Create Account
          </Link>
        </li>
      ) : null}
      <li>
        <LogoutForm buttonClassName="user-menu-item link-button">Log out</LogoutForm>
      </li>
    </>
  );
}

export function SiteFooter() {
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
        <p>© {new Date().getFullYear()} Quiz Night. All rights reserved.</p>
      </div>
    </footer>
  );
}

export function Page({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  return <main className={`page${narrow ? " narrow" : ""}`}>{children}</main>;
}

/** Light, dark or the system's; a plain form, so it works before any script has loaded. */
function ThemeSwitch() {
  const theme = useRouteLoaderData<typeof rootLoader>("root")?.theme ?? "system";
  const location = useLocation();
  return (
    <Form method="post" action="/theme" className="theme-switch" aria-label="Colour theme">
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <span className="theme-switch-label" aria-hidden="true">
        Theme
      </span>
      {THEME_CHOICES.map((choice) => (
        <button key={choice} type="submit" name="theme" value={choice} className="chip" aria-pressed={theme === choice}>
          <span className="visually-hidden">Colour theme: </span>
          {THEME_LABELS[choice]}
        </button>
      ))}
    </Form>
  );
}
