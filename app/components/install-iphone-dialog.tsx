import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { Tooltip } from "./tooltip";

export const IPHONE_INSTALL_STEPS = [
  {
    title: "Open Safari",
    text: "Open Quiz Night in Safari on your iPhone. Adding to the home screen only works from Safari.",
  },
  {
    title: "Tap Share",
    text: "Tap the Share button, the square with an arrow pointing up, in Safari's toolbar.",
  },
  {
    title: 'Find "Add to Home Screen"',
    text: 'Scroll down the share sheet and tap "Add to Home Screen".',
  },
  {
    title: "Customize and add",
    text: 'Change the name if you like, then tap "Add" in the top-right corner.',
  },
  {
    title: "Launch",
    text: "Open Quiz Night from its new icon on your home screen, just like any other app.",
  },
] as const;

export const INSTALL_BENEFITS = [
  "Full-screen experience without the browser bars",
  "Quick launch from your home screen",
  "Works offline",
  "Faster loading",
] as const;

/** The 'How to Install on iPhone' button and its step-by-step dialog. */
export function InstallIphoneDialog() {
  const [open, setOpen] = useState(false);
  const [stepIndex, setStepIndex] = useState(0);
  const step = IPHONE_INSTALL_STEPS[stepIndex];
  const isFirstStep = stepIndex === 0;
  const isLastStep = stepIndex === IPHONE_INSTALL_STEPS.length - 1;

  function onOpenChange(nextOpen: boolean) {
    setOpen(nextOpen);
    if (nextOpen) setStepIndex(0);
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <button type="button" className="button button-secondary">
          How to Install on iPhone
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog install-dialog">
          <Dialog.Title>How to Install on iPhone</Dialog.Title>
          <Dialog.Description className="muted">Add Quiz Night to your home screen and use it like an app.</Dialog.Description>

          <p className="install-step-indicator" aria-live="polite">
            Step {stepIndex + 1} of {IPHONE_INSTALL_STEPS.length}
          </p>
          <ol className="install-step-dots" aria-hidden="true">
            {IPHONE_INSTALL_STEPS.map((item, index) => (
              <li key={item.title} className={index === stepIndex ? "current" : index < stepIndex ? "done" : undefined} />
            ))}
          </ol>
          <section className="install-step" aria-label={`Step ${stepIndex + 1}`}>
            <h3>
              {stepIndex + 1}. {step.title}
            </h3>
            <p>{step.text}</p>
          </section>

          <div className="row install-step-nav">
            <button type="button" className="button button-secondary" disabled={isFirstStep} onClick={() => setStepIndex((index) => Math.max(0, index - 1))}>
              Previous
            </button>
            {isLastStep ? (
              <Dialog.Close asChild>
                <button type="button" className="button">
                  Done
                </button>
              </Dialog.Close>
            ) : (
              <button type="button" className="button" onClick={() => setStepIndex((index) => Math.min(IPHONE_INSTALL_STEPS.length - 1, index + 1))}>
                Next
              </button>
            )}
          </div>

          <h3>Benefits</h3>
          <ul className="install-benefits">
            {INSTALL_BENEFITS.map((benefit) => (
              <li key={benefit}>{benefit}</li>
            ))}
          </ul>

          <Tooltip label="Close">
            <Dialog.Close className="dialog-close">×</Dialog.Close>
          </Tooltip>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
