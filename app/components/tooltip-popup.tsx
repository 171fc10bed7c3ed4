/**
 * The Radix tooltip of ./tooltip, in a chunk of its own: loaded only when a mouse or the keyboard
 * first reaches an icon-only control (docs/decisions/0028).
 */
import * as RadixTooltip from "@radix-ui/react-tooltip";
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactElement } from "react";
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "./tooltip";

/**
 * Whether tooltips open without the delay right now: one is open, or one closed less than
 * TOOLTIP_SKIP_DELAY_MS ago. Shared by every tooltip on the page, as one Radix Tooltip.Provider
 * would share it, without a provider that would have to wrap the whole app from the first render.
 */
let openCount = 0;
let warm = false;
let coolDown: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function setWarm(next: boolean): void {
  if (warm === next) return;
  warm = next;
  for (const listener of listeners) listener();
}

/** The open tooltip's close: one at a time, however it opened. */
let closeOpen: (() => void) | null = null;

/** Counts a tooltip as open (closing any other) until the returned function is called. */
function tooltipOpened(close: () => void): () => void {
  closeOpen?.();
  closeOpen = close;
  openCount += 1;
  clearTimeout(coolDown);
  setWarm(true);
  return () => {
    if (closeOpen === close) closeOpen = null;
    openCount = Math.max(0, openCount - 1);
    if (openCount > 0) return;
    clearTimeout(coolDown);
    coolDown = setTimeout(() => setWarm(false), TOOLTIP_SKIP_DELAY_MS);
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the next tooltip should open without waiting. */
export function tooltipsWarm(): boolean {
  return warm;
}

function useTooltipsWarm(): boolean {
  return useSyncExternalStore(subscribe, tooltipsWarm, () => false);
}

export function TooltipPopup({
  label,
  defaultOpen,
  refocus,
  children,
}: {
  label: string;
  /** Open from the start: the pointer has rested on the control, or the keyboard reached it. */
  defaultOpen: boolean;
  /** Give the focus back: this control replaced the bare one that had it. */
  refocus: boolean;
  children: ReactElement;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const warm = useTooltipsWarm();
  const triggerRef = useRef<HTMLButtonElement>(null);

  useEffect(() => (open ? tooltipOpened(() => setOpen(false)) : undefined), [open]);
  // In the commit that swapped the controls, before anything else runs: a key pressed in between
  // would start from the page's end (tests/e2e/keyboard.spec.ts saw it on a busy machine). This
  // component is only ever rendered in the browser, once its chunk has loaded.
  useLayoutEffect(() => {
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (refocus && focusLost) triggerRef.current?.focus();
    // Only when this control takes over from the bare one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {/* Another tooltip open or just closed: this one opens at once, as within one shared provider. */}
      <RadixTooltip.Root open={open} onOpenChange={setOpen} delayDuration={warm ? 0 : undefined}>
        <RadixTooltip.Trigger asChild aria-label={label} ref={triggerRef}>
          {children}
        </RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content className="tooltip" sideOffset={6} collisionPadding={8}>
            {label}
            <RadixTooltip.Arrow className="tooltip-arrow" width={10} height={5} />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
