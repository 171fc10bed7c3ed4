/** A connection double that keeps every message it is sent, parsed, and every close code. */
import { DeliverySlot, type Connection } from "#server/game-room";

export type RecordingConnection = Connection & { received: { type: string; payload: any }[]; closedWith: number[] };

export function recordingConnection(clientId: string): RecordingConnection {
  const received: { type: string; payload: any }[] = [];
  const closedWith: number[] = [];
  return {
    clientId,
    slot: new DeliverySlot(),
    received,
    closedWith,
    send: (...messages) => void received.push(...messages.map((data) => JSON.parse(data.toString()))),
    close: (code) => void closedWith.push(code),
  };
}
