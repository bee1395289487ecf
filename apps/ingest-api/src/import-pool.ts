/**
 * Worker threads for POST /v1/import's parsing (import-job.ts), so that unpacking and parsing an
 * archive of thousands of files does not block the event loop: /healthz, /readyz and other uploads
 * are answered meanwhile.
 *
 * Written by hand rather than with piscina: the pool needs only a queue, a few long-lived workers, a
 * replacement when one dies and a drain on close (below), and a dependency of its own would still not
 * load the TypeScript worker (import-worker.mjs does that).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ImportJob, ImportJobResult } from "./import-job.ts";
import { fromReply, type ResultReply } from "./import-reply.ts";

type Task = { job: ImportJob; resolve: (result: ImportJobResult) => void; reject: (error: Error) => void };
type Reply = ({ ok: true } & ResultReply) | { ok: false; message: string; stack?: string };

const workerUrl = new URL("./import-worker.mjs", import.meta.url);

/** One core stays with the event loop; imports queue for the others (at least one, at most four). */
const defaultImportWorkers = Math.max(1, Math.min(4, availableParallelism() - 1));

export class ImportPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Task[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private workers = 0;
  private closed = false;

  constructor(private readonly size = defaultImportWorkers) {}

  /** Runs the job in a worker; the job's bytes are moved there, not copied (unusable here after). */
  run(job: ImportJob): Promise<ImportJobResult> {
    if (this.closed) return Promise.reject(new Error("the import pool is closed"));
    const done = new Promise<ImportJobResult>((resolve, reject) => this.queue.push({ job, resolve, reject }));
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    this.dispatch();
    return done;
  }

  /** Lets queued and running jobs finish, then ends every worker. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0) await Promise.all(this.running);
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.workers < this.size ? this.spawn() : undefined);
      if (!worker) return;
      this.start(worker, this.queue.shift()!);
    }
  }

  private spawn(): Worker {
    this.workers += 1;
    const worker = new Worker(workerUrl);
    // An idle worker must not keep the process alive; close() ends the workers of a closing server.
    worker.unref();
    // Whenever it ends (and after an error, which the job's own listener reports), its place is free.
    worker.on("error", () => {});
    worker.once("exit", () => {
      this.workers -= 1;
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.dispatch();
    });
    return worker;
  }

  private start(worker: Worker, task: Task): void {
    const finish = (error?: Error, reply?: Reply) => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (reply?.ok) fromReply(reply).then(task.resolve, task.reject);
      else if (reply) task.reject(Object.assign(new Error(reply.message), { stack: reply.stack }));
      else task.reject(error!);
      // A worker that failed outside a job's try, or died, is ended; a fresh one takes its place.
      if (error) void worker.terminate();
      else {
        this.idle.push(worker);
        this.dispatch();
      }
    };
    const onMessage = (reply: Reply) => finish(undefined, reply);
    const onError = (error: Error) => finish(error);
    const onExit = (code: number) => finish(new Error(`the import worker exited with code ${code}`));
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(task.job, [task.job.bytes.buffer as ArrayBuffer]);
  }
}
