import fs from 'node:fs';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { DatabaseConfig } from '../config.js';
import type { DB } from './schema.js';

export type Database = Kysely<DB>;
/** Anything queries can run on: the pool or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

const INT8 = 20;
// Positions and revisions stay far below 2^53; numbers are what the code compares.
pg.types.setTypeParser(INT8, (value) => Number(value));

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
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => undefined);
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  return createEmbeddedDatabase(config.dataDir);
}

/** PGlite is one connection; the dialect serialises queries and transactions on it. */
export function createEmbeddedDatabase(dataDir?: string): Database {
  const client = new PGlite({
    dataDir,
    extensions: { btree_gist },
    parsers: { [INT8]: (value: string) => Number(value) },
  });
  return new Kysely<DB>({ dialect: new PGliteDialect(client) });
}

export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
