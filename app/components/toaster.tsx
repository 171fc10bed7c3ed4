import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { useLocation } from "@remix-run/react";

/** docs/product.md#messages: one toast at a time, 5000 ms, swipe right past 50 px, F8 focuses the viewport. */
export const TOAST_DURATION_MS = 5000;
/** docs/product.md#messages: a dismissed toast is removed after a very long delay. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = "default" | "destructive";
export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** A button in the toast, e.g. Reload; `duration` keeps such a toast up longer (ms, Infinity for until acted on). */
  action?: { label: string; onClick: () => void };
  duration?: number;
  /**
   * The toast is about this page and closes when the user leaves it: the lobby's toasts must not
   * outlive it over the host's game controls (Radix holds a toast open while the window is in the background).
   */
  closesWithPage?: boolean;
}
export interface ToastEntry extends ToastInput {
  id: number;
  open: boolean;
  /** The page it was shown on. */
  pathname: string;
}
export interface ToastViewProps {
  toast: ToastEntry | null;
  onOpenChange(open: boolean): void;
}

type ToastFn = (toast: ToastInput) => void;
const ToastContext = createContext<ToastFn>(() => {});

export function useToast(): ToastFn {
  return useContext(ToastContext);
}

/**
 * The same toast without Radix: shown while Radix loads, and in its place if it cannot (a first
 * visit that lost the network). It closes after its duration and with its × button.
 */
function PlainToastView({ toast, onOpenChange }: ToastViewProps) {
  const { t } = useTranslation();
  const open = toast?.open ?? false;
  const duration = toast?.duration ?? TOAST_DURATION_MS;
  useEffect(() => {
    if (!open || !Number.isFinite(duration)) return;
    const timer = setTimeout(() => onOpenChange(false), duration);
    return () => clearTimeout(timer);
  }, [open, duration, onOpenChange]);
  if (!toast || !open) return null;
  return (
    <div className="toast-viewport">
      <div role="status" className={`toast ${toast.variant === "destructive" ? "toast-destructive" : ""}`}>
        <div className="toast-title">{toast.title}</div>
        {toast.description ? <div className="toast-description">{toast.description}</div> : null}
        {toast.action ? (
          <button type="button" className="button button-small toast-action" onClick={toast.action.onClick}>
            {toast.action.label}
          </button>
        ) : null}
        <button type="button" className="toast-close" aria-label={t("toast.close")} onClick={() => onOpenChange(false)}>
          ×
        </button>
      </div>
    </div>
  );
}

/**
 * Radix's toast is a tenth of what a player's phone would download to answer a question, for
 * something most visits never show: it is loaded with the first toast
 * (docs/decisions/0025-player-download.md), and the plain one stands in meanwhile.
 */
const ToastView = lazy(() => import("./toast-view").catch(() => ({ default: PlainToastView })));

export function Toaster({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastEntry | null>(null);
  const nextId = useRef(1);
  const removeTimer = useRef<ReturnType<typeof setTimeout>>();
  const { pathname } = useLocation();
  const currentPathname = useRef(pathname);
  currentPathname.current = pathname;

  const show = useCallback<ToastFn>((input) => {
    clearTimeout(removeTimer.current);
    setToast({ ...input, id: nextId.current++, open: true, pathname: currentPathname.current });
  }, []);

  const onOpenChange = useCallback((open: boolean) => {
    if (open) return;
    setToast((current) => (current ? { ...current, open: false } : current));
    clearTimeout(removeTimer.current);
    removeTimer.current = setTimeout(() => setToast((current) => (current?.open ? current : null)), TOAST_REMOVE_DELAY_MS);
  }, []);

  useEffect(() => {
    if (toast?.open && toast.closesWithPage && toast.pathname !== pathname) onOpenChange(false);
  }, [pathname, toast, onOpenChange]);

  // Once a page has shown a toast, the view stays, as Radix's viewport (and its F8) did from the start.
  const [shown, setShown] = useState(false);
  if (toast && !shown) setShown(true);

  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {shown ? (
        <Suspense fallback={<PlainToastView toast={toast} onOpenChange={onOpenChange} />}>
          <ToastView toast={toast} onOpenChange={onOpenChange} />
        </Suspense>
      ) : null}
    </ToastContext.Provider>
  );
}
