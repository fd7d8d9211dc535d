import { sql } from 'kysely';
import type { Database } from '../../src/infra/db/database.js';

/**
 * The schema of a database as lines to compare, catalog by catalog: columns, constraints, indexes,
 * functions (their whole definitions), triggers, and the migrations and function scripts recorded.
 */
export async function schemaListing(db: Database): Promise<string[]> {
  const { rows } = await sql<{ line: string }>`
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '')
      || ' ' || coalesce(generation_expression, '') as line
    from information_schema.columns where table_schema = 'public'
    union all
    select 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select 'index ' || indexname || ' ' || indexdef from pg_indexes where schemaname = 'public'
    union all
    select 'function ' || p.oid::regprocedure::text || ' ' || pg_get_functiondef(p.oid)
    from pg_proc p where p.pronamespace = 'public'::regnamespace and p.prokind in ('f', 'p')
    union all
    select 'trigger ' || pg_get_triggerdef(oid) || ' ' || tgenabled::text from pg_trigger where not tgisinternal
    union all
    select 'extension ' || extname || ' ' || extversion from pg_extension
    union all
    select 'migration ' || name from kysely_migration
    union all
    select 'function script ' || name || ' ' || checksum from database_functions
    order by 1`.execute(db);
  return rows.map((r) => r.line);
}
