import { parentPort, workerData } from 'node:worker_threads';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from '../db/schema.js';
import { verifyHashChains } from './verify-hash-chains.js';
import type { VerifyWorkerData, VerifyWorkerMessage } from './verify-hash-chains-in-parallel.js';

/**
 * One range of streams of verifyHashChainsInParallel, on a connection of its own. Only the driver
 * and the verification are loaded here (not the service's database module and its embedded
 * engine): each worker's memory counts against verify-log's bound.
 */
const { config, streams, total } = workerData as VerifyWorkerData;
const post = (message: VerifyWorkerMessage) => parentPort!.postMessage(message);
const pool = new pg.Pool({ host: config.host, port: config.port, user: config.user, password: config.password, database: config.database, max: 2 });
const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
try {
  post({ done: await verifyHashChains(db, (checked) => post({ checked }), { streams, total }) });
} catch (error) {
  post({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await db.destroy();
}
