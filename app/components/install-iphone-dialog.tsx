import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { Tooltip } from "./tooltip";

/** The steps' words are `install.iphone.steps.KEY.title` and `.text` in the common catalog. */
export const IPHONE_INSTALL_STEPS = ["openSafari", "tapShare", "findAdd", "customize", "launch"] as const;

/** `install.iphone.benefits.KEY` in the common catalog. */
export const INSTALL_BENEFITS = ["fullScreen", "quickLaunch", "offline", "faster"] as const;

/** The 'How to Install on iPhone' button and its step-by-step dialog. */
export function InstallIphoneDialog() {
  const { t } = useTranslation();
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
          {t("install.iphone.title")}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog install-dialog">
          <Dialog.Title>{t("install.iphone.title")}</Dialog.Title>
          <Dialog.Description className="muted">{t("install.iphone.description")}</Dialog.Description>

          <p className="install-step-indicator" aria-live="polite">
            {t("install.iphone.stepOf", { step: stepIndex + 1, total: IPHONE_INSTALL_STEPS.length })}
          </p>
          <ol className="install-step-dots" aria-hidden="true">
            {IPHONE_INSTALL_STEPS.map((item, index) => (
              <li key={item} className={index === stepIndex ? "current" : index < stepIndex ? "done" : undefined} />
            ))}
          </ol>
          <section className="install-step" aria-label={t("install.iphone.step", { step: stepIndex + 1 })}>
            <h3>{t("install.iphone.stepHeading", { step: stepIndex + 1, title: t(`install.iphone.steps.${step}.title`) })}</h3>
            <p>{t(`install.iphone.steps.${step}.text`)}</p>
          </section>

          <div className="row install-step-nav">
            <button type="button" className="button button-secondary" disabled={isFirstStep} onClick={() => setStepIndex((index) => Math.max(0, index - 1))}>
              {t("install.iphone.previous")}
            </button>
            {isLastStep ? (
              <Dialog.Close asChild>
                <button type="button" className="button">
                  {t("install.iphone.done")}
                </button>
              </Dialog.Close>
            ) : (
              <button type="button" className="button" onClick={() => setStepIndex((index) => Math.min(IPHONE_INSTALL_STEPS.length - 1, index + 1))}>
                {t("install.iphone.next")}
              </button>
            )}
          </div>

          <h3>{t("install.iphone.benefitsTitle")}</h3>
          <ul className="install-benefits">
            {INSTALL_BENEFITS.map((benefit) => (
              <li key={benefit}>{t(`install.iphone.benefits.${benefit}`)}</li>
            ))}
          </ul>

          <Tooltip label={t("install.iphone.close")}>
            <Dialog.Close className="dialog-close">×</Dialog.Close>
          </Tooltip>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
