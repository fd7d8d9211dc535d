import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/infra/config.js';
import { createDatabase, createEmbeddedDatabase, type Database } from '../../src/infra/db/database.js';
import { migrateToLatest } from '../../src/infra/db/migrate.js';

export type TestDatabase = {
  db: Database;
  /** A real PostgreSQL server (many connections); false on the embedded PGlite (one connection). */
  isServer: boolean;
  /** Connection settings of a fresh database, for servers started by the test (null when embedded). */
  config: Extract<DatabaseConfig, { kind: 'postgres' }> | null;
  env: Record<string, string>;
  destroy(): Promise<void>;
};

const server = process.env.DB_HOST
  ? {
      host: process.env.DB_HOST,
      port: Number(process.env.DB_PORT || 5432),
      user: process.env.DB_USERNAME || 'postgres',
      password: process.env.DB_PASSWORD || undefined,
      maintenanceDatabase: process.env.DB_DATABASE || 'postgres',
    }
  : null;

let template: Promise<string> | undefined;

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  if (!server) throw new Error('no DB_HOST');
  const client = new pg.Client({ ...server, database: server.maintenanceDatabase });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function configFor(database: string): Extract<DatabaseConfig, { kind: 'postgres' }> {
  if (!server) throw new Error('no DB_HOST');
  return { kind: 'postgres', host: server.host, port: server.port, user: server.user, password: server.password, database, poolSize: 20 };
}

/** Migrates once per test run into a template; every test database is a cheap copy of it. */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const name = `booking_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin((c) => c.query(`create database ${name}`));
    const db = createDatabase(configFor(name));
    await migrateToLatest(db);
    await db.destroy();
    return name;
  })();
  return template;
}

/** A fresh, migrated database: a new one on the PostgreSQL server when DB_HOST is set, else in-memory PGlite. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!server) {
    const db = createEmbeddedDatabase();
    await migrateToLatest(db);
    return { db, isServer: false, config: null, env: {}, destroy: () => db.destroy() };
  }
  const source = await migratedTemplate();
  const name = `booking_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`create database ${name} template ${source}`));
  const config = configFor(name);
  const db = createDatabase(config);
  return {
    db,
    isServer: true,
    config,
    env: {
      DB_HOST: config.host,
      DB_PORT: String(config.port),
      DB_USERNAME: config.user ?? '',
      DB_PASSWORD: config.password ?? '',
      DB_DATABASE: name,
    },
    async destroy() {
      await db.destroy();
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** Drops the template at the end of the run (mocha root hook). */
export async function dropTemplateDatabase(): Promise<void> {
  if (!template) return;
  const name = await template;
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
}
