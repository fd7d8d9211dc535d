import { parentPort, workerData } from 'node:worker_threads';
import { createDatabase } from '../db/database.js';
import { verifyHashChains } from './verify-hash-chains.js';
import type { VerifyWorkerData, VerifyWorkerMessage } from './verify-hash-chains-in-parallel.js';

/** One range of streams of verifyHashChainsInParallel, on its own connection. */
const { config, streams, total } = workerData as VerifyWorkerData;
const post = (message: VerifyWorkerMessage) => parentPort!.postMessage(message);
const db = createDatabase(config);
try {
  post({ done: await verifyHashChains(db, (checked) => post({ checked }), { streams, total }) });
} catch (error) {
  post({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await db.destroy();
}
