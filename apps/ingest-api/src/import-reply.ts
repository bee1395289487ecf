/**
 * How an import worker's result crosses to the event loop (import-worker.ts → import-pool.ts). The
 * result of a 5,000-file import as one message took ~90 ms to deserialise on the event loop (every
 * read bundle, its measurements and its file's report), all at once: Node also delivers the messages
 * already queued on a port without yielding in between, so several messages would not help. Its files
 * and bundles travel instead as serialised parts, moved rather than copied, which the event loop reads
 * back one part per turn (~6 ms each), answering other requests and timers in between.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { deserialize, serialize } from "node:v8";
import type { FileReport } from "@cnibench/importers";
import type { ImportJobResult } from "./import-job.ts";

export type ResultReply = {
  /** The result, its files and bundles left out (they are in `parts`, in order). */
  result: ImportJobResult;
  parts: ArrayBuffer[];
};

type ReadyBundle = Extract<ImportJobResult, { kind: "ready" }>["bundles"][number];
type Part = { files: FileReport[]; bundles: ReadyBundle[] };

/** Files and bundles per part. */
const partSize = 250;

/** In the worker: the reply to post, and the parts to move with it (its transfer list). */
export function toReply(result: ImportJobResult): ResultReply {
  if (result.kind === "limit") return { result, parts: [] };
  const { files } = result;
  const bundles = result.kind === "ready" ? result.bundles : [];
  const parts: ArrayBuffer[] = [];
  for (let at = 0; at < Math.max(files.length, bundles.length); at += partSize) {
    const part: Part = { files: files.slice(at, at + partSize), bundles: bundles.slice(at, at + partSize) };
    // v8.serialize's Buffer has an ArrayBuffer of its own, so it can be moved.
    parts.push(serialize(part).buffer as ArrayBuffer);
  }
  const rest = result.kind === "ready" ? { ...result, files: [], bundles: [] } : { ...result, files: [] };
  return { result: rest, parts };
}

/** On the event loop: the whole result again, one part per turn. */
export async function fromReply({ result, parts }: ResultReply): Promise<ImportJobResult> {
  for (const bytes of parts) {
    await nextTurn();
    const part = deserialize(new Uint8Array(bytes)) as Part;
    if (result.kind !== "limit") result.files.push(...part.files);
    if (result.kind === "ready") result.bundles.push(...part.bundles);
  }
  // The caller stores what the last part held: in a turn of its own, not on top of that part's.
  await nextTurn();
  return result;
}
