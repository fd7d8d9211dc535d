import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.js';
import { applyDatabaseFunctions } from './database-functions.js';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const migrationFile = /^(\d{4}-[a-z0-9-]+)\.(ts|js)$/;

/** Loads every `NNNN-name.ts|js` file of the migrations folder, ordered by name. */
const folderProvider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {};
    for (const file of (await fs.readdir(migrationsDir)).sort()) {
      const match = migrationFile.exec(file);
      if (!match?.[1]) continue;
      migrations[match[1]] = (await import(path.join(migrationsDir, file))) as Migration;
    }
    return migrations;
  },
};

/**
 * The numbered migrations (the tables, columns and indexes, each once), then the database's
 * functions and triggers from their own files (database-functions.ts), applied again whenever one
 * changes.
 */
export async function migrateToLatest(db: Database): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: folderProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  await applyDatabaseFunctions(db);
}

/** Migrates up (or down) to the named migration, functions aside: tests of a migration's effect on older data. */
export async function migrateTo(db: Database, migrationName: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: folderProvider }).migrateTo(migrationName);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
