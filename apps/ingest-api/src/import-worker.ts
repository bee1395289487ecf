/** A worker thread of import-pool.ts: one import job a message, answered with its result or its error. */
import { parentPort } from "node:worker_threads";
import { type ImportJob, runImportJob } from "./import-job.ts";
import { toReply } from "./import-reply.ts";

const port = parentPort;
if (!port) throw new Error("import-worker.ts runs as a worker thread (import-pool.ts starts it)");
port.on("message", (job: ImportJob) => {
  try {
    const reply = toReply(runImportJob(job));
    port.postMessage({ ok: true, ...reply }, reply.parts);
  } catch (error) {
    const { message, stack } = error instanceof Error ? error : new Error(String(error));
    port.postMessage({ ok: false, message, stack });
  }
});
