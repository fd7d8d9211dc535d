import { sql, type Kysely } from 'kysely';

/**
 * The booking record names the approver a delegate acted for in its last decision (contract §24,
 * `onBehalfOf`). Until now only the decisions' events did: each row takes it from the last confirm
 * or cancel of its booking in the log (null when that was not a delegate's).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['bookings', 'bookings_archive']) {
    await sql`alter table ${sql.table(table)} add column on_behalf_of text`.execute(db);
    await sql`
      update ${sql.table(table)} b set on_behalf_of = last.on_behalf_of
      from (
        select distinct on (data->'booking'->>'id') (data->'booking'->>'id')::uuid as id, data->>'onBehalfOf' as on_behalf_of
        from events
        where event_type in ('BookingConfirmed', 'BookingCancelled')
        order by data->'booking'->>'id', global_position desc
      ) last
      where last.id = b.id and last.on_behalf_of is not null`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['bookings', 'bookings_archive']) await sql`alter table ${sql.table(table)} drop column on_behalf_of`.execute(db);
}
