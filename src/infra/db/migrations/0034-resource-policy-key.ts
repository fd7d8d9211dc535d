import { sql, type Kysely } from 'kysely';

/**
 * The free search's policy key (issue #32, proposal 4) kept on the row: equal for resources whose
 * isActive, bookingPolicy and availability are equal, whose verdicts are then too. A search
 * decides once per key; computed per search it cost the text of every matching row's policy and
 * availability (2,000 rows a search in the bench).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table resources add column policy_key text not null
      generated always as (md5(is_active::text || '|' || booking_policy::text || '|' || coalesce(availability::text, 'null'))) stored`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table resources drop column policy_key`.execute(db);
}
