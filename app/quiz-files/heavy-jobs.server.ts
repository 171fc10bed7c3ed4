/**
 * The jobs a worker thread runs for a request (server/heavy-work.ts, server/heavy-worker.ts): each
 * takes plain data and gives plain data back, so it crosses between threads by structured clone,
 * its large byte arrays moved rather than copied.
 */
import { readImportSource, type ImportSource, type ReadImportResult } from "#app/quiz-files/import-reading.server";
import type { SpreadsheetLimits } from "#app/limits/heavy-limits";

export type HeavyJob = { kind: "read-import"; source: ImportSource; limits: SpreadsheetLimits };

export interface HeavyJobResults {
  "read-import": ReadImportResult;
}

export type HeavyJobResult<J extends HeavyJob> = HeavyJobResults[J["kind"]];

/** A byte array's memory, when it is the array's alone and can be moved to another thread (not a slice of Node's shared pool). */
export function movableBuffer(bytes: Uint8Array | null | undefined): ArrayBuffer[] {
  if (!bytes || !(bytes.buffer instanceof ArrayBuffer)) return [];
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer] : [];
}

/** Runs one job; what to move back with its result. */
export async function runHeavyJob(job: HeavyJob): Promise<{ result: HeavyJobResults[HeavyJob["kind"]]; transfer: ArrayBuffer[] }> {
  switch (job.kind) {
    case "read-import": {
      const result = await readImportSource(job.source, job.limits);
      const transfer = result.status === "ok" ? [...new Set(result.value.pictures.flatMap((picture) => movableBuffer(picture)))] : [];
      return { result, transfer };
    }
  }
}

/** What a job moves to its worker: the source's bytes. */
export function jobTransfer(job: HeavyJob): ArrayBuffer[] {
  switch (job.kind) {
    case "read-import": {
      const chunks = "quizFile" in job.source ? job.source.quizFile : [job.source.spreadsheet.bytes];
      return [...new Set(chunks.flatMap((chunk) => movableBuffer(chunk)))];
    }
  }
}
