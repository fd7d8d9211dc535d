import { sql, type Kysely } from 'kysely';

/**
 * The database's functions and triggers leave the migrations for src/infra/db/functions, one file
 * each, applied after the numbered migrations whenever a file's checksum changes (README,
 * "Database functions"). This records the checksums applied. A database migrated before keeps its
 * guards throughout: their triggers are renamed here to the names that fix their order, and the
 * step after the migrations replaces functions and triggers in place, in one transaction.
 */
const renamed = [
  ['events_booking_outside_blackouts', 'events_placement_10_outside_blackouts'],
  ['events_booking_quota_hold', 'events_placement_20_quota_hold'],
  ['events_booking_shares_no_resource', 'events_placement_30_shares_no_resource'],
  ['events_booking_within_pool_units', 'events_placement_40_within_pool_units'],
] as const;

async function renameTriggers(db: Kysely<unknown>, pairs: readonly (readonly [string, string])[]): Promise<void> {
  for (const [from, to] of pairs) {
    const { rows } = await sql`select 1 from pg_trigger where tgrelid = 'events'::regclass and tgname = ${from}`.execute(db);
    if (rows.length > 0) await sql`alter trigger ${sql.id(from)} on events rename to ${sql.id(to)}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table database_functions (
      name text primary key,
      checksum text not null,
      applied_at timestamptz not null
    )`.execute(db);
  await renameTriggers(db, renamed);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await renameTriggers(db, renamed.map(([from, to]) => [to, from] as const));
  await sql`drop table database_functions`.execute(db);
}
