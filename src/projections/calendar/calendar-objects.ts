import { sql, type RawBuilder } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Booking } from '../../domain/booking/booking.js';
import type { Executor } from '../../infra/db/database.js';
import type { BookingRow } from '../../infra/db/tables/bookings.table.js';
import { logHorizon } from '../../infra/event-store/log-horizon.js';
import { rowToBooking } from '../booking/booking-row.js';

/**
 * Whose bookings a CalDAV calendar holds (contract §25): a resource's (with those of its parts and
 * wholes, §22, as its REST schedule), or one booker's in a workspace (in all: LV1 without one) —
 * but not those its calendar events made (§26): the booker's calendar holds the event instead.
 */
export type CalendarScope = { kind: 'resource'; resourceId: string } | { kind: 'booker'; sub: string; workspace: string | null };

/** A booking of a calendar with where it is (the resource's name, else its zone or device id). */
export type CalendarObjectRow = { booking: Booking; location: string };

/** A calendar holds the bookings a REST schedule lists by default: pending or confirmed, series parents aside. */
const isMember = sql`b.status in ('pending', 'confirmed') and not b.is_series_parent`;

/** The scope's booking rows (any status) that `where` (on `b`) holds for, with their location. */
function scopeRows(scope: CalendarScope, where: RawBuilder<unknown>): RawBuilder<unknown> {
  const location = sql`coalesce(r.resource_name, r.resource_id) as location`;
  if (scope.kind === 'resource') {
    return sql`
      select b.*, ${location}
      from unnest(array[${scope.resourceId}::uuid] || sharing_resources(${scope.resourceId}::uuid)) as shared (resource_id)
      cross join lateral (select * from bookings b where b.bookable_resource_id = shared.resource_id and ${where}) as b
      join resources r on r.id = b.bookable_resource_id`;
  }
  return sql`
    select b.*, ${location}
    from bookings b join resources r on r.id = b.bookable_resource_id
    where b.booker_profile_id = ${scope.sub} ${scope.workspace === null ? sql`` : sql`and b.workspace = ${scope.workspace}::uuid`} and b.calendar_uid is null and ${where}`;
}

type Row = BookingRow & { location: string };
const toObject = (row: Row): CalendarObjectRow => ({ booking: rowToBooking(row), location: row.location });

/** The calendar's bookings overlapping [from, to) (RFC 4791 §9.9: start before its end, end after its start), by start and id, at most `limit`. */
export async function findCalendarObjects(db: Executor, scope: CalendarScope, range: { from: Temporal.Instant; to: Temporal.Instant }, limit: number): Promise<CalendarObjectRow[]> {
  const overlapping = sql`${isMember} and b.start_time < ${range.to.toString()}::timestamptz and b.end_time > ${range.from.toString()}::timestamptz`;
  const { rows } = await sql<Row>`select * from (${scopeRows(scope, overlapping)}) as o order by start_time, id limit ${limit}`.execute(db);
  return rows.map(toObject);
}

/** The calendar's bookings among `ids` (calendar-multiget, GET of one object). */
export async function findCalendarObjectsById(db: Executor, scope: CalendarScope, ids: readonly string[]): Promise<CalendarObjectRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<Row>`select * from (${scopeRows(scope, sql`${isMember} and b.id = any(${ids}::uuid[])`)}) as o`.execute(db);
  return rows.map(toObject);
}

/** A booking row of the scope written since a sync token, and whether the calendar still holds it. */
export type CalendarChange = CalendarObjectRow & { member: boolean };

/**
 * The scope's booking rows written by transaction `since` or later (migration 0038's `changed_in`),
 * whatever their status: those the calendar holds (ending after `membersEndAfter`) are changed
 * objects, the others removed ones. At most `limit`, oldest change first.
 */
export async function findCalendarChanges(db: Executor, scope: CalendarScope, since: bigint, membersEndAfter: Temporal.Instant, limit: number): Promise<CalendarChange[]> {
  const { rows } = await sql<Row & { member: boolean }>`
    select *, (${isMember} and b.end_time > ${membersEndAfter.toString()}::timestamptz) as member
    from (${scopeRows(scope, sql`b.changed_in >= ${since.toString()}::xid8`)}) as b
    order by changed_in, id limit ${limit}`.execute(db);
  return rows.map((row) => ({ ...toObject(row), member: row.member }));
}

/**
 * A calendar's sync position: the token's `position`, the `horizon` no token may pass, and
 * `unchangedFrom`, past the last change the calendar's rows show now: changes since a position at
 * or after it are none, without reading them.
 */
export type SyncPosition = { position: bigint; horizon: bigint; unchangedFrom: bigint };

/**
 * Where a sync of the scope's calendar stands now, as a transaction id: every change by an earlier
 * transaction is final (below the late-commit horizon, log-horizon.ts: no slower transaction can
 * still commit one) and read by a query that follows; a later change, committed late or not, has
 * a `changed_in` at or past it. It is the last change of the scope plus one where that is below the
 * horizon, so a calendar nobody changes keeps its token. Also the horizon itself, the newest
 * position a token can name. `alsoLast`: the last changes of the calendar's other objects (a
 * user's stored events or REPLYs, §26), as SQL giving a transaction id or null.
 */
export async function findSyncPosition(db: Executor, scope: CalendarScope | null, alsoLast: readonly RawBuilder<unknown>[] = []): Promise<SyncPosition> {
  const lastOf = (where: RawBuilder<unknown>) => sql`(select changed_in::text::bigint from bookings b where ${where} order by b.changed_in desc limit 1)`;
  const ofBookings =
    scope === null
      ? sql`null::bigint`
      : scope.kind === 'resource'
      ? sql`(select max(last) from unnest(array[${scope.resourceId}::uuid] || sharing_resources(${scope.resourceId}::uuid)) as shared (resource_id)
             cross join lateral ${lastOf(sql`b.bookable_resource_id = shared.resource_id`)} as l (last))`
      : lastOf(sql`b.booker_profile_id = ${scope.sub} ${scope.workspace === null ? sql`` : sql`and b.workspace = ${scope.workspace}::uuid`}`);
  const last = sql`greatest(${sql.join([ofBookings, ...alsoLast])})`;
  const { rows } = await sql<{ horizon: string; last: string | null }>`select (${logHorizon})::text as horizon, (${last})::text as last`.execute(db);
  const horizon = BigInt(rows[0]!.horizon);
  const next = rows[0]!.last === null ? 1n : BigInt(rows[0]!.last) + 1n;
  return { position: next < horizon ? next : horizon, horizon, unchangedFrom: next };
}
