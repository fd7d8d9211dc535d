import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../src/infra/config.js';

export type BenchDatabase = {
  config: Extract<DatabaseConfig, { kind: 'postgres' }>;
  /** The service's connection variables for this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
};

/** A fresh database on the PostgreSQL server of DB_HOST; dropped again at the end. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const host = process.env.DB_HOST;
  if (!host) throw new Error('npm run bench needs a PostgreSQL server: set DB_HOST (and DB_PORT, DB_USERNAME, DB_PASSWORD)');
  const server = {
    host,
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || 'postgres',
    password: process.env.DB_PASSWORD || undefined,
  };
  const maintenance = process.env.DB_DATABASE || 'postgres';
  const name = `booking_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ ...server, database: maintenance });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  return {
    config: { kind: 'postgres', ...server, database: name, poolSize: 20 },
    env: { DB_HOST: server.host, DB_PORT: String(server.port), DB_USERNAME: server.user, DB_PASSWORD: server.password ?? '', DB_DATABASE: name },
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
