/** A worker thread of import-pool.ts: one import job a message, answered with its result or its error. */
import { parentPort } from "node:worker_threads";
import { type ImportJob, runImportJob } from "./import-job.ts";

const port = parentPort;
if (!port) throw new Error("import-worker.ts runs as a worker thread (import-pool.ts starts it)");
port.on("message", (job: ImportJob) => {
  try {
    port.postMessage({ ok: true, result: runImportJob(job) });
  } catch (error) {
    const { message, stack } = error instanceof Error ? error : new Error(String(error));
    port.postMessage({ ok: false, message, stack });
  }
});
