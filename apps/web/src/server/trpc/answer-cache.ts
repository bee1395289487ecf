import { type Db, scenariosRevision } from "@cnibench/db";
import { LRUCache } from "lru-cache";

/**
 * Answers kept per database while the scenarios the visitor may read do not change: each is kept
 * with the revision of the readable workspaces it was answered at (scenariosRevision, moved by the
 * triggers on every upload, deletion and rename), so a kept answer is never older than the data
 * behind it. The same views are asked again and again between uploads (a shared permalink, a
 * dashboard's embed, the guide's popular answers); answering them again cost 30–100 ms of queries and
 * analysis at 1M measurements.
 * lru-cache bounds the memory: at most `maxAnswers`, and any one for at most 10 minutes.
 * Procedures ask for it with trpc.ts's `keptUntilChange` middleware, keyed by their path and input.
 */
const maxAnswers = 64;
// Keyed by the question alone, with the revision it was answered at beside it: an answer the data
// moved past is replaced by the next one to its question, not kept beside it until 64 others push it
// out (after a run of uploads the cache held that many dead answers, up to 0.8 MB of JSON each).
type Kept = { revision: string; answer: object };
const caches = new WeakMap<Db, LRUCache<string, Kept>>();

export async function keptAnswer<T extends object>(
  db: Db,
  workspaceIds: readonly string[],
  question: { name: string; input: unknown },
  answer: () => Promise<T>,
): Promise<T> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache({ max: maxAnswers, ttl: 10 * 60_000 });
    caches.set(db, cache);
  }
  const readable = [...workspaceIds].sort();
  // The revision is read first: an answer computed after it is never older than the revision kept with it.
  const revision = await scenariosRevision(db, readable);
  const key = JSON.stringify([question.name, question.input, readable]);
  const found = cache.get(key);
  if (found?.revision === revision) return found.answer as T;
  // Every caller gets this one answer: none may change it (none does; pages and routes derive copies).
  // Freezing it deeply cost a first scenario answer 8-9 ms, copying it per call more than it saved.
  const fresh = await answer();
  cache.set(key, { revision, answer: fresh });
  return fresh;
}
