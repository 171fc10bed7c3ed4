/**
 * A worker thread's script: runs each job it is sent, one at a time, and posts its result back to
 * the thread that started it. Started by server/heavy-work.ts with memory limits; built as its own
 * entry (build/node/heavy-worker.js, scripts/build-server.ts).
 */
import { parentPort } from "node:worker_threads";
import { runHeavyJob, type HeavyJob } from "#app/utils/heavy-jobs.server";

parentPort!.on("message", ({ job }: { job: HeavyJob }) => {
  // A job that throws fails this worker (its "error" event), which is then never used again.
  void runHeavyJob(job).then(({ result, transfer }) => parentPort!.postMessage(result, transfer));
});
