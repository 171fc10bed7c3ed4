/**
 * The join form's team choice in a game played in teams (docs/decisions/0033-team-scoring.md): a
 * radio per team with its size, "New team" with its name, or none yet. Plain fields, so the form
 * works without JavaScript; every player's phone loads it with the join page, so it stays small.
 */
import { useTranslation } from "#app/i18n/use-translation";
import { TEAM_NAME_MAX_LENGTH } from "#app/game/rules";
import { TEAM_LATER, TEAM_NEW, teamChoiceValue, type JoinTeams } from "#app/teams/team-choice";
import type { AppError } from "#app/i18n/app-error";
import { FieldError } from "./form-field";

export function JoinTeamFields({
  offered,
  values,
  error,
  errorCode,
  onChange,
}: {
  offered: JoinTeams;
  /** What the last post chose, to choose again. */
  values?: { team?: string; newTeam?: string };
  error?: string;
  /** The message's code and values, which it is said by (docs/decisions/0047-errors-as-codes.md). */
  errorCode?: AppError;
  onChange(): void;
}) {
  const { t } = useTranslation("game");
  const chosen = values?.team || TEAM_LATER;
  const option = (value: string, label: string, members?: number) => (
    <li key={value} className="quiz-option">
      <label className="quiz-option-label">
        <input type="radio" name="team" value={value} defaultChecked={chosen === value} />
        <span className="player-name">{label}</span>
        {members === undefined ? null : <span className="badge">{t("teams.members", { count: members })}</span>}
      </label>
    </li>
  );
  return (
    <fieldset className="quiz-choices" aria-describedby="team-hint">
      <legend className="label">{t("teams.join.legend")}</legend>
      <p id="team-hint" className="hint">
        {t(offered.started ? "teams.join.hintStarted" : offered.teams.length > 0 ? "teams.join.hintSmallest" : "teams.join.hintOwn")}
      </p>
      <ul className="quiz-options team-choices">
        {option(TEAM_LATER, t(offered.started ? "teams.join.any" : "teams.join.later"))}
        {offered.teams.map((team) => option(teamChoiceValue(team.name), team.name, team.members))}
        {offered.started ? null : (
          <li className="quiz-option">
            <label className="quiz-option-label" id="team-new-label">
              <input type="radio" name="team" value={TEAM_NEW} defaultChecked={chosen === TEAM_NEW} id="team-new" />
              {t("teams.join.newTeam")}
            </label>
            <input
              name="newTeam"
              className="input"
              aria-labelledby="team-new-label"
              maxLength={TEAM_NAME_MAX_LENGTH}
              defaultValue={values?.newTeam}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "newTeam-error" : undefined}
              onInput={(event) => {
                // Typing a name chooses the new team.
                if (event.currentTarget.value.trim()) (document.getElementById("team-new") as HTMLInputElement).checked = true;
                onChange();
              }}
            />
            <FieldError id="newTeam-error" message={error} error={errorCode} />
          </li>
        )}
      </ul>
    </fieldset>
  );
}
