import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Router } from 'express';
import { LRUCache } from 'lru-cache';
import { Temporal } from 'temporal-polyfill';
import { canSeeWorkspace, isAdmin, type Principal } from '../../domain/access/principal.js';
import { canSeeBooking } from '../../domain/booking/booking-access.js';
import { utcText, utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import { availableSlots, calendarDay } from '../../domain/booking/available-slots.js';
import { invalidRequest, notFound } from '../../domain/domain-error.js';
import type { Database, Executor } from '../../infra/db/database.js';
import { findScheduledBookings } from '../../projections/booking/booking-queries.js';
import { findResourceWithBusyTimes } from '../../projections/booking/busy-times.js';
import { findScheduleHead, renderScheduleBookings, renderTimesInSql, type ScheduleView } from '../../projections/booking/schedule-json.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { anonymousBookingJson, bookingJson, timeJson } from './booking-json.js';
import { answerZone, parseScheduleQuery } from './schedule-query.js';
import { twoGenerationCache } from './two-generation-cache.js';
import { readSideOf } from '../route-reads.js';

function calendarDate(text: string): Temporal.PlainDate {
  try {
    return Temporal.PlainDate.from(text, { overflow: 'reject' });
  } catch {
    throw invalidRequest(`${text} is not a calendar date YYYY-MM-DD`, '/query/date');
  }
}

const instantJson = (instant: Temporal.Instant, timeZone?: string) => timeJson(utcText(instant), timeZone);

/** What canSeeBooking decides on: the SQL rendering applies the same rule. */
const scheduleView = (actor: Principal): ScheduleView => ({
  allWorkspaces: actor.level === 1,
  workspace: actor.workspace,
  everyBooker: isAdmin(actor),
  sub: actor.sub,
});

/** Unambiguous whatever a token's sub holds (a sub "*" must not pass for "every booker"). */
const viewKey = (view: ScheduleView) => JSON.stringify([view.allWorkspaces ? null : view.workspace, view.everyBooker ? null : view.sub]);

/**
 * Rendered schedules by everything an answer is a function of except the revision, which the
 * entry holds: every change to a resource's bookings is an event on its stream, so an entry of the
 * current revision is the answer. Bounded by size; one answer of 3,000 bookings is about 2 MB.
 */
const rendered = new LRUCache<string, { revision: number; body: Buffer; gzipped?: Promise<Buffer> }>({
  maxSize: 64 * 2 ** 20,
  // Room for the gzipped copy, made at the first hit that accepts it (an order of magnitude smaller).
  sizeCalculation: (entry) => Math.ceil(entry.body.length * 1.2) + 64,
});

/**
 * Booking records as rendered for a zone and view, by row version: most survive a write to the
 * resource. At most 200,000 records of about 700 bytes.
 */
const records = twoGenerationCache<Buffer>(100_000);

const gzip = promisify(zlib.gzip);

const renderings = new Map<string, Promise<Buffer>>();
const closingBrace = Buffer.from('}');

/** Strong validators, equal for byte-equal answers (same key, same revision): the plain one and the gzipped one's. */
function entityTags(key: string, revision: number): { plain: string; gzip: string } {
  const hash = createHash('sha1').update(`${key}|${revision}`).digest('base64url');
  return { plain: `"${hash}"`, gzip: `"${hash}-gzip"` };
}

/** If-None-Match holds `tag` or `*` (weak comparison, RFC 9110 13.1.2). */
const matchesTag = (header: string | undefined, tag: string) =>
  header !== undefined && header.split(',').some((listed) => ['*', tag].includes(listed.trim().replace(/^W\//, '')));

const zoneSamplesUntil = Date.UTC(2100, 0, 1);

/**
 * Whether PostgreSQL's zone rules write the instants of `zone` exactly as the service's (ICU via
 * Temporal) do: both sides of every transition from 1970 to 2100, checked once per zone and
 * process. Until the check has passed (it takes a few hundred ms: Temporal is slow at finding
 * transitions) and for a zone the server does not know or writes differently, schedules are
 * rendered in Node as before.
 */
const zoneAgreement = new Map<string, boolean | 'checking'>();
function sqlWritesZone(db: Database, zone: string): boolean {
  const known = zoneAgreement.get(zone);
  if (known !== undefined) return known === true;
  zoneAgreement.set(zone, 'checking');
  void (async () => {
    const samples = [Date.UTC(1970, 0, 1, 0, 0, 0, 7), Date.UTC(2026, 6, 1, 12, 30, 15, 120)];
    const first = Temporal.Instant.fromEpochMilliseconds(samples[0]!).toZonedDateTimeISO(zone);
    for (let next = first.getTimeZoneTransition('next'); next && next.epochMilliseconds < zoneSamplesUntil; next = next.getTimeZoneTransition('next')) {
      samples.push(next.epochMilliseconds - 1, next.epochMilliseconds);
    }
    const written = await renderTimesInSql(db, samples, zone);
    return samples.every((ms, i) => written[i] === timeJson(utcTextOfEpochMs(ms), zone));
  })().then(
    (agreed) => zoneAgreement.set(zone, agreed),
    () => zoneAgreement.set(zone, false),
  );
  return false;
}

/** The schedule as Node rendered it before PostgreSQL did: for zones the server writes differently. */
async function scheduleBookingsInNode(db: Executor, actor: Principal, query: Parameters<typeof renderScheduleBookings>[1]): Promise<string> {
  const bookings = await findScheduledBookings(db, query.bookableResourceId, query.from, query.to, query.statuses);
  const { timeZone } = query;
  return JSON.stringify(bookings.map((b) => (canSeeBooking(actor, b) ? bookingJson(b, timeZone) : anonymousBookingJson(b, timeZone))));
}

/** GET /resources/{id}/schedule and /resources/{id}/available-slots (contract §7). */
export function resourceScheduleRouter(services: Services): Router {
  const router = Router();

  router.get('/:id/schedule', async (req, res) => {
    const actor = principalOf(res);
    const { from, to, timeZone, statuses } = parseScheduleQuery(req.query);
    const head = await findScheduleHead(readSideOf(res).db, req.params.id);
    if (!head || !canSeeWorkspace(actor, head.workspace)) throw notFound('resource');
    const bookableResourceId = head.id;

    const view = scheduleView(actor);
    const key = [bookableResourceId, from.epochMilliseconds, to.epochMilliseconds, timeZone ?? '', statuses.join(','), viewKey(view)].join('|');
    // The revision is read before the bookings: an answer is never older than its tag.
    const tags = entityTags(key, head.revision);
    res.set('Vary', 'Accept-Encoding');
    const ifNoneMatch = req.get('if-none-match');
    const matched = [tags.plain, tags.gzip].find((tag) => matchesTag(ifNoneMatch, tag));
    if (matched) {
      res.set('ETag', matched).status(304).end();
      return;
    }
    res.set('Content-Type', 'application/json; charset=utf-8');
    const cached = rendered.get(key);
    if (cached?.revision === head.revision) {
      if (req.acceptsEncodings('gzip') === 'gzip') {
        // Compressed once per answer, off the event loop: later hits write the stored bytes.
        cached.gzipped ??= gzip(cached.body);
        res.set({ ETag: tags.gzip, 'Content-Encoding': 'gzip' }).send(await cached.gzipped);
        return;
      }
      res.set('ETag', tags.plain).send(cached.body);
      return;
    }
    // Readers of one schedule arriving together (after a write) share one rendering.
    const renderKey = `${tags.plain}|${key}`;
    let rendering = renderings.get(renderKey);
    if (!rendering) {
      rendering = (async () => {
        const renderQuery = { bookableResourceId, from, to, statuses, timeZone, view };
        const bookings =
          timeZone === undefined || sqlWritesZone(services.db, timeZone)
            ? await renderScheduleBookings(readSideOf(res).db, renderQuery, records)
            : [Buffer.from(await scheduleBookingsInNode(readSideOf(res).db, actor, renderQuery))];
        const opening = `{"resourceId":${JSON.stringify(bookableResourceId)},"from":${JSON.stringify(instantJson(from, timeZone))},"to":${JSON.stringify(instantJson(to, timeZone))},"timeZone":${JSON.stringify(timeZone ?? 'UTC')},"bookings":`;
        // Kept as bytes (one copy of the parts): a cache hit sends them without encoding 2 MB of text again.
        const body = Buffer.concat([Buffer.from(opening), ...bookings, closingBrace]);
        rendered.set(key, { revision: head.revision, body });
        return body;
      })().finally(() => renderings.delete(renderKey));
      renderings.set(renderKey, rendering);
    }
    res.set('ETag', tags.plain).send(await rendering);
  });

  router.get('/:id/available-slots', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as { date: string; tz?: string; slotMinutes?: number | string };
    const date = calendarDate(query.date);
    const timeZone = answerZone(query.tz);
    const slotMinutes = Number(query.slotMinutes ?? 30);
    const day = calendarDay(date, timeZone ?? 'UTC');
    const found = await findResourceWithBusyTimes(readSideOf(res).db, req.params.id, day.start, day.end);
    if (!found || !canSeeWorkspace(actor, found.resource.workspace)) throw notFound('resource');
    const { resource, busy } = found;
    const earliestStart = services.now().add({ minutes: resource.bookingPolicy.minNoticeMinutes });
    const slots = availableSlots({ resource, day, slotMinutes, busy, earliestStart });
    res.json({
      resourceId: resource.id,
      date: date.toString(),
      timeZone: timeZone ?? 'UTC',
      slotMinutes,
      slots: slots.map((slot) => ({ startTime: instantJson(slot.start, timeZone), endTime: instantJson(slot.end, timeZone) })),
    });
  });

  return router;
}
