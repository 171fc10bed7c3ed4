/**
 * A worker thread's script: runs each job it is sent, one at a time, and posts its result back to
 * the thread that started it. Started by server/heavy-work.ts with memory limits; built as its own
 * entry (build/node/heavy-worker.js, scripts/build-server.ts).
 */
import os from "node:os";
import { parentPort } from "node:worker_threads";
import { runHeavyJob, type HeavyJob } from "#app/quiz-files/heavy-jobs.server";

// The game's thread comes first: on Linux a priority set for "process 0" is this thread's alone,
// so where cores are scarce the scheduler gives the event loop its turn before this worker's.
try {
  os.setPriority(0, 19);
} catch {
  // Not allowed here (some containers, other systems): the worker runs at the server's priority.
}

parentPort!.on("message", ({ job }: { job: HeavyJob }) => {
  // A job that throws fails this worker (its "error" event), which is then never used again.
  void runHeavyJob(job).then(({ result, transfer }) => parentPort!.postMessage(result, transfer));
});
