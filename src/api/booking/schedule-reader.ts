import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Temporal } from 'temporal-polyfill';
import { canSeeWorkspace, isAdmin, isSystemAdmin, type Principal } from '../../domain/access/principal.js';
import { canSeeBooking } from '../../domain/booking/booking-access.js';
import type { Booking, BookingStatus } from '../../domain/booking/booking.js';
import { utcText, utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import { usageRuns } from '../../domain/booking/unit-use.js';
import { notFound } from '../../domain/domain-error.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import type { Database, Executor } from '../../infra/db/database.js';
import { findScheduledBookings } from '../../projections/booking/booking-queries.js';
import { findResourceWithBusyTimes } from '../../projections/booking/busy-times.js';
import { findScheduleHead, renderScheduleBookings, type ScheduleSelection, type ScheduleView } from '../../projections/booking/schedule-json.js';
import { anonymousBookingJson, bookingJson, timeJson } from './booking-json.js';
import { sqlWritesZone } from './zone-agreement.js';

/** Where a schedule is read: `db` (a replica or the primary, contract §19); the per-zone check runs once per process on the primary. */
export type ScheduleSources = { db: Database; primary: Database };

/** A schedule asked for (contract §7), as the router parsed it. */
export type ScheduleRequest = {
  /** The resource's uuid as the path gave it. */
  resourceId: string;
  reader: Principal;
  from: Temporal.Instant;
  to: Temporal.Instant;
  /** Canonical; undefined: UTC, times with Z. */
  timeZone: string | undefined;
  statuses: readonly BookingStatus[];
  /** Whether the client holds this entity tag already (If-None-Match). */
  clientHolds: (tag: string) => boolean;
  /** Whether the client takes a gzipped body. */
  acceptsGzip: boolean;
};

/** The answer: its strong validator, and the body unless the client holds it; `gzipped` bytes are the body compressed. */
export type ScheduleAnswer = { tag: string } & ({ notModified: true } | { notModified: false; body: Buffer; gzipped: boolean });

/** What canSeeBooking decides on: the SQL rendering applies the same rule. */
const scheduleView = (actor: Principal): ScheduleView => ({
  allWorkspaces: isSystemAdmin(actor),
  workspace: actor.workspace,
  everyBooker: isAdmin(actor),
  sub: actor.sub,
});

/** Unambiguous whatever a token's sub holds (a sub "*" must not pass for "every booker"). */
const viewKey = (view: ScheduleView) => JSON.stringify([view.allWorkspaces ? null : view.workspace, view.everyBooker ? null : view.sub]);

type RenderedAnswer = { revision: string; body: Buffer; gzipped?: Promise<Buffer> };

/**
 * Rendered schedules by everything an answer is a function of except the revision, which the
 * entry holds: every change to a resource's bookings is an event on its stream, so an entry of the
 * current revision is the answer. Bounded by size; one answer of 3,000 bookings is about 2 MB.
 */
const answers = boundedCache<string, RenderedAnswer>('schedule-answers', {
  maxBytes: 64 * 2 ** 20,
  // Room for the gzipped copy, made at the first hit that accepts it (an order of magnitude smaller).
  bytesOf: (entry) => Math.ceil(entry.body.length * 1.2) + 64,
});

/**
 * Booking records as rendered for a zone and view, by row version: most survive a write to the
 * resource. At most 200,000 records of about 700 bytes, looked up by the thousand per answer.
 */
const records = boundedCache<string, Buffer>('schedule-records', { maxEntries: 200_000, generations: true });

/**
 * Renderings under way, by tag and key: readers of one schedule arriving together (after a write)
 * share one. Not a cache: an entry lives only while its rendering runs.
 */
const renderings = new Map<string, Promise<Buffer>>();

const gzip = promisify(zlib.gzip);
const closingBrace = Buffer.from('}');

/** Strong validators, equal for byte-equal answers (same key, same revision): the plain one and the gzipped one's. */
function entityTags(key: string, revision: string): { plain: string; gzip: string } {
  const hash = createHash('sha1').update(`${key}|${revision}`).digest('base64url');
  return { plain: `"${hash}"`, gzip: `"${hash}-gzip"` };
}

const instantJson = (instant: Temporal.Instant, timeZone?: string) => timeJson(utcText(instant), timeZone);

/** The schedule as Node renders it: for zones the server writes differently (sqlWritesZone). */
async function scheduleBookingsInNode(db: Executor, reader: Principal, query: ScheduleSelection): Promise<string> {
  const bookings = await findScheduledBookings(db, query.bookableResourceId, query.from, query.to, query.statuses);
  const { timeZone } = query;
  // Contract §22: the resource booked, where it is another that shares one with this one.
  const via = (b: Booking) => ({ viaResourceId: b.bookableResourceId === query.bookableResourceId ? null : b.bookableResourceId });
  return JSON.stringify(bookings.map((b) => ({ ...(canSeeBooking(reader, b) ? bookingJson(b, timeZone) : anonymousBookingJson(b, timeZone)), ...via(b) })));
}

/** A pool's `usage` member (contract §21): the runs of constant use inside the range, in the answer's zone. */
async function usageMember(db: Executor, query: ScheduleSelection): Promise<string> {
  const { bookableResourceId, from, to, timeZone } = query;
  const found = await findResourceWithBusyTimes(db, bookableResourceId, from, to);
  const runs = found ? usageRuns(found.busy, from.epochMilliseconds, to.epochMilliseconds) : [];
  const usage = runs.map((run) => ({
    startTime: timeJson(utcTextOfEpochMs(run.startMs), timeZone),
    endTime: timeJson(utcTextOfEpochMs(run.endMs), timeZone),
    usedUnits: run.units,
  }));
  return `,"usage":${JSON.stringify(usage)}`;
}

/** The answer's bytes, its records rendered by PostgreSQL where its zone rules agree with Node's; a pool's with its usage. */
async function render({ db, primary }: ScheduleSources, reader: Principal, query: ScheduleSelection, units: number): Promise<Buffer> {
  const { bookableResourceId, from, to, timeZone } = query;
  const [bookings, usage] = await Promise.all([
    timeZone === undefined || sqlWritesZone(primary, timeZone)
      ? renderScheduleBookings(db, query, records)
      : scheduleBookingsInNode(db, reader, query).then((text) => [Buffer.from(text)]),
    units > 1 ? usageMember(db, query) : '',
  ]);
  const opening = `{"resourceId":${JSON.stringify(bookableResourceId)},"from":${JSON.stringify(instantJson(from, timeZone))},"to":${JSON.stringify(instantJson(to, timeZone))},"timeZone":${JSON.stringify(timeZone ?? 'UTC')},"bookings":`;
  // Kept as bytes (one copy of the parts): a cache hit sends them without encoding 2 MB of text again.
  return Buffer.concat([Buffer.from(opening), ...bookings, Buffer.from(usage), closingBrace]);
}

/**
 * A resource's schedule: 404 unless the reader sees the resource's workspace; not modified when
 * the client holds the answer's tag; else the answer kept for this revision (gzipped once, off the
 * event loop, for a client that takes it) or rendered afresh and kept.
 */
export async function readSchedule(sources: ScheduleSources, request: ScheduleRequest): Promise<ScheduleAnswer> {
  const { reader, from, to, timeZone, statuses } = request;
  const head = await findScheduleHead(sources.db, request.resourceId);
  if (!head || !canSeeWorkspace(reader, head.workspace)) throw notFound('resource');
  const bookableResourceId = head.id;
  const view = scheduleView(reader);
  const key = [bookableResourceId, from.epochMilliseconds, to.epochMilliseconds, timeZone ?? '', statuses.join(','), viewKey(view)].join('|');
  // The revision is read before the bookings: an answer is never older than its tag.
  const tags = entityTags(key, head.revision);
  const held = [tags.plain, tags.gzip].find(request.clientHolds);
  if (held) return { tag: held, notModified: true };
  const kept = answers.get(key, (entry) => entry.revision === head.revision);
  if (kept) {
    if (!request.acceptsGzip) return { tag: tags.plain, notModified: false, body: kept.body, gzipped: false };
    kept.gzipped ??= gzip(kept.body);
    return { tag: tags.gzip, notModified: false, body: await kept.gzipped, gzipped: true };
  }
  const renderKey = `${tags.plain}|${key}`;
  let rendering = renderings.get(renderKey);
  if (!rendering) {
    rendering = render(sources, reader, { bookableResourceId, from, to, statuses, timeZone, view }, head.units)
      .then((body) => {
        answers.set(key, { revision: head.revision, body });
        return body;
      })
      .finally(() => renderings.delete(renderKey));
    renderings.set(renderKey, rendering);
  }
  return { tag: tags.plain, notModified: false, body: await rendering, gzipped: false };
}
