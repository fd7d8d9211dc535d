import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { BookingStatus } from '../../domain/booking/booking.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Database, Executor } from '../../infra/db/database.js';
import type { DB } from '../../infra/db/schema.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';

/**
 * Schedules rendered by PostgreSQL: every booking record of an answer becomes JSON text in SQL,
 * with its times formatted in SQL, and is kept by its row version, so that the next answer holding
 * the same row (another range, or after a write to another booking) sends the same bytes without
 * building them again. No timestamp is parsed into a Date, formatted back, or stringified in Node.
 *
 * The text must equal, byte for byte, what JSON.stringify(bookingJson(...)) writes
 * (api/booking/booking-json.ts); tests/projections/schedule-json.test.ts compares the two.
 * A field added to the booking record is added in `bookingRecordJson` below, in the same place
 * of the order as in bookingJson.
 *
 * Offsets that are not whole minutes (local mean time before about 1900) are written with seconds
 * here and rounded by Temporal: api/booking/zone-agreement.ts checks each zone once against Node
 * over 1970–2100, and the schedule reader renders in Node where PostgreSQL's zone rules differ.
 */

/** Whose details the caller sees in full (canSeeBooking): the rest are anonymous, times and status only. */
export type ScheduleView = {
  /** LV1: every workspace; otherwise only `workspace`. */
  allWorkspaces: boolean;
  workspace: string | null;
  /** LV1–LV3: every booker; otherwise only `sub`. */
  everyBooker: boolean;
  sub: string;
};

/**
 * An instant as the answers write it, as SQL over the timestamptz expression `t`, quoted: PostgreSQL's
 * JSON output of a timestamptz is ISO 8601 in the session's TimeZone, the fraction only when there
 * is one and its trailing zeros dropped, which is how Temporal writes an instant. The session
 * TimeZone is the answer's zone (`inAnswerZone`); UTC answers end in Z instead of +00:00.
 * Milliseconds are kept as the driver kept them (truncated).
 */
function quotedTime(t: string, zoned: boolean): string {
  const json = `to_json(date_trunc('milliseconds', ${t}))::text`;
  return zoned ? json : `left(${json}, -7) || 'Z"'`;
}

const timeOrNull = (t: string, zoned: boolean) => `case when ${t} is null then 'null' else ${quotedTime(t, zoned)} end`;
/** to_json escapes as JSON.stringify does (", \, \b \f \n \r \t, other controls as \u00xx). */
const value = (column: string) => `coalesce(to_json(${column})::text, 'null')`;

/** Whether the caller sees a row's details (canSeeBooking's rule over `params`). */
const visibleSql = `((params.all_workspaces or b.workspace::text = params.workspace) and (params.every_booker or b.booker_profile_id = params.sub))`;

/**
 * The one place where a booking row `b` becomes its record (spec 2.2 plus exceptionOf), fields in
 * bookingJson's order; `visible` false writes the anonymous record of anonymousBookingJson.
 */
function bookingRecordJson(zoned: boolean): string {
  const privateValue = (column: string) => `case when ${visibleSql} then ${value(column)} else 'null' end`;
  const fields: [string, string][] = [
    ['id', value('b.id')],
    ['bookableResourceId', value('b.bookable_resource_id')],
    ['resourceId', value('b.resource_id')],
    ['resourceType', value('b.resource_type')],
    ['workspace', value('b.workspace')],
    ['bookerProfileId', privateValue('b.booker_profile_id')],
    ['bookerEmail', privateValue('b.booker_email')],
    ['createdBy', privateValue('b.created_by')],
    ['title', privateValue('b.title')],
    ['startTime', quotedTime('b.start_time', zoned)],
    ['endTime', quotedTime('b.end_time', zoned)],
    ['bufferBeforeMinutes', value('b.buffer_before_minutes')],
    ['bufferAfterMinutes', value('b.buffer_after_minutes')],
    ['units', value('b.units')],
    ['status', value('b.status')],
    ['isSeriesParent', value('b.is_series_parent')],
    ['recurrenceRule', value('b.recurrence_rule')],
    ['recurrenceParentId', value('b.recurrence_parent_id')],
    ['exceptionOf', value('b.exception_of')],
    ['bundleId', value('b.bundle_id')],
    ['calendarUid', privateValue('b.calendar_uid')],
    ['confirmedBy', privateValue('b.confirmed_by')],
    ['confirmedAt', timeOrNull('b.confirmed_at', zoned)],
    ['cancelledBy', privateValue('b.cancelled_by')],
    ['cancelledAt', timeOrNull('b.cancelled_at', zoned)],
    ['onBehalfOf', privateValue('b.on_behalf_of')],
    ['reason', privateValue('b.reason')],
    ['checkedInAt', timeOrNull('b.checked_in_at', zoned)],
    ['checkedOutAt', timeOrNull('b.checked_out_at', zoned)],
    ['createdAt', quotedTime('b.created_at', zoned)],
    ['updatedAt', quotedTime('b.updated_at', zoned)],
    // A schedule reads only live bookings: the archived ones have left this table.
    ['archivedAt', "'null'"],
    // Contract §22: the resource booked, where it is another that shares one with the schedule's.
    ['viaResourceId', `case when b.bookable_resource_id = params.resource_id then 'null' else ${value('b.bookable_resource_id')} end`],
  ];
  // concat writes the record in one pass; || would copy the growing text once per field.
  return `concat(${fields.map(([name, text], i) => `'${i ? ',' : '{'}"${name}":', ${text}`).join(', ')}, '}')`;
}

// Built once: the SQL text depends only on whether the answer has a zone.
const recordSql = { utc: sql.raw(bookingRecordJson(false)), zoned: sql.raw(bookingRecordJson(true)) };

/**
 * A row version as the view sees it, as the key its record is cached under: "<zone>|id xmin 1|0".
 * xmin changes with every write of the row (a new tuple), so equal versions are equal rows, and the
 * flag says which record (full or anonymous) the view gets: a rendered record is a function of the
 * version, the flag and the zone. Written whole by PostgreSQL: building 3,000 keys in Node per answer
 * (and hashing the joined strings) was an eighth of a schedule's CPU.
 */
const rowVersionSql = (zonePrefix: unknown) =>
  sql`${zonePrefix}::text || b.id::text || ' ' || b.row_xmin::text || case when ${sql.raw(visibleSql)} then ' 1' else ' 0' end || case when b.bookable_resource_id = params.resource_id then '' else ' via' end`;

/** What a row version starts with in this zone (the answer's; none: UTC as written without a zone). */
const zonePrefixOf = (timeZone: string | undefined) => `${timeZone ?? ''}|`;

/** The view and the schedule's resource as the one row `params` that `visibleSql` and `viaResourceId` read: from values, or from holes filled at each call. */
const params = (view: Holes<ScheduleView>, resourceId: unknown): RawBuilder<unknown> =>
  sql`select ${view.allWorkspaces}::boolean as all_workspaces, ${view.workspace}::text as workspace, ${view.everyBooker}::boolean as every_booker, ${view.sub}::text as sub, ${resourceId}::uuid as resource_id`;

/** Runs `read` in a transaction whose TimeZone is the answer's zone (UTC without one): the times' output follows it. */
function inAnswerZone<T>(db: Database, timeZone: string | undefined, read: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('TimeZone', ${timeZone ?? 'UTC'}, true)`.execute(trx);
    return read(trx);
  });
}

export type ScheduleSelection = {
  bookableResourceId: string;
  from: Temporal.Instant;
  to: Temporal.Instant;
  statuses: readonly BookingStatus[];
  timeZone?: string;
  view: ScheduleView;
};

/** A selection's values as the SQL takes them. */
type SelectionArgs = { bookableResourceId: string; statuses: readonly BookingStatus[]; from: string; to: string };

const selectionArgs = (query: ScheduleSelection): SelectionArgs => ({
  bookableResourceId: query.bookableResourceId,
  statuses: [...query.statuses],
  from: query.from.toString(),
  to: query.to.toString(),
});

/** findScheduledBookings' selection of one resource's bookings: overlapping [from, to) in `statuses`, series parents aside; from values or holes. */
const inSchedule = (selection: Holes<SelectionArgs>, resourceId: unknown) => sql`
  bookable_resource_id = ${resourceId}
  and status = any(${selection.statuses}::text[])
  and not is_series_parent
  and tstzrange(start_time, end_time, '[)') && tstzrange(${selection.from}::timestamptz, ${selection.to}::timestamptz, '[)')`;

/**
 * The schedule's rows as `b`, each with its xmin: the resource's bookings and those of the
 * resources sharing one with it (contract §22: its parts, the wholes holding it), one index probe each
 * (`offset 0`: see occupying-bookings-sql.ts).
 */
const scheduledRows = (selection: Holes<SelectionArgs>) => sql`(
  select bookings.*, bookings.xmin as row_xmin from bookings where ${inSchedule(selection, selection.bookableResourceId)}
  union all
  select shared.* from unnest(sharing_resources(${selection.bookableResourceId}::uuid)) as sharing (id)
  cross join lateral (select bookings.*, bookings.xmin as row_xmin from bookings where ${inSchedule(selection, sql`sharing.id`)} offset 0) as shared) as b`;

type RowVersionsArgs = ScheduleView & SelectionArgs & { zonePrefix: string };

const v = holesOf() as Holes<RowVersionsArgs>;

const rowVersions = compileOnce(sql`
  with params as (${params(v, v.bookableResourceId)})
  select string_agg(${rowVersionSql(v.zonePrefix)}, ',' order by b.start_time, b.id) as versions
  from ${scheduledRows(v)}, params`);

/** The versions of the schedule's rows, by start and id: one short text per row, no record built. */
async function listRowVersions(db: Executor, query: ScheduleSelection): Promise<string[]> {
  const args: RowVersionsArgs = { ...query.view, ...selectionArgs(query), zonePrefix: zonePrefixOf(query.timeZone) };
  const { rows } = await db.executeQuery<{ versions: string | null }>(rowVersions.fill(args));
  return rows[0]!.versions?.split(',') ?? [];
}

/** Records with their versions: of the rows with these ids, or (ids null) of the whole schedule by start and id. */
async function renderRecords(db: Database, query: ScheduleSelection, ids: readonly string[] | null): Promise<{ version: string; record: string }[]> {
  const { rows } = await inAnswerZone(db, query.timeZone, (trx) => sql<{ version: string; record: string }>`
    with params as (${params(query.view, query.bookableResourceId)})
    select ${rowVersionSql(zonePrefixOf(query.timeZone))} as version, ${query.timeZone ? recordSql.zoned : recordSql.utc} as record
    from ${ids ? sql`(select bookings.*, bookings.xmin as row_xmin from bookings where id = any(${ids}::uuid[])) as b` : scheduledRows(selectionArgs(query))}, params
    ${ids ? sql`` : sql`order by b.start_time, b.id`}`.execute(trx));
  return rows;
}

/** Rendered records by zone and row version, shared by every answer that holds the same rows. */
export type RecordCache = { get(key: string): Buffer | undefined; set(key: string, record: Buffer): unknown };

const [openBracket, closeBracket, emptyArray] = ['[', ']', '[]'].map((text) => Buffer.from(text)) as [Buffer, Buffer, Buffer];

/** A record as kept: with the comma that precedes it in an array (the first record's is left out). */
const keptRecord = (record: string) => Buffer.from(`,${record}`);

/** A JSON array of kept records, in order, as parts to concatenate once (with whatever surrounds the array). */
function jsonArrayParts(records: readonly Buffer[]): Buffer[] {
  if (records.length === 0) return [emptyArray];
  return [openBracket, records[0]!.subarray(1), ...records.slice(1), closeBracket];
}

/** Attempts at reusing records before the whole schedule is rendered in one statement. */
const reuseAttempts = 3;

/**
 * The `bookings` array of a schedule as JSON bytes (findScheduledBookings' selection and order), in
 * parts to be concatenated once with the rest of the answer. The rows' versions are listed first;
 * only records not in `cache` are rendered, then kept. A row written between the listing and the
 * rendering comes back with another version: the listing is taken again. The answer is always the
 * rows of one listing, each as it was then.
 */
export async function renderScheduleBookings(db: Database, query: ScheduleSelection, cache: RecordCache): Promise<Buffer[]> {
  for (let attempt = 0; attempt < reuseAttempts; attempt++) {
    const versions = await listRowVersions(db, query);
    const records: (Buffer | undefined)[] = versions.map((version) => cache.get(version));
    const missing = versions.filter((_, i) => records[i] === undefined);
    if (missing.length) {
      const idStart = zonePrefixOf(query.timeZone).length;
      const fresh = new Map((await renderRecords(db, query, missing.map((version) => version.slice(idStart, version.indexOf(' ', idStart))))).map((r) => [r.version, r.record]));
      versions.forEach((version, i) => {
        const record = fresh.get(version);
        if (record === undefined || records[i] !== undefined) return;
        records[i] = keptRecord(record);
        cache.set(version, records[i]);
      });
    }
    if (records.every((record): record is Buffer => record !== undefined)) return jsonArrayParts(records);
  }
  const rendered = await renderRecords(db, query, null);
  return jsonArrayParts(rendered.map((r) => keptRecord(r.record)));
}

/**
 * Instants (epoch milliseconds) written by the same SQL as the schedule's times, in order: lets the
 * caller check that the server's zone rules agree with the service's before trusting them.
 */
export async function renderTimesInSql(db: Database, epochMs: readonly number[], timeZone?: string): Promise<string[]> {
  const time = sql.raw(quotedTime('t.at', timeZone !== undefined));
  const { rows } = await inAnswerZone(db, timeZone, (trx) => sql<{ text: string }>`
    select ${time} as text
    from unnest(${epochMs.map((ms) => new Date(ms).toISOString())}::timestamptz[]) with ordinality as t(at, n)
    order by t.n`.execute(trx));
  return rows.map((r) => JSON.parse(r.text) as string);
}

// The revisions of the streams of the resources sharing one with it (contract §22) follow its own:
// a booking of a part changes its whole's schedule too.
const scheduleHead = compileOnce(sql`
  select r.id, r.workspace, r.units, coalesce(s.stream_revision, -1)::text || coalesce((
      select string_agg('.' || coalesce(shared.stream_revision, -1)::text, '' order by sharing.id)
      from unnest(sharing_resources(r.id)) as sharing (id) left join streams shared on shared.stream_id = 'resource-' || sharing.id::text), '') as revision
  from resources r left join streams s on s.stream_id = ${holesOf().streamId}
  where r.id = ${holesOf().id} and r.deleted_at is null`);

/**
 * A live resource's id, workspace, units and the revisions of the streams its schedule reads (its
 * own, then those of the resources sharing one with it), as one text (null: not found or removed).
 */
export async function findScheduleHead(db: Executor, bookableResourceId: string): Promise<{ id: string; workspace: string; units: number; revision: string } | null> {
  const { rows } = await db.executeQuery<{ id: string; workspace: string; units: number; revision: string }>(
    scheduleHead.fill({ id: bookableResourceId, streamId: resourceStreamId(bookableResourceId.toLowerCase()) }),
  );
  const row = rows[0];
  return row ? { id: row.id, workspace: row.workspace, units: row.units, revision: row.revision } : null;
}
