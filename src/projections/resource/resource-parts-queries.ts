import { sql } from 'kysely';
import type { BookingConflict } from '../../domain/domain-error.js';
import type { PartsState } from '../../domain/resource/resource-parts.js';
import { utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import type { Executor } from '../../infra/db/database.js';
import type { ResourceRow } from '../../infra/db/tables/resources.table.js';
import { bookingOccupiedRangeSql } from '../booking/occupied-range-sql.js';
import { rowToResource } from './resource-row.js';

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** The live resources `parts` names (ids that are no uuid name none) and the live wholes holding `id` (contract §22). */
export async function findPartsState(db: Executor, id: string, parts: readonly string[]): Promise<PartsState> {
  const named = parts.filter(isUuid).map((p) => p.toLowerCase());
  const [namedRows, wholeRows] = await Promise.all([
    named.length === 0 ? [] : db.selectFrom('resources').selectAll().where('id', 'in', named).where('deleted_at', 'is', null).execute(),
    db
      .selectFrom('resources')
      .selectAll()
      .where(sql<boolean>`parts @> array[${id}]::uuid[]`)
      .where('deleted_at', 'is', null)
      .execute(),
  ]);
  return { named: new Map((namedRows as ResourceRow[]).map((row) => [row.id, rowToResource(row)])), wholes: (wholeRows as ResourceRow[]).map(rowToResource) };
}

/**
 * The pending or confirmed bookings that would conflict if `whole` had these parts (contract §22):
 * each booking of the whole whose occupied range overlaps one of a part's, or of another whole
 * holding one of the parts, and those bookings, earliest first.
 */
export async function findPartsConflicts(db: Executor, whole: string, parts: readonly string[]): Promise<BookingConflict[]> {
  if (parts.length === 0) return [];
  const { rows } = await sql<{ id: string; start_ms: string; end_ms: string }>`
    with sharing as (
      select unnest(${[...parts]}::uuid[]) as id
      union
      select w.id from resources w where w.id <> ${whole}::uuid and w.deleted_at is null and w.parts && ${[...parts]}::uuid[]),
    pairs as (
      select a.id as whole_booking, b.id as other_booking
      from bookings a
      join sharing s on true
      join bookings b on b.bookable_resource_id = s.id
      where a.bookable_resource_id = ${whole}::uuid
        and booking_is_active(a.status, a.is_series_parent)
        and booking_is_active(b.status, b.is_series_parent)
        and ${bookingOccupiedRangeSql('a')} && ${bookingOccupiedRangeSql('b')})
    select id, floor(extract(epoch from start_time) * 1000)::bigint as start_ms, floor(extract(epoch from end_time) * 1000)::bigint as end_ms
    from bookings
    where id in (select whole_booking from pairs union select other_booking from pairs)
    order by start_time, id`.execute(db);
  return rows.map((row) => ({ bookingId: row.id, startTime: utcTextOfEpochMs(Number(row.start_ms)), endTime: utcTextOfEpochMs(Number(row.end_ms)) }));
}

/**
 * A change of parts takes the occupation locks (migration 0033's occupation_lock_key, lock-keys.ts's
 * occupationLockKeyPrefix) of the whole, its parts and the wholes sharing them, in id order, as a
 * booking's append does: after them, a booking committed meanwhile is seen, and one appended later
 * sees the new parts.
 */
export async function lockOccupations(db: Executor, whole: string, parts: readonly string[]): Promise<void> {
  await sql`
    select pg_advisory_xact_lock(occupation_lock_key(id)) from (
      select unnest(array[${whole}::uuid] || ${[...parts]}::uuid[]) as id
      union
      select w.id from resources w where w.deleted_at is null and w.parts && ${[...parts]}::uuid[]
      order by 1) as locked`.execute(db);
}
