import { describe, expect, it } from "vitest";
import { resultsCsv } from "#app/reports/results-csv";

const row = (nickname: string, rank = 1) => ({ rank, nickname, score: 1200, correctCount: 2, answeredCount: 2 });

describe("the results CSV", () => {
  it("starts with a UTF-8 byte-order mark, so Excel reads accented names as written", () => {
    const csv = resultsCsv([row("Zoë"), row("Łukasz", 2)]);
    expect(csv.startsWith("\uFEFFRank,Nickname,Score,Correct answers,Answered\n")).toBe(true);
    expect([...Buffer.from(csv, "utf8").subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv).toContain("1,Zoë,1200,2,2\n");
  });

  it.each(["=1+2", "@SUM(1+1)", "+1", "-2+3", '=HYPERLINK("http://evil.example","x")'])("never lets %j become a formula", (nickname) => {
    const csv = resultsCsv([row(nickname)]);
    const line = csv.split("\n")[1];
    const cell = line.split(",")[1].replace(/^"/, "");
    expect(cell.startsWith("'")).toBe(true);
  });

  it("leaves ordinary names and the numbers alone", () => {
    expect(
      resultsCsv([row("Ann"), { rank: 2, nickname: "Player 455", score: 0, correctCount: 0, answeredCount: 1 }])
        .split("\n")
        .slice(1, 3),
    ).toEqual(["1,Ann,1200,2,2", "2,Player 455,0,0,1"]);
  });

  it("writes the header the host's page gives it, in the page's language", () => {
    const csv = resultsCsv([row("Zoë")], ["Platz", "Spitzname", "Punkte", "Richtige Antworten", "Beantwortet"]);
    expect(csv).toBe("\uFEFFPlatz,Spitzname,Punkte,Richtige Antworten,Beantwortet\n1,Zoë,1200,2,2\n");
  });
});

describe("the results CSV of a team game", () => {
  const teamRow = (nickname: string, team: string | null, rank = 1) => ({ ...row(nickname, rank), team });

  it("names each player's team after the nickname, in the header the page gives", () => {
    const csv = resultsCsv([teamRow("Zoë", "Owls"), teamRow("Ann", null, 2)], ["Platz", "Spitzname", "Punkte", "Richtige Antworten", "Beantwortet"], "Team");
    expect(csv).toBe("\uFEFFPlatz,Spitzname,Team,Punkte,Richtige Antworten,Beantwortet\n1,Zoë,Owls,1200,2,2\n2,Ann,,1200,2,2\n");
  });

  it.each(["=1+2", "@SUM(1+1)", "+1", "-2+3"])("never lets the team name %j become a formula", (team) => {
    const line = resultsCsv([teamRow("Ann", team)], undefined, "Team").split("\n")[1];
    expect(line.split(",")[2].replace(/^"/, "").startsWith("'")).toBe(true);
  });

  it("has no team column without one", () => {
    expect(resultsCsv([teamRow("Ann", "Owls")]).split("\n")[0]).toBe("\uFEFFRank,Nickname,Score,Correct answers,Answered");
  });
});
