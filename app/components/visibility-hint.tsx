/**
 * What a quiz's visibility means (docs/product.md#screens), beside every control that sets it:
 * quizzes are private unless chosen otherwise, so an empty Featured page is the usual first sight.
 */
export function VisibilityHint({ id }: { id: string }) {
  return (
    <p id={id} className="hint">
      Public: anyone can find, play and host it, and its live games are listed on Featured Quizzes. Private: only you can see and host it; players join your
      games with the code.
    </p>
  );
}
