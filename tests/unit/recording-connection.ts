/** A connection double that keeps every message it is sent, parsed. */
import { DeliverySlot, type Connection } from "#server/game-room";

export type RecordingConnection = Connection & { received: { type: string; payload: any }[] };

export function recordingConnection(clientId: string): RecordingConnection {
  const received: { type: string; payload: any }[] = [];
  return {
    clientId,
    slot: new DeliverySlot(),
    received,
    send: (...messages) => received.push(...messages.map((data) => JSON.parse(data.toString()))),
    close: () => {},
  };
}
