// The driver adapter Prisma's CLI uses for migrations (engine "js", see prisma.config.ts).
// @prisma/adapter-pg 6.19 has three snags when it drives the schema engine; each is mended here:
//  1. Catalogue columns of type `name` (OID 19) and `"char"` (OID 18) are rejected as unsupported
//     types. pg already returns them as strings, so the pool reports them as text (OID 25).
//  2. Its shadow database pool spreads `{...config, database}`, but pg lets a connectionString win
//     over `database`, so it would migrate the main database. We connect with explicit fields.
//  3. It drops the shadow database while connections may still be open; we drop WITH (FORCE).
// Pools allow exit on idle, so the CLI exits as soon as it is done instead of lingering 10 s.
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { parseIntoClientConfig } from "pg-connection-string";

const TEXT_OID = 25;
const CATALOGUE_STRING_OIDS = new Set([18, 19]);

class CatalogueFriendlyPool extends pg.Pool {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has many overloads; we only post-process results
  override query(...args: any[]): any {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    const result = (super.query as any)(...args);
    if (result && typeof result.then === "function") {
      return result.then((res: pg.QueryResult) => {
        for (const field of res?.fields ?? []) {
          if (CATALOGUE_STRING_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
        }
        return res;
      });
    }
    return result;
  }
}

/** Connection fields from a URL (as pg itself reads it), so that `database` can be overridden. */
export function connectionFields(url: string): pg.PoolConfig {
  const { connectionString: _ignored, ...fields } = parseIntoClientConfig(url);
  return fields as pg.PoolConfig;
}

async function adapterOn(config: pg.PoolConfig, onDispose?: () => Promise<void>): Promise<SqlDriverAdapter> {
  const pool = new CatalogueFriendlyPool({ ...config, allowExitOnIdle: true, idleTimeoutMillis: 100, max: 2 });
  const adapter = await new PrismaPg(pool).connect();
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    await pool.end();
    await onDispose?.();
  };
  return adapter;
}

export function migrationAdapterFactory(
  databaseUrl: string,
  shadowDatabaseUrl?: string,
): SqlMigrationAwareDriverAdapterFactory {
  if (!databaseUrl) throw new Error("DATABASE_URL is not set: the Prisma CLI needs it (npm start sets it for you).");
  const main = connectionFields(databaseUrl);
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: () => adapterOn(main),
    async connectToShadowDb() {
      if (shadowDatabaseUrl) return adapterOn(connectionFields(shadowDatabaseUrl));
      const database = `prisma_shadow_${crypto.randomUUID().replaceAll("-", "")}`;
      const admin = new pg.Client(main);
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${database}"`);
      } finally {
        await admin.end();
      }
      return adapterOn({ ...main, database }, async () => {
        const dropper = new pg.Client(main);
        await dropper.connect();
        try {
          await dropper.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        } finally {
          await dropper.end();
        }
      });
    },
  };
}
