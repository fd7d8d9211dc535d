import fs from 'node:fs';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient, type Transaction } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { DatabaseConfig } from '../config.js';
import type { DB } from './schema.js';
import { preparedStatementName } from './prepared-statements.js';
import { serviceApplicationName } from './service-application-name.js';

export type Database = Kysely<DB>;
/** Anything queries can run on: the pool or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

const INT8 = 20;
// Positions and revisions stay far below 2^53; numbers are what the code compares.
pg.types.setTypeParser(INT8, (value) => Number(value));

const pools = new WeakMap<Database, pg.Pool>();

/** The pool as Kysely sees it: a statement compiled once goes by name, parsed once per connection. */
function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      const query = (text: string | pg.Submittable, values?: readonly unknown[]) => {
        if (typeof text !== 'string') return client.query(text);
        const name = preparedStatementName(text);
        return name ? client.query({ name, text, values: values && [...values] }) : client.query(text, values && [...values]);
      };
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

export function createDatabase(config: DatabaseConfig): Database {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({
      host: config.host,
      port: config.port,
      user: config.user,
      password: config.password,
      database: config.database,
      max: config.poolSize,
      connectionTimeoutMillis: 5_000,
      application_name: serviceApplicationName,
    });
    // A client losing its server must not crash the process, idle or checked out (pg-pool listens
    // only on idle ones): the query in flight or the next one reports the failure, and the pool
    // drops the broken client on release and opens a new one when asked.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
      // Queued before the client's first query. Every statement sent with parameters is planned for
      // their shape, not their values: left to choose, PostgreSQL planned the append and its
      // projections afresh on every create (named, prepared once per connection: preparingPool), a
      // third of its CPU per create. This holds for the statements built per request too (record
      // queries, utilization), which are planned once per call either way. A SET, not a startup
      // option: PgBouncer refuses `options` it does not track.
      client.query('set plan_cache_mode = force_generic_plan').catch(() => undefined);
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
    pools.set(db, pool);
    return db;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  return createEmbeddedDatabase(config.dataDir);
}

/**
 * PGlite is one connection; the dialect serialises queries and transactions on it. `loadDataDir`
 * starts from a dump (`dumpDataDir`) instead of creating a database, which takes seconds.
 */
export function createEmbeddedDatabase(dataDir?: string, loadDataDir?: Blob): Database {
  const client = new PGlite({
    dataDir,
    loadDataDir,
    extensions: { btree_gist },
    parsers: { [INT8]: (value: string) => Number(value) },
  });
  return new Kysely<DB>({ dialect: new PGliteDialect(client) });
}

/**
 * Waits until no connection has been in use for `quietMs` (at most `timeoutMs`): a request whose
 * client went away keeps running after the HTTP server has closed, and must not find the
 * database gone between two of its queries. Answers at once on the embedded engine.
 */
export async function waitUntilIdle(db: Database, { quietMs = 100, timeoutMs = 10_000 } = {}): Promise<void> {
  const pool = pools.get(db);
  if (!pool) return;
  const deadline = Date.now() + timeoutMs;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const busy = pool.totalCount > pool.idleCount || pool.waitingCount > 0;
    if (busy) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The pg pool behind a server database (for its use figures); undefined on the embedded engine. */
export function poolOf(db: Database): pg.Pool | undefined {
  return pools.get(db);
}

export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
