import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { embeddedTemplatePath } from './embedded-template-path.js';

// Plain CommonJS for an eval'd worker: no TypeScript loader is needed (or inherited) there.
const initdbSource = `
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
Promise.all([import(workerData.pglite), import(workerData.btreeGist)]).then(async ([{ PGlite }, { btree_gist }]) => {
  const loadDataDir = workerData.template ? new Blob([fs.readFileSync(workerData.template)]) : undefined;
  const db = new PGlite(workerData.dataDir, { loadDataDir, extensions: { btree_gist } });
  await db.waitReady;
  await db.close();
});
`;

/**
 * Creates the embedded database's data directory on a worker thread, so that the first start loads
 * its code meanwhile: from the template of this checkout when `npm install` made it
 * (embedded-template.ts: a migrated database, about a second to unpack), else by PostgreSQL's
 * initdb (several seconds of WebAssembly, then every migration). Resolves to how it was made, or
 * false at once when the directory already holds a database.
 */
export function createEmbeddedDataDir(dataDir: string): Promise<'template' | 'initdb' | false> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return Promise.resolve(false);
  fs.mkdirSync(dataDir, { recursive: true });
  const template = embeddedTemplatePath();
  const fromTemplate = fs.existsSync(template);
  const worker = new Worker(initdbSource, {
    eval: true,
    execArgv: [],
    workerData: {
      dataDir,
      template: fromTemplate ? template : null,
      pglite: import.meta.resolve('@electric-sql/pglite'),
      btreeGist: import.meta.resolve('@electric-sql/pglite/contrib/btree_gist'),
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve(fromTemplate ? 'template' : 'initdb') : reject(new Error(`creating the embedded database in ${dataDir} failed (exit ${code})`)),
    );
  });
}
