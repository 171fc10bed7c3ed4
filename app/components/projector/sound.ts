/**
 * The room's sounds, made by the browser (Web Audio) rather than recorded: a tick for each second
 * of a running question (higher and louder in the last five), a sting when the answer is revealed,
 * and a fanfare for the podium. Each cue is a short score of notes (`cueNotes`, pure and tested);
 * `playCue` schedules it on an AudioContext. Only the screen the room watches plays them: never
 * a player's phone (docs/product.md, "Projector mode").
 */
export type Cue = "tick" | "finalTick" | "reveal" | "fanfare";

export interface Note {
  /** Hz. */
  frequency: number;
  /** Seconds after the cue starts. */
  start: number;
  /** Seconds, attack to silence. */
  duration: number;
  wave: OscillatorType;
  /** Peak gain, 0 to 1, before the master volume. */
  gain: number;
}

/** The last seconds of a question tick higher: the room hears time running out without looking. */
export const FINAL_SECONDS = 5;

const C5 = 523.25;
const E5 = 659.25;
const G5 = 783.99;
const C6 = 1046.5;
const G4 = 392.0;
const A5 = 880.0;

export function cueNotes(cue: Cue): Note[] {
  switch (cue) {
    case "tick":
      return [{ frequency: A5, start: 0, duration: 0.06, wave: "sine", gain: 0.25 }];
    case "finalTick":
      return [
        { frequency: C6, start: 0, duration: 0.08, wave: "triangle", gain: 0.45 },
        { frequency: C6 * 2, start: 0, duration: 0.05, wave: "sine", gain: 0.1 },
      ];
    case "reveal":
      return [C5, E5, G5, C6].map((frequency, i) => ({ frequency, start: i * 0.09, duration: i === 3 ? 0.5 : 0.14, wave: "triangle", gain: 0.4 }));
    case "fanfare":
      return [
        { frequency: G4, start: 0, duration: 0.18, wave: "sawtooth", gain: 0.18 },
        { frequency: C5, start: 0.2, duration: 0.18, wave: "sawtooth", gain: 0.18 },
        { frequency: E5, start: 0.4, duration: 0.18, wave: "sawtooth", gain: 0.18 },
        { frequency: G5, start: 0.6, duration: 0.4, wave: "sawtooth", gain: 0.2 },
        { frequency: E5, start: 1.05, duration: 0.16, wave: "sawtooth", gain: 0.18 },
        { frequency: G5, start: 1.25, duration: 0.9, wave: "sawtooth", gain: 0.22 },
        // A chord under the last note.
        { frequency: C5, start: 1.25, duration: 0.9, wave: "triangle", gain: 0.15 },
        { frequency: E5, start: 1.25, duration: 0.9, wave: "triangle", gain: 0.12 },
      ];
  }
}

/** Below full scale, so a cue never clips on a venue's amplifier. */
const MASTER_VOLUME = 0.5;
const ATTACK_S = 0.01;

/** Schedules a cue's notes from now; each note fades in and out so nothing clicks. */
export function playCue(context: AudioContext, cue: Cue): void {
  const master = context.createGain();
  master.gain.value = MASTER_VOLUME;
  master.connect(context.destination);
  const now = context.currentTime;
  for (const note of cueNotes(cue)) {
    const oscillator = context.createOscillator();
    oscillator.type = note.wave;
    oscillator.frequency.value = note.frequency;
    const envelope = context.createGain();
    const start = now + note.start;
    const end = start + note.duration;
    envelope.gain.setValueAtTime(0, start);
    envelope.gain.linearRampToValueAtTime(note.gain, start + ATTACK_S);
    envelope.gain.exponentialRampToValueAtTime(0.0001, end);
    oscillator.connect(envelope).connect(master);
    oscillator.start(start);
    oscillator.stop(end + 0.02);
  }
}

/** The cue for a second of a running question: none once time is up. */
export function countdownCue(secondsLeft: number): Cue | null {
  if (secondsLeft <= 0) return null;
  return secondsLeft <= FINAL_SECONDS ? "finalTick" : "tick";
}
