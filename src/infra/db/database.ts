import fs from 'node:fs';
import { Kysely, PostgresDialect, sql, type PostgresPoolClient, type Transaction } from 'kysely';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { DatabaseConfig } from '../config.js';
import type { DB } from './schema.js';
import { preparedStatementName } from './prepared-statements.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { serviceApplicationName } from './service-application-name.js';

export type Database = Kysely<DB>;
/** Anything queries can run on: the pool or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

const INT8 = 20;
// Positions and revisions stay far below 2^53; numbers are what the code compares.
pg.types.setTypeParser(INT8, (value) => Number(value));

// Not a cache through boundedCache: each pool lives exactly as long as its Database, which the
// WeakMap's key bounds; nothing could be evicted without losing the pool.
const pools = new WeakMap<Database, pg.Pool>();

type PostgresConfig = Extract<DatabaseConfig, { kind: 'postgres' }>;

/** A client of `pool` whose statements compiled once go by name, parsed once per connection. */
async function preparingClient(pool: pg.Pool): Promise<PostgresPoolClient & { release(broken?: boolean): void }> {
  const client = await pool.connect();
  const query = (text: string | pg.Submittable, values?: readonly unknown[]) => {
    if (typeof text !== 'string') return client.query(text);
    const name = preparedStatementName(text);
    return name ? client.query({ name, text, values: values && [...values] }) : client.query(text, values && [...values]);
  };
  // A client whose connection broke is destroyed on release rather than handed out again.
  return { query: query as unknown as PostgresPoolClient['query'], release: (broken?: boolean) => client.release(broken) };
}

function createPool(config: PostgresConfig, server: { host: string; port: number }, connectionTimeoutMillis: number): pg.Pool {
  const pool = new pg.Pool({
    host: server.host,
    port: server.port,
    user: config.user,
    password: config.password,
    database: config.database,
    max: config.poolSize,
    connectionTimeoutMillis,
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
    // projections afresh on every create (named, prepared once per connection: preparingClient), a
    // third of its CPU per create. This holds for the statements built per request too (record
    // queries, utilization), which are planned once per call either way. A SET, not a startup
    // option: PgBouncer refuses `options` it does not track.
    client.query('set plan_cache_mode = force_generic_plan').catch(() => undefined);
  });
  return pool;
}

function kyselyOver(pool: pg.Pool, connect: () => Promise<PostgresPoolClient>): Database {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: { connect, end: () => pool.end() } }) });
  pools.set(db, pool);
  return db;
}

export function createDatabase(config: DatabaseConfig): Database {
  if (config.kind === 'postgres') {
    const pool = createPool(config, config, 5_000);
    return kyselyOver(pool, () => preparingClient(pool));
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  return createEmbeddedDatabase(config.dataDir);
}

/**
 * The streaming replica of `config.replica` (contract §19), on a pool of its own. A read that cannot
 * reach it is served by `primary` instead, and `onUnreachable` is told, so that the next reads go
 * to the primary until the replica answers again: a connection refused, or a statement outside a
 * transaction whose connection broke (run again on the primary: a read has nothing to undo).
 */
export function createReplicaDatabase(config: PostgresConfig & { replica: NonNullable<PostgresConfig['replica']> }, primary: Database, onUnreachable: (error: unknown) => void): Database {
  const pool = createPool(config, config.replica, 1_000);
  const primaryPool = pools.get(primary);
  if (!primaryPool) throw new Error('a replica needs a PostgreSQL server as its primary');
  return kyselyOver(pool, async () => {
    let client: Awaited<ReturnType<typeof preparingClient>>;
    try {
      client = await preparingClient(pool);
    } catch (error) {
      onUnreachable(error);
      return preparingClient(primaryPool);
    }
    let inTransaction = false;
    let broken = false;
    const query = async (text: string, values: readonly unknown[] = []) => {
      if (/^\s*(begin|start transaction)/i.test(text)) inTransaction = true;
      if (/^\s*(commit|rollback)/i.test(text)) inTransaction = false;
      try {
        return await client.query(text, values);
      } catch (error) {
        if (inTransaction || !isDatabaseUnavailable(error)) throw error;
        broken = true;
        onUnreachable(error);
        const fallback = await preparingClient(primaryPool);
        try {
          return await fallback.query(text, values);
        } finally {
          fallback.release();
        }
      }
    };
    return { query: query as PostgresPoolClient['query'], release: () => client.release(broken) };
  });
}

/**
 * PGlite is one connection; the dialect serialises queries and transactions on it. `loadDataDir`
 * starts from a dump (`dumpDataDir`) instead of creating a database, which takes seconds.
 */
export function createEmbeddedDatabase(dataDir?: string, loadDataDir?: Blob): Database {
  // PGlite (its WebAssembly build) is loaded at the first query, not with this module: the tools on a
  // PostgreSQL server (verify-log, replay, the rebuild) would otherwise pay for it at every start.
  let client: Promise<PGlite> | undefined;
  const open = () =>
    (client ??= Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/btree_gist')]).then(
      ([{ PGlite }, { btree_gist }]) => new PGlite({ dataDir, loadDataDir, extensions: { btree_gist }, parsers: { [INT8]: (value: string) => Number(value) } }),
    ));
  // The dialect's driver calls nothing else of its client.
  const lazy: Pick<PGlite, 'query' | 'close'> = {
    query: async (query, params, options) => (await open()).query(query, params, options),
    close: async () => (client ? (await client).close() : undefined),
  };
  return new Kysely<DB>({ dialect: new PGliteDialect(lazy as PGlite) });
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
