import { Link, NavLink } from "@remix-run/react";
import { useState, type ReactNode } from "react";

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

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="site-header">
      <div className="header-inner">
        <Link to="/" className="brand" onClick={() => setMenuOpen(false)}>
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
          <Link to="/auth" className="button button-small">
            Sign In
          </Link>
          <button
            type="button"
            className="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span aria-hidden="true">{menuOpen ? "✕" : "☰"}</span>
          </button>
        </div>
      </div>
      {menuOpen ? (
        <nav id="mobile-menu" className="mobile-menu" aria-label="Mobile">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.to === "/"} className="nav-link" onClick={() => setMenuOpen(false)}>
              {link.label}
            </NavLink>
          ))}
          <Link to="/auth" className="nav-link" onClick={() => setMenuOpen(false)}>
            Sign In
          </Link>
        </nav>
      ) : null}
    </header>
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
        <p>© {new Date().getFullYear()} Quiz Night. All rights reserved.</p>
      </div>
    </footer>
  );
}

export function Page({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  return <main className={`page${narrow ? " narrow" : ""}`}>{children}</main>;
}
