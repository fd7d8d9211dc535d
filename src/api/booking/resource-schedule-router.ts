import { createHash } from 'node:crypto';
import { Router } from 'express';
import { LRUCache } from 'lru-cache';
import { Temporal } from 'temporal-polyfill';
import { loadVisibleResource } from '../../commands/resource/load-visible-resource.js';
import { canSeeWorkspace, isAdmin, type Principal } from '../../domain/access/principal.js';
import { activeStatuses, type BookingStatus } from '../../domain/booking/booking.js';
import { canSeeBooking } from '../../domain/booking/booking-access.js';
import { parseClientInstant, utcText, utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import { availableSlots, calendarDay } from '../../domain/booking/available-slots.js';
import { invalidRequest, notFound } from '../../domain/domain-error.js';
import { canonicalTimeZone } from '../../domain/time/time-zone.js';
import type { Database, Executor } from '../../infra/db/database.js';
import { findScheduledBookings } from '../../projections/bookings/booking-queries.js';
import { findBusyTimes } from '../../projections/bookings/busy-times.js';
import { findScheduleHead, renderScheduleBookings, renderTimesInSql, type ScheduleView } from '../../projections/bookings/schedule-json.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { anonymousBookingJson, bookingJson, timeJson } from './booking-json.js';

const maxRangeDays = 366;

/** The zone of an answer's times: a canonical IANA name, or undefined for UTC with Z. */
export function answerZone(tz: unknown): string | undefined {
  if (tz === undefined) return undefined;
  const zone = canonicalTimeZone(String(tz));
  if (!zone) throw invalidRequest(`unknown time zone "${String(tz)}"`, '/query/tz');
  return zone;
}

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
const rendered = new LRUCache<string, { revision: number; body: Buffer }>({ maxSize: 64 * 2 ** 20, sizeCalculation: (entry) => entry.body.length + 64 });

const renderings = new Map<string, Promise<Buffer>>();

/** A strong validator: equal for byte-equal answers (same key, same revision). */
const entityTag = (key: string, revision: number) => `"${createHash('sha1').update(`${key}|${revision}`).digest('base64url')}"`;

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
    const query = req.query as { from: string; to: string; tz?: string; status?: BookingStatus | BookingStatus[] };
    const from = parseClientInstant(query.from, '/query/from');
    const to = parseClientInstant(query.to, '/query/to');
    const timeZone = answerZone(query.tz);
    if (Temporal.Instant.compare(to, from) <= 0) throw invalidRequest('to must be after from', '/query/to');
    if (Temporal.Instant.compare(to, from.add({ hours: maxRangeDays * 24 })) > 0) {
      throw invalidRequest(`the range may span at most ${maxRangeDays} days`, '/query/to');
    }
    const statuses = query.status === undefined ? activeStatuses : ([] as BookingStatus[]).concat(query.status);
    const head = await findScheduleHead(services.db, req.params.id);
    if (!head || !canSeeWorkspace(actor, head.workspace)) throw notFound('resource');
    const bookableResourceId = head.id;

    const view = scheduleView(actor);
    const key = [bookableResourceId, from.epochMilliseconds, to.epochMilliseconds, timeZone ?? '', statuses.join(','), viewKey(view)].join('|');
    // The revision is read before the bookings: an answer is never older than its tag.
    const tag = entityTag(key, head.revision);
    res.set('ETag', tag);
    if (matchesTag(req.get('if-none-match'), tag)) {
      res.status(304).end();
      return;
    }
    const cached = rendered.get(key);
    let body = cached?.revision === head.revision ? cached.body : undefined;
    if (body === undefined) {
      // Readers of one schedule arriving together (after a write) share one rendering.
      const renderKey = `${tag}|${key}`;
      let rendering = renderings.get(renderKey);
      if (!rendering) {
        rendering = (async () => {
          const renderQuery = { bookableResourceId, from, to, statuses, timeZone, view };
          const bookings =
            timeZone === undefined || sqlWritesZone(services.db, timeZone)
              ? await renderScheduleBookings(services.db, renderQuery)
              : await scheduleBookingsInNode(services.db, actor, renderQuery);
          const opening = `{"resourceId":${JSON.stringify(bookableResourceId)},"from":${JSON.stringify(instantJson(from, timeZone))},"to":${JSON.stringify(instantJson(to, timeZone))},"timeZone":${JSON.stringify(timeZone ?? 'UTC')}`;
          // Kept as bytes: a cache hit sends them without encoding 2 MB of text again.
          const bytes = Buffer.from(`${opening},"bookings":${bookings}}`);
          rendered.set(key, { revision: head.revision, body: bytes });
          return bytes;
        })().finally(() => renderings.delete(renderKey));
        renderings.set(renderKey, rendering);
      }
      body = await rendering;
    }
    res.set('Content-Type', 'application/json; charset=utf-8').send(body);
  });

  router.get('/:id/available-slots', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as { date: string; tz?: string; slotMinutes?: number | string };
    const date = calendarDate(query.date);
    const timeZone = answerZone(query.tz);
    const slotMinutes = Number(query.slotMinutes ?? 30);
    const resource = await loadVisibleResource(services.db, actor, req.params.id);
    const day = calendarDay(date, timeZone ?? 'UTC');
    const busy = await findBusyTimes(services.db, resource.id, day.start, day.end);
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
