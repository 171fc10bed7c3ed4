import { useEffect } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { useToast } from "#app/components/toaster";
import { WEBSOCKET_FAILED_EVENT } from "#app/game/client/socket";

/** When the game socket gives up reconnecting (docs/product.md#messages), every page says so once. */
export function ConnectionFailureToast() {
  const toast = useToast();
  const { t } = useTranslation("game");
  useEffect(() => {
    const onFailed = () => toast({ title: t("toasts.connectionError"), description: t("toasts.connectFailed"), variant: "destructive" });
    window.addEventListener(WEBSOCKET_FAILED_EVENT, onFailed);
    return () => window.removeEventListener(WEBSOCKET_FAILED_EVENT, onFailed);
  }, [toast, t]);
  return null;
}
