import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { embeddedTemplatePath } from './embedded-template-path.js';
import { unpackDataDir } from './unpack-data-dir.js';

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
 * Creates the embedded database's data directory, while the first start loads its code: unpacked
 * from the template of this checkout when `npm install` made it (embedded-template.ts: a migrated
 * database, about a second), else by PostgreSQL's initdb on a worker thread (several seconds of
 * WebAssembly, then every migration). Resolves to how it was made, or
 * false at once when the directory already holds a database.
 */
export function createEmbeddedDataDir(dataDir: string): Promise<'template' | 'initdb' | false> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return Promise.resolve(false);
  fs.mkdirSync(dataDir, { recursive: true });
  const template = embeddedTemplatePath();
  if (fs.existsSync(template)) return unpackDataDir(template, dataDir).then(() => 'template');
  const worker = new Worker(initdbSource, {
    eval: true,
    execArgv: [],
    workerData: { dataDir, pglite: import.meta.resolve('@electric-sql/pglite') },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve('initdb') : reject(new Error(`creating the embedded database in ${dataDir} failed (exit ${code})`))));
  });
}
