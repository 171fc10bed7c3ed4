/**
 * The pure parts of the team screens (docs/decisions/0033-team-scoring.md): the join form's team
 * field as the page's script reads it, the host's "Add tables 1 to N", and teams as standing rows.
 */
import { describe, expect, it } from "vitest";
import { asStandingRows } from "#app/components/team-standings";
import { newTableNames } from "#app/components/team-setup";
import { TeamNameSchema } from "#app/schemas/validation";
import { chosenTeam, isPickedTeam, missingNewTeam, TEAM_LATER, TEAM_NAME_REQUIRED_MESSAGE, TEAM_NEW, teamChoiceValue } from "#app/teams/team-choice";

describe("the join form's team field", () => {
  it("names a picked team by its radio's value, whatever its name looks like", () => {
    for (const name of ["Table 4", "new", "later", "team:x"]) {
      expect(isPickedTeam(teamChoiceValue(name))).toBe(true);
      expect(chosenTeam(teamChoiceValue(name), "")).toBe(name);
    }
    expect(isPickedTeam(TEAM_NEW)).toBe(false);
    expect(isPickedTeam(TEAM_LATER)).toBe(false);
  });

  it.each([
    [TEAM_LATER, "", undefined],
    [TEAM_LATER, "Owls", "Owls"],
    [TEAM_NEW, "  The  Owls ", "The Owls"],
    [TEAM_NEW, "   ", undefined],
    [null, null, undefined],
    [teamChoiceValue("Table 1"), "Owls", "Table 1"],
  ])("reads %j with %j as %j", (choice, newTeam, team) => {
    expect(chosenTeam(choice, newTeam)).toBe(team);
  });

  it("asks for a name only when New team was ticked without one", () => {
    expect(missingNewTeam(TEAM_NEW, " ")).toBe(true);
    expect(missingNewTeam(TEAM_NEW, "Owls")).toBe(false);
    expect(missingNewTeam(TEAM_LATER, "")).toBe(false);
    expect(missingNewTeam(teamChoiceValue("Table 1"), "")).toBe(false);
  });

  it("says what the server says of a new team without a name", () => {
    expect(TeamNameSchema.safeParse(" ").error?.issues[0].message).toBe(TEAM_NAME_REQUIRED_MESSAGE);
  });
});

describe("Add tables 1 to N", () => {
  const table = (number: number) => `Table ${number}`;

  it("names the tables in order", () => {
    expect(newTableNames(3, [], 50, table)).toEqual(["Table 1", "Table 2", "Table 3"]);
  });

  it("skips the tables that are teams already, in any case", () => {
    expect(newTableNames(4, ["table 2", "Owls", " Table 4 "], 50, table)).toEqual(["Table 1", "Table 3"]);
  });

  it("stops where the game has no room for more teams", () => {
    expect(newTableNames(10, ["Table 1"], 3, table)).toEqual(["Table 2", "Table 3", "Table 4"]);
    expect(newTableNames(10, [], 0, table)).toEqual([]);
  });
});

describe("teams as standing rows", () => {
  it("keeps rank, id and score and names each row by its team", () => {
    expect(asStandingRows([{ rank: 1, id: 7, name: "Owls", score: 1450 }])).toEqual([{ rank: 1, id: 7, nickname: "Owls", score: 1450 }]);
  });
});
