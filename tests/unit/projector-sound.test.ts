import { describe, expect, it } from "vitest";
import { countdownCue, cueNotes, FINAL_SECONDS, type Cue } from "#app/components/projector/sound";

const CUES: Cue[] = ["tick", "finalTick", "reveal", "fanfare"];

describe("the projector's sounds", () => {
  it("tick each second of a running question, higher in the last five, and stop at zero", () => {
    expect(countdownCue(20)).toBe("tick");
    expect(countdownCue(FINAL_SECONDS + 1)).toBe("tick");
    expect(countdownCue(FINAL_SECONDS)).toBe("finalTick");
    expect(countdownCue(1)).toBe("finalTick");
    expect(countdownCue(0)).toBeNull();
    expect(countdownCue(-3)).toBeNull();
    expect(Math.min(...cueNotes("finalTick").map((note) => note.frequency))).toBeGreaterThan(Math.max(...cueNotes("tick").map((note) => note.frequency)));
  });

  it("are short, audible and below full scale", () => {
    for (const cue of CUES) {
      const notes = cueNotes(cue);
      expect(notes.length).toBeGreaterThan(0);
      for (const note of notes) {
        expect(note.frequency).toBeGreaterThanOrEqual(100);
        expect(note.frequency).toBeLessThanOrEqual(4000);
        expect(note.gain).toBeGreaterThan(0);
        expect(note.gain).toBeLessThanOrEqual(1);
        expect(note.duration).toBeGreaterThan(0);
        expect(note.start).toBeGreaterThanOrEqual(0);
      }
      const length = Math.max(...notes.map((note) => note.start + note.duration));
      // A tick must be over well before the next second's.
      expect(length).toBeLessThanOrEqual(cue === "tick" || cue === "finalTick" ? 0.2 : 2.5);
    }
  });

  it("reveal with a rising arpeggio", () => {
    const frequencies = cueNotes("reveal").map((note) => note.frequency);
    expect(frequencies).toHaveLength(4);
    expect([...frequencies].sort((a, b) => a - b)).toEqual(frequencies);
  });
});
