import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

// Plain CommonJS for an eval'd worker: no TypeScript loader is needed (or inherited) there.
const initdbSource = `
const { workerData } = require('node:worker_threads');
import(workerData.pglite).then(async ({ PGlite }) => {
  const db = new PGlite(workerData.dataDir);
  await db.waitReady;
  await db.close();
});
`;

/**
 * Creates the embedded database's data directory (PostgreSQL's initdb, several seconds of
 * WebAssembly) on a worker thread, so that the first start loads its code meanwhile. Resolves
 * false at once when the directory already holds a database.
 */
export function createEmbeddedDataDir(dataDir: string): Promise<boolean> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return Promise.resolve(false);
  fs.mkdirSync(dataDir, { recursive: true });
  const worker = new Worker(initdbSource, {
    eval: true,
    execArgv: [],
    workerData: { dataDir, pglite: import.meta.resolve('@electric-sql/pglite') },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve(true) : reject(new Error(`creating the embedded database in ${dataDir} failed (exit ${code})`))));
  });
}
