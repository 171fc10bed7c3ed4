import { useEffect } from "react";
import { useToast } from "#app/components/toaster";
import { WEBSOCKET_FAILED_EVENT } from "#app/game/client/socket";

/** When the game socket gives up reconnecting (docs/product.md#messages), every page says so once. */
export function ConnectionFailureToast() {
  const toast = useToast();
  useEffect(() => {
    const onFailed = () => toast({ title: "Connection Error", description: "Failed to connect to game server", variant: "destructive" });
    window.addEventListener(WEBSOCKET_FAILED_EVENT, onFailed);
    return () => window.removeEventListener(WEBSOCKET_FAILED_EVENT, onFailed);
  }, [toast]);
  return null;
}
