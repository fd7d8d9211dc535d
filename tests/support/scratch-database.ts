import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/infra/config.js';

export type PostgresConfig = Extract<DatabaseConfig, { kind: 'postgres' }>;

/** A throwaway database on the PostgreSQL server named by DB_HOST (tests and the benchmark). */
export type ScratchDatabase = {
  name: string;
  config: PostgresConfig;
  /** The service's connection variables for this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
};

export const postgresServer = process.env.DB_HOST
  ? {
      host: process.env.DB_HOST,
      port: Number(process.env.DB_PORT || 5432),
      user: process.env.DB_USERNAME || 'postgres',
      password: process.env.DB_PASSWORD || undefined,
      maintenanceDatabase: process.env.DB_DATABASE || 'postgres',
    }
  : null;

/** Runs one statement on the maintenance database (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function adminStatement(statement: string): Promise<void> {
  if (!postgresServer) throw new Error('DB_HOST is not set');
  const { maintenanceDatabase, ...server } = postgresServer;
  const client = new pg.Client({ ...server, database: maintenanceDatabase });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Creates `<prefix>_<pid>_<random>`, optionally as a copy of a template database. */
export async function createScratchDatabase(prefix: string, template?: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (!postgresServer) throw new Error('DB_HOST is not set: a PostgreSQL server is needed');
  await adminStatement(`create database ${name}${template ? ` template ${template}` : ''}`);
  return scratchDatabaseNamed(name);
}

/** A database of the server that exists already (one a bench kept), as a scratch database: `drop` drops it. */
export function scratchDatabaseNamed(name: string): ScratchDatabase {
  if (!postgresServer) throw new Error('DB_HOST is not set: a PostgreSQL server is needed');
  const { host, port, user, password } = postgresServer;
  return {
    name,
    config: { kind: 'postgres', host, port, user, password, database: name, poolSize: 20 },
    env: { DB_HOST: host, DB_PORT: String(port), DB_USERNAME: user, DB_PASSWORD: password ?? '', DB_DATABASE: name },
    drop: () => adminStatement(`drop database if exists ${name} with (force)`),
  };
}
