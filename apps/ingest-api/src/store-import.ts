import { type Db, type StoreBundleInput, type StoredBundle, storeBundle } from "@cnibench/db";
import { type BundleInput, type BundleIssue, type BundleWarning, contentHash, parseBundle } from "@cnibench/schema";

export type PreparedBundle = { input: StoreBundleInput; warnings: BundleWarning[] };

/**
 * A built bundle as POST /v1/bundles would receive it: serialised, validated, normalised and hashed
 * the same way (JSON text → parseBundle → contentHash of the parsed value), so importing a file and
 * uploading the bundle the CLI builds from it give the same content hash and the same stored bundle.
 */
export function prepareBundle(
  bundle: BundleInput,
  uploader: { workspaceId: string; tokenId: string | null },
): { ok: true; prepared: PreparedBundle } | { ok: false; issues: BundleIssue[] } {
  const raw = JSON.stringify(bundle);
  const value = JSON.parse(raw) as unknown;
  const parsed = parseBundle(value);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  return {
    ok: true,
    prepared: {
      input: {
        workspaceId: uploader.workspaceId,
        tokenId: uploader.tokenId,
        raw,
        contentHash: contentHash(value),
        bundle: parsed.bundle,
        warnings: parsed.warnings,
      },
      warnings: parsed.warnings,
    },
  };
}

/**
 * Stores every bundle of one import in one transaction: all of them or none. It reuses storeBundle
 * (idempotency by content hash, scenario upsert, one-statement measurement insert) by handing it the
 * transaction in the shape of a Db whose $transaction runs inside the open one.
 *
 * TODO(packages/db): a storeBundles(db, inputs) there would make this shim unnecessary; until then it
 * relies only on storeBundle's use of db.bundle.findUnique and db.$transaction.
 *
 * An identical import racing this one makes PostgreSQL abort our transaction on the unique key; the
 * whole import is then retried once, and the retry finds the winner's bundles (200, nothing written).
 */
export async function storeBundlesAtomically(db: Db, bundles: StoreBundleInput[]): Promise<StoredBundle[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(
        async (tx) => {
          const within = transactionAsDb(tx);
          const stored: StoredBundle[] = [];
          for (const input of bundles) stored.push(await storeBundle(within, input));
          return stored;
        },
        { timeout: 120_000, maxWait: 30_000 },
      );
    } catch (error) {
      if (attempt >= 2 || !isConflict(error)) throw error;
    }
  }
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

function transactionAsDb(tx: Tx): Db {
  const nested = async <T>(fn: (inner: Tx) => Promise<T>) => fn(tx);
  return new Proxy(tx, {
    get(target, key) {
      if (key === "$transaction") return nested;
      return Reflect.get(target, key, target);
    },
  }) as unknown as Db;
}

/** Unique-key violations, and the "transaction is aborted" error storeBundle's recovery then meets. */
function isConflict(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return (
    code === "P2002" ||
    code === "P2034" ||
    /unique constraint|duplicate key|transaction is aborted|could not serialize/i.test(message)
  );
}
