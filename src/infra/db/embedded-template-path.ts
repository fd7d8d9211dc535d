import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cacheDir = path.resolve(here, '../../../.cache');
const migrationsDir = path.join(here, 'migrations');

function pgliteVersion(): string {
  const manifest = path.join(path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '..', 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * The file of the embedded database's template for this checkout: made by the PGlite installed
 * (a data directory of another version may not open) over these migrations (a template holding a
 * migration this checkout lacks could not be migrated).
 */
export function embeddedTemplatePath(): string {
  const migrations = fs.readdirSync(migrationsDir).filter((name) => /^\d{4}-.*\.(ts|js)$/.test(name)).map((name) => name.replace(/\.(ts|js)$/, '')).sort();
  const key = createHash('sha256').update(migrations.join('\n')).digest('hex').slice(0, 12);
  return path.join(cacheDir, `embedded-database-${pgliteVersion()}-${key}.tar.gz`);
}
