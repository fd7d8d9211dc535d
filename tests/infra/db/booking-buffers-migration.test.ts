import { expect } from 'chai';
import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../../../src/infra/db/migrate.js';
import { createUnmigratedDatabase } from '../../support/test-database.js';

const resourceId = '22222222-2222-4222-8222-222222222222';
const workspace = '11111111-1111-4111-8111-111111111111';

describe('migration 0018: buffers and createdBy on bookings', function () {
  // Up twice and down once: on the embedded database of a busy machine this takes its time.
  this.timeout(120_000);

  it('gives existing rows no buffers and their booker as creator; the constraint then guards occupied ranges, index-backed', async () => {
    const { db, destroy } = await createUnmigratedDatabase();
    try {
      await migrateTo(db, '0017-utilization-microseconds');
      await sql`
        insert into resources (id, workspace, resource_type, resource_id, is_active, booking_policy, created_at, updated_at, stream_revision)
        values (${resourceId}, ${workspace}, 'zone', 'zone-1', true, '{"maxDurationMinutes": 480}', now(), now(), 0)`.execute(db);
      const row = (id: string, start: string, end: string) => sql`
        (${id}, ${resourceId}, ${workspace}, 'zone', 'zone-1', 'alice', 'Sync', ${start}::timestamptz, ${end}::timestamptz, 'confirmed', now(), now())`;
      const columns = sql`(id, bookable_resource_id, workspace, resource_type, resource_id, booker_profile_id, title, start_time, end_time, status, created_at, updated_at)`;
      await sql`insert into bookings ${columns} values ${row('00000000-0000-4000-8000-000000000001', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z')}`.execute(db);
      await sql`insert into bookings_archive ${sql.raw('(id, bookable_resource_id, workspace, resource_type, resource_id, booker_profile_id, title, start_time, end_time, status, created_at, updated_at, archived_at)')}
        values ('00000000-0000-4000-8000-000000000009', ${resourceId}, ${workspace}, 'zone', 'zone-1', 'bob', 'Old', '2020-01-01T09:00:00Z', '2020-01-01T10:00:00Z', 'completed', now(), now(), now())`.execute(db);

      await migrateToLatest(db);
      const live = await db.selectFrom('bookings').select(['buffer_before_minutes', 'buffer_after_minutes', 'created_by']).execute();
      expect(live).to.deep.equal([{ buffer_before_minutes: 0, buffer_after_minutes: 0, created_by: 'alice' }]);
      const archived = await db.selectFrom('bookings_archive').select(['buffer_before_minutes', 'buffer_after_minutes', 'created_by']).execute();
      expect(archived).to.deep.equal([{ buffer_before_minutes: 0, buffer_after_minutes: 0, created_by: 'bob' }]);

      // Touching the old booking is fine without buffers, not with a before-buffer reaching it.
      await sql`
        insert into bookings (id, bookable_resource_id, workspace, resource_type, resource_id, booker_profile_id, created_by, title, start_time, end_time, status, created_at, updated_at)
        values ('00000000-0000-4000-8000-000000000002', ${resourceId}, ${workspace}, 'zone', 'zone-1', 'bob', 'bob', 'Next', '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z', 'confirmed', now(), now())`.execute(db);
      const refused = await sql`
        insert into bookings (id, bookable_resource_id, workspace, resource_type, resource_id, booker_profile_id, created_by, title, start_time, end_time, buffer_before_minutes, status, created_at, updated_at)
        values ('00000000-0000-4000-8000-000000000003', ${resourceId}, ${workspace}, 'zone', 'zone-1', 'carol', 'carol', 'Late', '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z', 1, 'confirmed', now(), now())`
        .execute(db)
        .then(() => null, (e: unknown) => e as { code?: string; constraint?: string });
      expect(refused).to.include({ code: '23P01', constraint: 'bookings_no_overlap' });

      // The overlap queries of active bookings use the constraint's GiST index (the planner told
      // not to scan the few rows sequentially, as it would for a table this small).
      const plan = await db.connection().execute(async (connection) => {
        await sql`set enable_seqscan = off`.execute(connection);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`
          explain select id from bookings
          where bookable_resource_id = ${resourceId} and status in ('pending', 'confirmed') and not is_series_parent
            and booking_occupied_range(start_time, end_time, buffer_before_minutes, buffer_after_minutes)
              && booking_occupied_range('2027-01-05T09:30:00Z'::timestamptz, '2027-01-05T09:45:00Z'::timestamptz, 15, 15)`.execute(connection);
        await sql`reset enable_seqscan`.execute(connection);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      // The constraint's own index, or the free search's over the same occupied ranges (migration 0021).
      expect(plan).to.match(/bookings_no_overlap|bookings_held_by_workspace_range|bookings_active_by_resource_range/);

      await migrateTo(db, '0017-utilization-microseconds');
      const columnsAfterDown = await sql<{ n: number }>`
        select count(*)::int as n from information_schema.columns where table_name = 'bookings' and column_name in ('buffer_before_minutes', 'buffer_after_minutes', 'created_by')`.execute(db);
      expect(columnsAfterDown.rows[0]!.n).to.equal(0);
    } finally {
      await destroy();
    }
  });
});
