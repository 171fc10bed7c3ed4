import * as ToastPrimitive from "@radix-ui/react-toast";
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { Tooltip } from "./tooltip";

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
}
interface ToastEntry extends ToastInput {
  id: number;
  open: boolean;
}

type ToastFn = (toast: ToastInput) => void;
const ToastContext = createContext<ToastFn>(() => {});

export function useToast(): ToastFn {
  return useContext(ToastContext);
}

export function Toaster({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastEntry | null>(null);
  const nextId = useRef(1);
  const removeTimer = useRef<ReturnType<typeof setTimeout>>();

  const show = useCallback<ToastFn>((input) => {
    clearTimeout(removeTimer.current);
    setToast({ ...input, id: nextId.current++, open: true });
  }, []);

  const onOpenChange = useCallback((open: boolean) => {
    if (open) return;
    setToast((current) => (current ? { ...current, open: false } : current));
    clearTimeout(removeTimer.current);
    removeTimer.current = setTimeout(() => setToast((current) => (current?.open ? current : null)), TOAST_REMOVE_DELAY_MS);
  }, []);

  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
        {children}
        {toast ? (
          <ToastPrimitive.Root
            key={toast.id}
            open={toast.open}
            onOpenChange={onOpenChange}
            className={`toast ${toast.variant === "destructive" ? "toast-destructive" : ""}`}
            type={toast.variant === "destructive" || toast.action ? "foreground" : "background"}
            duration={toast.duration}
          >
            <ToastPrimitive.Title className="toast-title">{toast.title}</ToastPrimitive.Title>
            {toast.description ? <ToastPrimitive.Description className="toast-description">{toast.description}</ToastPrimitive.Description> : null}
            {toast.action ? (
              <ToastPrimitive.Action className="button button-small toast-action" altText={toast.action.label} onClick={toast.action.onClick}>
                {toast.action.label}
              </ToastPrimitive.Action>
            ) : null}
            <Tooltip label="Close">
              <ToastPrimitive.Close className="toast-close">×</ToastPrimitive.Close>
            </Tooltip>
          </ToastPrimitive.Root>
        ) : null}
        <ToastPrimitive.Viewport className="toast-viewport" />
      </ToastPrimitive.Provider>
    </ToastContext.Provider>
  );
}
