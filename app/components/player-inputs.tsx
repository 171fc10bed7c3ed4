/**
 * The ways of answering the kinds share (app/game/kinds/<kind>/ui.tsx names its own): options to pick
 * one of, options to pick several of, a text, a number. Pick-one options are buttons (one press
 * answers), pick-several ones checkboxes; none takes focus on its own: the screen's heading has it
 * (docs/decisions/0027-keyboard-and-focus.md).
 */
import { useState, type FormEvent } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import type { PlayerInputProps } from "#app/game/kinds/components-part";
import { parseTypedNumber, TYPED_ANSWER_MAX_LENGTH } from "#app/game/question-kinds";
import { ANSWER_LETTERS, AnswerLabel } from "./game-ui";

/** The id of the question's text on the player's screen: each way of answering names it as its description. */
export const QUESTION_TEXT_ID = "question-text";

export function PickOne({ question, disabled, selectedAnswerIndex, onAnswer }: PlayerInputProps) {
  const { t } = useTranslation("game");
  const locked = selectedAnswerIndex !== null;
  return (
    <div className="answers" role="group" aria-label={t("answer.group")} aria-describedby={QUESTION_TEXT_ID}>
      {question.answers.map((answer, index) => {
        const selected = selectedAnswerIndex === index;
        return (
          <button
            key={index}
            type="button"
            className={`answer answer-${index}${locked && !selected ? " dimmed" : ""}${locked && selected ? " selected" : ""}`}
            disabled={disabled}
            aria-pressed={selected}
            aria-keyshortcuts={`${index + 1} ${ANSWER_LETTERS[index]}`}
            onClick={() => onAnswer({ answerIndex: index })}
          >
            <AnswerLabel index={index} text={answer} />
          </button>
        );
      })}
    </div>
  );
}

export function PickSeveral({ question, disabled, submitted, onAnswer }: PlayerInputProps) {
  const { t } = useTranslation("game");
  const [picks, setPicks] = useState<number[]>(() => (Array.isArray(submitted) ? (submitted as number[]) : []));
  const shown = Array.isArray(submitted) ? (submitted as number[]) : picks;
  const toggle = (index: number) =>
    setPicks((current) => (current.includes(index) ? current.filter((pick) => pick !== index) : [...current, index].sort((a, b) => a - b)));
  return (
    <div className="stack">
      <p className="center muted">{t("answer.pickSeveral")}</p>
      <div className="answers" role="group" aria-label={t("answer.groupSeveral")} aria-describedby={QUESTION_TEXT_ID}>
        {question.answers.map((answer, index) => (
          // A button in the checkbox role: Space ticks it as on a native checkbox, and the tile keeps the answers' look.
          <button
            key={index}
            type="button"
            role="checkbox"
            className={`answer answer-${index} picking${shown.length > 0 && !shown.includes(index) ? " dimmed" : ""}`}
            disabled={disabled}
            aria-checked={shown.includes(index)}
            onClick={() => toggle(index)}
          >
            <AnswerLabel index={index} text={answer} />
            <span className="answer-check" aria-hidden="true">
              {shown.includes(index) ? "✓" : ""}
            </span>
          </button>
        ))}
      </div>
      <div className="row" style={{ justifyContent: "center" }}>
        <button type="button" className="button" disabled={disabled || picks.length === 0} onClick={() => onAnswer({ answerIndexes: picks })}>
          {picks.length > 1 ? t("answer.submitSeveral", { number: picks.length }) : t("answer.submit")}
        </button>
      </div>
    </div>
  );
}

export function TypeAnswer({ disabled, submitted, onAnswer }: PlayerInputProps) {
  const { t } = useTranslation("game");
  const [text, setText] = useState(typeof submitted === "string" ? submitted : "");
  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim()) onAnswer({ text: text.trim() });
  }
  return (
    <form className="typed-answer-form" onSubmit={submit}>
      <label htmlFor="typed-answer" className="visually-hidden">
        {t("answer.yourAnswer")}
      </label>
      <input
        id="typed-answer"
        name="answer"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={TYPED_ANSWER_MAX_LENGTH}
        placeholder={t("answer.typePlaceholder")}
        value={typeof submitted === "string" ? submitted : text}
        disabled={disabled}
        aria-describedby={QUESTION_TEXT_ID}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="button" disabled={disabled || !text.trim()}>
        {t("answer.submit")}
      </button>
    </form>
  );
}

export function GuessNumber({ disabled, submitted, onAnswer }: PlayerInputProps) {
  const { t } = useTranslation("game");
  const [raw, setRaw] = useState(typeof submitted === "number" ? String(submitted) : "");
  const parsed = parseTypedNumber(raw);
  const valid = parsed !== null;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (parsed !== null) onAnswer({ number: parsed });
  }
  return (
    <form className="typed-answer-form" onSubmit={submit}>
      <label htmlFor="number-guess" className="visually-hidden">
        {t("answer.yourGuess")}
      </label>
      <input
        id="number-guess"
        name="guess"
        inputMode="decimal"
        autoComplete="off"
        placeholder={t("answer.yourGuess")}
        value={typeof submitted === "number" ? String(submitted) : raw}
        disabled={disabled}
        aria-describedby={QUESTION_TEXT_ID}
        onChange={(event) => setRaw(event.target.value)}
      />
      <button type="submit" className="button" disabled={disabled || !valid}>
        {t("answer.submitGuess")}
      </button>
    </form>
  );
}
