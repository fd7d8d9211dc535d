import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { Database } from './database.js';
import { migrateToLatest } from './migrate.js';
import { embeddedTemplatePath } from './embedded-template-path.js';

/** A new embedded database migrated to the latest, dumped: what `loadDataDir` starts from. */
export async function createEmbeddedTemplate(): Promise<Blob> {
  const client = new PGlite({ extensions: { btree_gist } });
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(client) }) as Database;
  try {
    await migrateToLatest(db);
    return await client.dumpDataDir('gzip');
  } finally {
    await db.destroy();
  }
}

/** Writes the template of this checkout (`npm install` does, through `prepare`), and removes the stale ones. */
export async function writeEmbeddedTemplate(): Promise<string> {
  const file = embeddedTemplatePath();
  const dump = await createEmbeddedTemplate();
  const cacheDir = path.dirname(file);
  fs.mkdirSync(cacheDir, { recursive: true });
  for (const stale of fs.readdirSync(cacheDir).filter((name) => name.startsWith('embedded-database-'))) fs.rmSync(path.join(cacheDir, stale));
  fs.writeFileSync(`${file}.part`, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(`${file}.part`, file);
  return file;
}
