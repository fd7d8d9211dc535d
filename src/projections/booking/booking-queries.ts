import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Blackout } from '../../domain/blackout/blackout.js';
import type { Booking, BookingStatus, HeldBooking } from '../../domain/booking/booking.js';
import { activeStatuses } from '../../domain/booking/booking.js';
import type { Resource } from '../../domain/resource/resource.js';
import type { Quota } from '../../domain/quota/quota.js';
import type { CountedBooking } from '../../domain/quota/quota-usage.js';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';
import type { ArchivedBookingRow, BookingRow } from '../../infra/db/tables/bookings.table.js';
import type { ResourceRow } from '../../infra/db/tables/resources.table.js';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import { rowToBlackout } from '../blackout/blackout-queries.js';
import type { BlackoutsTable } from '../../infra/db/tables/blackouts.table.js';
import { rowToResource } from '../resource/resource-row.js';
import { archivedRowToBooking, rowToBooking } from './booking-row.js';
import { bookingOccupiedRangeSql, newOccupiedRangeSql } from './occupied-range-sql.js';
import { occupyingBookingsSql } from './occupying-bookings-sql.js';
import { heldBookingJsonSql, heldBookingOfJson, type HeldBookingJson } from './held-booking-row.js';

/**
 * Bookings sharing time with [from, to), written as the range of the schedules' GiST index so that
 * it answers: the cost follows the bookings in the range, not the resource's history.
 */
const overlapping = (from: Temporal.Instant, to: Temporal.Instant) =>
  sql<SqlBool>`tstzrange(start_time, end_time, '[)') && tstzrange(${from.toString()}::timestamptz, ${to.toString()}::timestamptz, '[)')`;

const occupiedRangeSql = bookingOccupiedRangeSql();

/** Bookings whose occupied range shares time with [from, to) (itself an occupied range). */
const occupiedOverlapping = (from: Temporal.Instant, to: Temporal.Instant) =>
  sql<SqlBool>`${occupiedRangeSql} && tstzrange(${from.toString()}::timestamptz, ${to.toString()}::timestamptz, '[)')`;

/** Holds the slot (functions/booking-is-active.sql): inlined by the planner into the partial indexes' predicate, which it then matches. */
const holdsSlot = sql<SqlBool>`booking_is_active(status, is_series_parent)`;

const bookingById = {
  live: compileOnce(sql`select * from bookings where id = ${holesOf().id}`),
  archived: compileOnce(sql`select * from bookings_archive where id = ${holesOf().id}`),
};

export async function findBooking(db: Executor, id: string): Promise<Booking | null> {
  const { rows } = await db.executeQuery<BookingRow>(bookingById.live.fill({ id }));
  return rows[0] ? rowToBooking(rows[0]) : null;
}

/** A live booking, or else an archived one (with archivedAt): what GET /bookings/{id} answers. */
export async function findBookingOrArchived(db: Executor, id: string): Promise<Booking | null> {
  const live = await findBooking(db, id);
  if (live) return live;
  const { rows } = await db.executeQuery<ArchivedBookingRow>(bookingById.archived.fill({ id }));
  return rows[0] ? archivedRowToBooking(rows[0]) : null;
}

/** Active bookings (series parents aside) occupying a resource (contract §22: those of the resources sharing one with it too) whose occupied ranges overlap [from, to), an occupied range. */
export async function findActiveOverlapping(db: Executor, bookableResourceId: string, from: Temporal.Instant, to: Temporal.Instant): Promise<Booking[]> {
  // An empty or inverted range overlaps nothing (and is no valid tstzrange).
  if (from.epochMilliseconds >= to.epochMilliseconds) return [];
  const { rows } = await sql<BookingRow>`
    select * from (${occupyingBookingsSql(bookableResourceId, occupiedOverlapping(from, to))}) as occupying order by start_time`.execute(db);
  return rows.map(rowToBooking);
}

/** What a create decides on, with the revision of the stream it appends to, read in one snapshot. */
export type BookingCreateState = {
  /** The stream's last revision, null when it has none: the append expects it. */
  streamRevision: number | null;
  /** The live resource, null when it is not registered or removed. */
  resource: Resource | null;
  /** Its active bookings whose occupied ranges overlap [from, to) occupied with its buffers. */
  overlapping: HeldBooking[];
  /** The booker's active bookings on it, counted up to the policy's limit (0 without a limit). */
  activeBookingsOfBooker: number;
  /** Every quota of the resource's workspace (read here, so a create without quotas costs no round trip more). */
  workspaceQuotas: Quota[];
  /**
   * With quotas in the workspace: the booker's bookings a quota may count around the start (a
   * superset of every period containing it) and their fingerprint, which the append's quota hold
   * compares (migration 0027); without: none and null.
   */
  quotaBookings: { counted: CountedBooking[]; seen: string } | null;
  /** The blackouts covering it that overlap [from, to). */
  blackouts: Blackout[];
};

export type CreateStateArgs = { streamId: string; resourceId: string; booker: string; from: string; to: string };

export type CreateStateRow = Omit<ResourceRow, 'id'> & {
  id: string | null;
  command_stream_revision: number | null;
  overlapping: HeldBookingJson[];
  active_of_booker: string;
  workspace_quotas: Quota[];
  quota_seen: string | null;
  quota_counted: CountedBookingJson[] | null;
  blackouts: BlackoutsTable[];
};

type CountedBookingJson = { id: string; resourceId: string; resourceType: Resource['resourceType']; groupId: string | null; startMs: number; endMs: number };

/**
 * The query of findBookingCreateState, its values taken from `p` (holes, or columns of a row the
 * query is joined laterally to: create-states-query.ts); an empty range overlaps nothing.
 */
export function createStateSql(p: Holes<CreateStateArgs>, rangeIsEmpty: boolean): RawBuilder<unknown> {
  return sql`
      select resources.*,
        (select stream_revision from streams where stream_id = ${p.streamId}) as command_stream_revision,
        -- What the verdict counts of each booking in the way (held-booking-row.ts), not the whole row: a pool's create meets dozens.
        (select coalesce(json_agg(${heldBookingJsonSql('occupying')} order by occupying.start_time), '[]') from (
          ${occupyingBookingsSql(p.resourceId, rangeIsEmpty ? sql`false` : sql`${occupiedRangeSql} && ${newOccupiedRangeSql(p.from, p.to, 'resources')}`)}) as occupying) as overlapping,
        -- The limit is the policy's: counting further would change no decision.
        case when resources.booking_policy->>'maxBookingsPerUser' is null then 0 else (
          select count(*) from (
            select 1 from bookings
            where booker_profile_id = ${p.booker} and bookable_resource_id = ${p.resourceId} and ${holdsSlot}
            limit (resources.booking_policy->>'maxBookingsPerUser')::bigint) as held) end as active_of_booker,
        (select coalesce(json_agg(quota order by created_at, id), '[]') from quotas where workspace = resources.workspace) as workspace_quotas,
        -- The booker's usage around the start, in this snapshot, only where the workspace has quotas.
        case when exists (select 1 from quotas where workspace = resources.workspace) then
          booker_quota_fingerprint(resources.workspace, ${p.booker}, ${p.from}::timestamptz) end as quota_seen,
        case when exists (select 1 from quotas where workspace = resources.workspace) then (
          select coalesce(json_agg(json_build_object('id', q.id, 'resourceId', r.id, 'resourceType', r.resource_type, 'groupId', r.group_id,
            'startMs', floor(extract(epoch from q.start_time) * 1000)::bigint, 'endMs', floor(extract(epoch from q.end_time) * 1000)::bigint)), '[]')
          from booker_quota_bookings(resources.workspace, ${p.booker}, ${p.from}::timestamptz) q join resources r on r.id = q.bookable_resource_id) end as quota_counted,
        (select coalesce(json_agg(covering order by from_time, id), '[]') from (
          select * from blackouts
          where workspace = resources.workspace and (resource_ids is null or resources.id = any(resource_ids))
            and ${rangeIsEmpty ? sql`false` : sql`tstzrange(from_time, to_time, '[)') && tstzrange(${p.from}::timestamptz, ${p.to}::timestamptz, '[)')`}) as covering) as blackouts
      from (select 1 as one) as constant
      left join resources on resources.id = ${p.resourceId} and resources.deleted_at is null`;
}

const countedOfJson = (row: CountedBookingJson): CountedBooking => ({
  id: row.id,
  resource: { id: row.resourceId, resourceType: row.resourceType, groupId: row.groupId },
  startTime: Temporal.Instant.fromEpochMilliseconds(Number(row.startMs)),
  endTime: Temporal.Instant.fromEpochMilliseconds(Number(row.endMs)),
});

const createState = {
  overlapping: compileOnce(createStateSql(holesOf() as Holes<CreateStateArgs>, false)),
  empty: compileOnce(createStateSql(holesOf() as Holes<CreateStateArgs>, true)),
};

/**
 * Everything a create decides on in one statement, one round trip: the revision of the stream the
 * booking is appended to, the live resource, its active bookings in the way, the booker's
 * count and (with quotas in the workspace) the booker's usage around the start. One statement reads one snapshot, so the revision is never older than the state; the
 * row of one constant keeps the revision when there is no live resource.
 */
export async function findBookingCreateState(
  db: Executor,
  streamId: string,
  bookableResourceId: string,
  booker: string,
  from: Temporal.Instant,
  to: Temporal.Instant,
): Promise<BookingCreateState> {
  // An empty or inverted range overlaps nothing (and is no valid tstzrange).
  const statement = from.epochMilliseconds >= to.epochMilliseconds ? createState.empty : createState.overlapping;
  const args: CreateStateArgs = { streamId, resourceId: bookableResourceId, booker, from: from.toString(), to: to.toString() };
  const { rows } = await db.executeQuery<CreateStateRow>(statement.fill(args));
  return createStateOfRow(rows[0]!);
}

/** A row of createStateSql as what a create decides on. */
export function createStateOfRow(row: CreateStateRow): BookingCreateState {
  const {
    command_stream_revision: streamRevision,
    overlapping: bookings,
    active_of_booker: activeOfBooker,
    workspace_quotas: workspaceQuotas,
    quota_seen: seen,
    quota_counted: counted,
    blackouts,
    ...resource
  } = row;
  if (resource.id === null) return { streamRevision, resource: null, overlapping: [], activeBookingsOfBooker: 0, workspaceQuotas: [], quotaBookings: null, blackouts: [] };
  return {
    streamRevision,
    resource: rowToResource(resource as ResourceRow),
    overlapping: bookings.map(heldBookingOfJson),
    activeBookingsOfBooker: Number(activeOfBooker),
    workspaceQuotas,
    quotaBookings: seen === null || counted === null ? null : { seen, counted: counted.map(countedOfJson) },
    blackouts: blackouts.map(rowToBlackout),
  };
}

/** Active bookings of one booker on a resource, counted up to `cap` (all a limit check needs). */
export async function countActiveBookingsOfBooker(db: Executor, bookableResourceId: string, booker: string, cap: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('bookings')
        .select('id')
        .where('booker_profile_id', '=', booker)
        .where('bookable_resource_id', '=', bookableResourceId)
        .where(holdsSlot)
        .limit(cap)
        .as('held'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Active bookings of a resource that have not started yet, and the series parents they belong to. */
export async function findUpcomingActiveBookings(db: Executor, bookableResourceId: string, now: Temporal.Instant): Promise<Booking[]> {
  const rows = await db
    .selectFrom('bookings')
    .selectAll()
    .where('bookable_resource_id', '=', bookableResourceId)
    .where(holdsSlot)
    .where('start_time', '>', new Date(now.epochMilliseconds))
    .execute();
  const parentIds = [...new Set(rows.map((r) => r.recurrence_parent_id).filter((id): id is string => id !== null))];
  const parents = parentIds.length
    ? await db.selectFrom('bookings').selectAll().where('id', 'in', parentIds).where('status', 'in', [...activeStatuses]).execute()
    : [];
  return [...rows, ...parents].map(rowToBooking);
}

/** Bookings occupying a resource (its own and, contract §22, those of the resources sharing one with it) overlapping [from, to) in the given statuses, series parents aside, by start. */
export async function findScheduledBookings(
  db: Executor,
  bookableResourceId: string,
  from: Temporal.Instant,
  to: Temporal.Instant,
  statuses: readonly BookingStatus[],
): Promise<Booking[]> {
  const selected = (resource: unknown) =>
    sql`bookable_resource_id = ${resource} and status = any(${[...statuses]}::text[]) and not is_series_parent and ${overlapping(from, to)}`;
  // Contract §22: the bookings of the resources sharing one with it too, one index probe each (`offset 0`: see occupying-bookings-sql.ts).
  const { rows } = await sql<BookingRow>`
    select * from (
      select * from bookings where ${selected(sql`${bookableResourceId}::uuid`)}
      union all
      select shared.* from unnest(sharing_resources(${bookableResourceId}::uuid)) as sharing (id)
      cross join lateral (select * from bookings where ${selected(sql`sharing.id`)} offset 0) as shared) as b
    order by start_time, id`.execute(db);
  return rows.map(rowToBooking);
}

export type BookingFilter = {
  workspace?: string;
  resourceId?: string;
  status?: BookingStatus;
  bookerProfileId?: string;
  from?: Temporal.Instant;
  to?: Temporal.Instant;
  /** Searches the archive (contract §13) instead of the live bookings. */
  archived?: boolean;
  /** Series parents hold a rule, not a slot: listed only when asked for. */
  includeSeriesParents?: boolean;
};

/** One page of bookings, ascending by start; from/to select those overlapping the range. */
export async function listBookings(db: Executor, filter: BookingFilter, page: Page): Promise<PageOf<Booking>> {
  // The archive has the same columns as the live table (plus archived_at): the one query fits both.
  const table = filter.archived ? 'bookings_archive' : 'bookings';
  const base = db
    .selectFrom(table as 'bookings')
    .$if(filter.workspace !== undefined, (q) => q.where('workspace', '=', filter.workspace!))
    .$if(filter.resourceId !== undefined, (q) => q.where('resource_id', '=', filter.resourceId!))
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
    .$if(filter.bookerProfileId !== undefined, (q) => q.where('booker_profile_id', '=', filter.bookerProfileId!))
    .$if(filter.from !== undefined, (q) => q.where('end_time', '>', new Date(filter.from!.epochMilliseconds)))
    .$if(filter.to !== undefined, (q) => q.where('start_time', '<', new Date(filter.to!.epochMilliseconds)))
    .$if(!filter.includeSeriesParents, (q) => q.where('is_series_parent', '=', false));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('start_time').orderBy('id').limit(page.limit).offset((page.page - 1) * page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const toBooking = filter.archived ? (row: BookingRow) => archivedRowToBooking(row as ArchivedBookingRow) : rowToBooking;
  return pageOf(rows.map(toBooking), Number(count.total), page);
}

/** The resource a booking belongs to, removed or not: its policy still governs the booking. */
export async function findBookedResource(db: Executor, id: string): Promise<Resource | null> {
  const row = await db.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToResource(row) : null;
}

/** Active bookings (series parents aside) of a resource whose occupied ranges overlap any of the ranges (occupied ranges of new slots), each once. */
export async function findActiveOverlappingAny(
  db: Executor,
  bookableResourceId: string,
  slots: readonly { start: Temporal.Instant; end: Temporal.Instant }[],
): Promise<Booking[]> {
  const ranges = slots.filter((s) => s.start.epochMilliseconds < s.end.epochMilliseconds);
  if (ranges.length === 0) return [];
  const anyRange = sql`${occupiedRangeSql} && (select range_agg(tstzrange(r.s, r.e, '[)')) from unnest(${ranges.map((s) => s.start.toString())}::timestamptz[], ${ranges.map((s) => s.end.toString())}::timestamptz[]) as r (s, e))`;
  const { rows } = await sql<BookingRow>`select * from (${occupyingBookingsSql(bookableResourceId, anyRange)}) as occupying order by start_time`.execute(db);
  return rows.map(rowToBooking);
}

/** The occurrences still linked to a series (any status) that start after `after`, by start. */
export async function findSeriesOccurrences(db: Executor, parentId: string, after: Temporal.Instant): Promise<Booking[]> {
  const rows = await db
    .selectFrom('bookings')
    .selectAll()
    .where('recurrence_parent_id', '=', parentId)
    .where('start_time', '>', new Date(after.epochMilliseconds))
    .orderBy('start_time')
    .execute();
  return rows.map(rowToBooking);
}
