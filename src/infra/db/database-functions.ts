import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Database } from './database.js';
import { databaseFunctionsLockKey } from './lock-keys.js';

const functionsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'functions');

/** One file of src/infra/db/functions: the home of its functions and triggers. */
export type FunctionScript = { name: string; checksum: string; statements: string[] };

/**
 * The statements of a script, split at the semicolons outside quotes, dollar-quoted bodies and
 * comments: the embedded engine runs one statement per query.
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const skip =
      /^--[^\n]*/.exec(rest) ?? /^'(?:[^']|'')*'/.exec(rest) ?? /^"[^"]*"/.exec(rest) ?? (/^(\$[A-Za-z_]*\$)/.exec(rest) && new RegExp(`^(\\$[A-Za-z_]*\\$)[\\s\\S]*?\\1`).exec(rest));
    if (skip) {
      i += skip[0].length;
      continue;
    }
    if (text[i] === ';') {
      statements.push(text.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  statements.push(text.slice(start));
  return statements.map((s) => s.replace(/^(\s*--[^\n]*\n)*/, '').trim()).filter((s) => s.length > 0);
}

/** Every script, in file-name order (the order they are applied in). */
export async function readFunctionScripts(): Promise<FunctionScript[]> {
  const names = (await fs.readdir(functionsDir)).filter((name) => name.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await fs.readFile(path.join(functionsDir, name), 'utf8');
      return { name, checksum: createHash('sha256').update(text).digest('hex'), statements: splitStatements(text) };
    }),
  );
}

/**
 * The repeatable step after the numbered migrations (Flyway's `R__` scripts): each script whose
 * checksum differs from the one recorded in `database_functions` (or that was never applied) runs
 * again, in name order, in one transaction. The scripts replace in place (`create or replace
 * function`, a trigger dropped and created), so a database of any age reaches the same functions.
 * Bodies are not checked against the tables at creation: a script may call one later in the order.
 * Returns the names applied.
 */
export async function applyDatabaseFunctions(db: Database, scripts?: FunctionScript[]): Promise<string[]> {
  const all = scripts ?? (await readFunctionScripts());
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${databaseFunctionsLockKey}, 0))`.execute(trx);
    const { rows } = await sql<{ name: string; checksum: string }>`select name, checksum from database_functions`.execute(trx);
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    const changed = all.filter((script) => applied.get(script.name) !== script.checksum);
    if (changed.length === 0) return [];
    await sql`set local check_function_bodies = off`.execute(trx);
    for (const script of changed) {
      for (const statement of script.statements) await sql.raw(statement).execute(trx);
      await sql`
        insert into database_functions (name, checksum, applied_at) values (${script.name}, ${script.checksum}, now())
        on conflict (name) do update set checksum = excluded.checksum, applied_at = excluded.applied_at`.execute(trx);
    }
    return changed.map((script) => script.name);
  });
}
