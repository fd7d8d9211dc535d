import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Booking } from '../../domain/booking/booking.js';
import { maxFeedEvents, type FeedWindow } from '../../domain/calendar/calendar-feed.js';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';
import type { BookingRow } from '../../infra/db/tables/bookings.table.js';
import { rowToBooking } from '../booking/booking-row.js';

/**
 * The bookings of a calendar feed (contract §18): series parents aside, overlapping the window,
 * cancelled ones only when cancelled since `cancelledSince`; by start and id, at most
 * maxFeedEvents. Two selections: one resource's (the GiST index over its ranges answers it), and
 * one booker's in a workspace (the btree over workspace, booker and start answers it).
 *
 * A feed's version is the digest of its rows' versions (id and xmin: a new tuple at every write of
 * the row) and of the resources named in it: equal versions are equal rows, so a client holding
 * the feed's ETag is answered 304 after this one aggregate, without reading or rendering a booking.
 */

type WindowArgs = { from: string; to: string; cancelledSince: string };
type ResourceArgs = WindowArgs & { bookableResourceId: string };
type BookerArgs = WindowArgs & { sub: string; workspace: string | null };

const shown = (w: Holes<WindowArgs>) => sql`not b.is_series_parent and (b.status <> 'cancelled' or b.cancelled_at >= ${w.cancelledSince}::timestamptz)`;

const ofResource = (a: Holes<ResourceArgs>) => sql`
  b.bookable_resource_id = ${a.bookableResourceId}::uuid and ${shown(a)}
  and tstzrange(b.start_time, b.end_time, '[)') && tstzrange(${a.from}::timestamptz, ${a.to}::timestamptz, '[)')`;

const ofBooker = (a: Holes<BookerArgs>, anyWorkspace: boolean) => sql`
  ${anyWorkspace ? sql`true` : sql`b.workspace = ${a.workspace}::uuid`} and b.booker_profile_id = ${a.sub} and ${shown(a)}
  and b.start_time < ${a.to}::timestamptz and b.end_time > ${a.from}::timestamptz`;

const limit = sql.raw(String(maxFeedEvents));

/** The selection's rows with the resource each is on, by start and id, capped. */
const selected = (where: RawBuilder<unknown>, columns: RawBuilder<unknown>) => sql`
  select ${columns}, b.start_time as sort_start, b.id as sort_id
  from bookings b join resources r on r.id = b.bookable_resource_id
  where ${where}
  order by b.start_time, b.id
  limit ${limit}`;

const version = sql`b.id::text || ' ' || b.xmin::text || ' ' || r.xmin::text`;
const versionColumns = sql`${version} as version`;
const rowColumns = sql`b.*, coalesce(r.resource_name, r.resource_id) as location, ${version} as version`;

const digestOf = (rows: RawBuilder<unknown>) => sql`
  select count(*)::int as count, coalesce(md5(string_agg(f.version, ',' order by f.sort_start, f.sort_id)), '') as digest from (${rows}) f`;

const r = holesOf() as Holes<ResourceArgs>;
const k = holesOf() as Holes<BookerArgs>;

const statements = {
  resourceVersion: compileOnce(digestOf(selected(ofResource(r), versionColumns))),
  resourceRows: compileOnce(selected(ofResource(r), rowColumns)),
  bookerVersion: compileOnce(digestOf(selected(ofBooker(k, false), versionColumns))),
  bookerRows: compileOnce(selected(ofBooker(k, false), rowColumns)),
  anyWorkspaceBookerVersion: compileOnce(digestOf(selected(ofBooker(k, true), versionColumns))),
  anyWorkspaceBookerRows: compileOnce(selected(ofBooker(k, true), rowColumns)),
};

/** Whose bookings a feed lists: one resource's, or one booker's (in every workspace when `workspace` is null: LV1). */
export type FeedSelection = ({ kind: 'resource'; bookableResourceId: string } | { kind: 'booker'; sub: string; workspace: string | null }) & { window: FeedWindow };

function statementOf(selection: FeedSelection, what: 'Version' | 'Rows') {
  const window: WindowArgs = { from: selection.window.from.toString(), to: selection.window.to.toString(), cancelledSince: selection.window.cancelledSince.toString() };
  if (selection.kind === 'resource') return statements[`resource${what}`].fill({ ...window, bookableResourceId: selection.bookableResourceId });
  const args = { ...window, sub: selection.sub, workspace: selection.workspace };
  return (selection.workspace === null ? statements[`anyWorkspaceBooker${what}`] : statements[`booker${what}`]).fill(args);
}

/** The feed's rows as a count and a digest of their versions: changes whenever what the feed shows may. */
export async function findFeedVersion(db: Executor, selection: FeedSelection): Promise<{ count: number; digest: string }> {
  const { rows } = await db.executeQuery<{ count: number; digest: string }>(statementOf(selection, 'Version'));
  return rows[0]!;
}

export type FeedBookings = {
  /** What findFeedVersion answers for exactly these rows: the version of this answer, not of the next. */
  version: { count: number; digest: string };
  /** The bookings with where each is (the resource's name, else its zone/device id), in feed order. */
  bookings: { booking: Booking; location: string }[];
};

export async function findFeedBookings(db: Executor, selection: FeedSelection): Promise<FeedBookings> {
  const { rows } = await db.executeQuery<BookingRow & { location: string; version: string }>(statementOf(selection, 'Rows'));
  const digest = rows.length ? createHash('md5').update(rows.map((row) => row.version).join(',')).digest('hex') : '';
  return { version: { count: rows.length, digest }, bookings: rows.map((row) => ({ booking: rowToBooking(row), location: row.location })) };
}
