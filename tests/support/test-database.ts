import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { PostgresConfig } from './scratch-database.js';
import { createScratchDatabase, postgresServer } from './scratch-database.js';
import { createDatabase, createEmbeddedDatabase, type Database } from '../../src/infra/db/database.js';
import { migrateToLatest } from '../../src/infra/db/migrate.js';

export type TestDatabase = {
  db: Database;
  /** A real PostgreSQL server (many connections); false on the embedded PGlite (one connection). */
  isServer: boolean;
  /** Connection settings, for servers started by the test (null when embedded). */
  config: PostgresConfig | null;
  env: Record<string, string>;
  destroy(): Promise<void>;
};

let template: Promise<{ name: string; drop(): Promise<void> }> | undefined;

/** Migrates once per test run into a template; every test database is a cheap copy of it. */
function migratedTemplate() {
  template ??= (async () => {
    const scratch = await createScratchDatabase('booking_tpl');
    const db = createDatabase(scratch.config);
    await migrateToLatest(db);
    await db.destroy();
    return scratch;
  })();
  return template;
}

let embeddedTemplate: Promise<Blob> | undefined;

/**
 * The embedded counterpart: a migrated PGlite dumped once per run. Creating a PGlite database
 * (initdb) and migrating it cost several times more than loading that dump, for every suite.
 */
function migratedEmbeddedDump(): Promise<Blob> {
  embeddedTemplate ??= (async () => {
    const client = new PGlite({ extensions: { btree_gist } });
    const db = new Kysely<unknown>({ dialect: new PGliteDialect(client) });
    await migrateToLatest(db as Database);
    const dump = await client.dumpDataDir('none');
    await db.destroy();
    return dump;
  })();
  return embeddedTemplate;
}

/** A fresh, migrated database: a new one on the PostgreSQL server when DB_HOST is set, else in-memory PGlite. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!postgresServer) {
    const db = createEmbeddedDatabase(undefined, await migratedEmbeddedDump());
    return { db, isServer: false, config: null, env: {}, destroy: () => db.destroy() };
  }
  const scratch = await createScratchDatabase('booking_test', (await migratedTemplate()).name);
  const db = createDatabase(scratch.config);
  return {
    db,
    isServer: true,
    config: scratch.config,
    env: scratch.env,
    async destroy() {
      await db.destroy();
      await scratch.drop();
    },
  };
}

/** A new database that no migration has run on (tests of a migration): on the server when DB_HOST is set, else in-memory PGlite. */
export async function createUnmigratedDatabase(): Promise<{ db: Database; destroy(): Promise<void> }> {
  if (!postgresServer) {
    const db = createEmbeddedDatabase();
    return { db, destroy: () => db.destroy() };
  }
  const scratch = await createScratchDatabase('booking_mig');
  const db = createDatabase(scratch.config);
  return {
    db,
    async destroy() {
      await db.destroy();
      await scratch.drop();
    },
  };
}

/** Drops the template at the end of the run (mocha root hook). */
export async function dropTemplateDatabase(): Promise<void> {
  if (template) await (await template).drop();
}

/** Makes the migrated template (or dump) ahead of the first suite (mocha root hook). */
export async function prepareTestDatabases(): Promise<void> {
  if (postgresServer) await migratedTemplate();
  else await migratedEmbeddedDump();
}
