import { Trans, useTranslation } from "#app/i18n/use-translation";
import { FieldError } from "./form-field";

export function Slider({
  id,
  name,
  label,
  range,
  value,
  shown,
  error,
  onChange,
}: {
  id: string;
  name: string;
  label: string;
  range: { min: number; max: number; step: number };
  value: string;
  shown: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation("quiz");
  return (
    <div className="field">
      <label htmlFor={id}>
        <Trans t={t} i18nKey="ai.sliderLabel" values={{ label, value: shown }} components={{ output: <output htmlFor={id} /> }} />
      </label>
      <input
        id={id}
        name={name}
        type="range"
        className="slider"
        min={range.min}
        max={range.max}
        step={range.step}
        value={value}
        aria-valuetext={shown}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
