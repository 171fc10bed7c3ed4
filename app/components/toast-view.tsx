/**
 * The toast as Radix draws it (swipe right past 50 px, F8 focuses the viewport, pause on hover,
 * announced to screen readers), loaded by the Toaster with the first toast a page shows.
 */
import * as ToastPrimitive from "@radix-ui/react-toast";
import { useTranslation } from "#app/i18n/use-translation";
import { TOAST_DURATION_MS, type ToastViewProps } from "./toaster";
import { Tooltip } from "./tooltip";

export default function ToastView({ toast, onOpenChange }: ToastViewProps) {
  const { t } = useTranslation();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50} label={t("toast.label")}>
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
          <Tooltip label={t("toast.close")}>
            <ToastPrimitive.Close className="toast-close">×</ToastPrimitive.Close>
          </Tooltip>
        </ToastPrimitive.Root>
      ) : null}
      {/* Radix puts the F8 shortcut where {hotkey} stands. */}
      <ToastPrimitive.Viewport className="toast-viewport" label={t("toast.viewport")} />
    </ToastPrimitive.Provider>
  );
}
