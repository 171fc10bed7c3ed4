/**
 * The label of an icon-only control, shown as a tooltip on hover (after TOOLTIP_DELAY_MS) and at
 * once on keyboard focus (docs/product.md#constants). The control also takes the label as its
 * accessible name, rendered on the server.
 *
 * Radix Tooltip and its positioning code come from ./tooltip-popup, loaded only when a mouse rests
 * on such a control or the keyboard reaches one: a phone never downloads them, and the player's
 * pages keep their weight (docs/decisions/0028). Until then the control is rendered bare.
 */
import { cloneElement, useEffect, useRef, useState, type FocusEvent, type PointerEvent, type ReactElement } from "react";

/** How long a pointer rests on a control before its tooltip opens. */
export const TOOLTIP_DELAY_MS = 700;
/** After a tooltip closes, another opens at once if the pointer reaches it within this time. */
export const TOOLTIP_SKIP_DELAY_MS = 300;

type PopupModule = typeof import("./tooltip-popup");
let popupModule: PopupModule | null = null;
let loading: Promise<PopupModule> | null = null;

function loadPopup(): Promise<PopupModule> {
  loading ??= import("./tooltip-popup").then((module) => (popupModule = module));
  loading.catch(() => {
    loading = null; // a failed chunk load may succeed next time
  });
  return loading;
}

type TriggerProps = {
  "aria-label"?: string;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
};

/**
 * `children`: one button-like element (it must pass on a ref and these event props). It gets
 * `label` as its accessible name and as its tooltip.
 */
export function Tooltip({ label, children }: { label: string; children: ReactElement<TriggerProps> }) {
  // A control rendered after the popup has loaded has it from the start.
  const [popup, setPopup] = useState<PopupModule | null>(popupModule);
  const [opening, setOpening] = useState<"hover" | "focus" | null>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(hoverTimer.current), []);

  if (popup) {
    return (
      <popup.TooltipPopup label={label} defaultOpen={opening !== null} refocus={opening === "focus"}>
        {children}
      </popup.TooltipPopup>
    );
  }

  // The control is swapped for the popup's (a new element), so it opens as the first one would have.
  // `still`: whether the pointer or the focus is still there once the chunk has arrived.
  const open = (how: "hover" | "focus", still: () => boolean) =>
    loadPopup().then(
      (module) => {
        if (!still()) return;
        setOpening(how);
        setPopup(module);
      },
      () => {},
    );

  return cloneElement(children, {
    "aria-label": label,
    onPointerEnter(event) {
      children.props.onPointerEnter?.(event);
      if (event.pointerType === "touch") return;
      const target = event.currentTarget;
      void loadPopup().catch(() => {});
      clearTimeout(hoverTimer.current);
      const warm = popupModule?.tooltipsWarm() ?? false;
      const hovered = () => target.matches(":hover");
      hoverTimer.current = setTimeout(() => hovered() && open("hover", hovered), warm ? 0 : TOOLTIP_DELAY_MS);
    },
    onPointerLeave(event) {
      children.props.onPointerLeave?.(event);
      clearTimeout(hoverTimer.current);
    },
    onPointerDown(event) {
      // A press (a click, the start of a drag) closes a tooltip; it must not open one mid-press either.
      children.props.onPointerDown?.(event);
      clearTimeout(hoverTimer.current);
    },
    onFocus(event) {
      children.props.onFocus?.(event);
      // Keyboard focus only: a tap or a click focuses a button too.
      const target = event.currentTarget;
      if (target.matches(":focus-visible")) void open("focus", () => document.activeElement === target);
    },
  });
}
