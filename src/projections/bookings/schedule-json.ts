import { sql, type RawBuilder } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { BookingStatus } from '../../domain/booking/booking.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';

/**
 * Schedules rendered by PostgreSQL: every booking record of an answer becomes JSON text in SQL,
 * with its times formatted in SQL, and the array travels to the client as it comes. No timestamp
 * is parsed into a Date, formatted back, or stringified again in Node.
 *
 * The text must equal, byte for byte, what JSON.stringify(bookingJson(...)) writes
 * (src/api/booking/booking-json.ts); tests/projections/schedule-json.test.ts compares the two.
 * A field added to the booking record is added in `bookingRecordJson` below, in the same place
 * of the order as in bookingJson.
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
 * An instant as the answers write it, as SQL over the expression `t` (a timestamptz): UTC with Z,
 * or with `params.tz` the wall-clock time of that zone and its offset. Milliseconds are kept
 * (the driver truncated to them), the fraction only when there is one, trailing zeros dropped; an
 * offset that is not whole minutes (historic local mean time) is rounded to minutes as Temporal does.
 */
function timeText(t: string, zoned: boolean): string {
  const ms = `date_trunc('milliseconds', ${t})`;
  const fraction = (local: string) => `rtrim(rtrim(to_char(${local}, '.MS'), '0'), '.')`;
  if (!zoned) {
    const utc = `(${ms} at time zone 'UTC')`;
    return `to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS') || ${fraction(utc)} || 'Z'`;
  }
  const local = `(${ms} at time zone params.tz)`;
  const offsetMinutes = `round(extract(epoch from ${local} - (${ms} at time zone 'UTC')) / 60)::int`;
  const offset = `case when ${offsetMinutes} < 0 then '-' else '+' end || to_char(abs(${offsetMinutes}) / 60, 'FM00') || ':' || to_char(abs(${offsetMinutes}) % 60, 'FM00')`;
  return `to_char(${local}, 'YYYY-MM-DD"T"HH24:MI:SS') || ${fraction(local)} || ${offset}`;
}

const quotedTime = (t: string, zoned: boolean) => `'"' || ${timeText(t, zoned)} || '"'`;
const timeOrNull = (t: string, zoned: boolean) => `case when ${t} is null then 'null' else ${quotedTime(t, zoned)} end`;
/** to_json escapes as JSON.stringify does (", \, \b \f \n \r \t, other controls as \u00xx). */
const value = (column: string) => `coalesce(to_json(${column})::text, 'null')`;

/**
 * The one place where a booking row `b` becomes its record (spec 2.2 plus exceptionOf), fields in
 * bookingJson's order; `visible` false writes the anonymous record of anonymousBookingJson.
 */
function bookingRecordJson(zoned: boolean): string {
  const visible = `((params.all_workspaces or b.workspace::text = params.workspace) and (params.every_booker or b.booker_profile_id = params.sub))`;
  const privateValue = (column: string) => `case when ${visible} then ${value(column)} else 'null' end`;
  const fields: [string, string][] = [
    ['id', value('b.id')],
    ['resourceId', value('b.resource_id')],
    ['resourceType', value('b.resource_type')],
    ['workspace', value('b.workspace')],
    ['bookerProfileId', privateValue('b.booker_profile_id')],
    ['bookerEmail', privateValue('b.booker_email')],
    ['title', privateValue('b.title')],
    ['startTime', quotedTime('b.start_time', zoned)],
    ['endTime', quotedTime('b.end_time', zoned)],
    ['status', value('b.status')],
    ['recurrenceRule', value('b.recurrence_rule')],
    ['recurrenceParentId', value('b.recurrence_parent_id')],
    ['exceptionOf', value('b.exception_of')],
    ['confirmedBy', privateValue('b.confirmed_by')],
    ['confirmedAt', timeOrNull('b.confirmed_at', zoned)],
    ['cancelledBy', privateValue('b.cancelled_by')],
    ['cancelledAt', timeOrNull('b.cancelled_at', zoned)],
    ['reason', privateValue('b.reason')],
    ['checkedInAt', timeOrNull('b.checked_in_at', zoned)],
    ['checkedOutAt', timeOrNull('b.checked_out_at', zoned)],
    ['createdAt', quotedTime('b.created_at', zoned)],
    ['updatedAt', quotedTime('b.updated_at', zoned)],
  ];
  return `'{' || ${fields.map(([name, text], i) => `'${i ? ',' : ''}"${name}":' || ${text}`).join(' || ')} || '}'`;
}

// Built once: the SQL text depends only on whether the answer has a zone.
const recordSql = { utc: sql.raw(bookingRecordJson(false)), zoned: sql.raw(bookingRecordJson(true)) };

const params = (timeZone: string | undefined, view: ScheduleView): RawBuilder<unknown> =>
  sql`select ${timeZone ?? null}::text as tz, ${view.allWorkspaces}::boolean as all_workspaces, ${view.workspace}::text as workspace,
    ${view.everyBooker}::boolean as every_booker, ${view.sub}::text as sub`;

/**
 * The `bookings` array of a schedule as JSON text: bookings of the resource overlapping [from, to)
 * in `statuses`, series parents aside, by start and id (findScheduledBookings' selection).
 */
export async function renderScheduleBookings(
  db: Executor,
  query: { bookableResourceId: string; from: Temporal.Instant; to: Temporal.Instant; statuses: readonly BookingStatus[]; timeZone?: string; view: ScheduleView },
): Promise<string> {
  const { rows } = await sql<{ bookings: string }>`
    with params as (${params(query.timeZone, query.view)})
    select coalesce('[' || string_agg(${query.timeZone ? recordSql.zoned : recordSql.utc}, ',' order by b.start_time, b.id) || ']', '[]') as bookings
    from bookings b, params
    where b.bookable_resource_id = ${query.bookableResourceId}
      and b.status = any(${[...query.statuses]}::text[])
      and not b.is_series_parent
      and tstzrange(b.start_time, b.end_time, '[)') && tstzrange(${query.from.toString()}::timestamptz, ${query.to.toString()}::timestamptz, '[)')`.execute(db);
  return rows[0]!.bookings;
}

/**
 * Instants (epoch milliseconds) written by the same SQL as the schedule's times, in order: lets the
 * caller check that the server's zone rules agree with the service's before trusting them.
 */
export async function renderTimesInSql(db: Executor, epochMs: readonly number[], timeZone?: string): Promise<string[]> {
  const time = sql.raw(timeText('t.at', timeZone !== undefined));
  const { rows } = await sql<{ text: string }>`
    with params as (select ${timeZone ?? null}::text as tz)
    select ${time} as text
    from params, unnest(${epochMs.map((ms) => new Date(ms).toISOString())}::timestamptz[]) with ordinality as t(at, n)
    order by t.n`.execute(db);
  return rows.map((r) => r.text);
}

/** A live resource's id, workspace and the last revision of its stream (null: not found or removed). */
export async function findScheduleHead(db: Executor, bookableResourceId: string): Promise<{ id: string; workspace: string; revision: number } | null> {
  const row = await db
    .selectFrom('resources')
    .leftJoin('streams', (join) => join.on('streams.stream_id', '=', resourceStreamId(bookableResourceId.toLowerCase())))
    .select(['resources.id', 'resources.workspace', 'streams.stream_revision'])
    .where('resources.id', '=', bookableResourceId)
    .where('resources.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { id: row.id, workspace: row.workspace, revision: Number(row.stream_revision ?? -1) } : null;
}
