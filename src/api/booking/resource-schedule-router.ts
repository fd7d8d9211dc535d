import { Router } from 'express';
import { Temporal } from 'temporal-polyfill';
import { loadVisibleResource } from '../../commands/resource/load-visible-resource.js';
import { activeStatuses, type BookingStatus } from '../../domain/booking/booking.js';
import { canSeeBooking } from '../../domain/booking/booking-access.js';
import { parseClientInstant, utcText } from '../../domain/booking/booking-time.js';
import { availableSlots, calendarDay } from '../../domain/booking/available-slots.js';
import { invalidRequest } from '../../domain/domain-error.js';
import { canonicalTimeZone } from '../../domain/time/time-zone.js';
import { findActiveOverlapping, findScheduledBookings } from '../../projections/bookings/booking-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { anonymousBookingJson, bookingJson, timeJson } from './booking-json.js';

const maxRangeDays = 366;

/** The zone of an answer's times: a canonical IANA name, or undefined for UTC with Z. */
function answerZone(tz: unknown): string | undefined {
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
    const resource = await loadVisibleResource(services.db, actor, req.params.id);
    const bookings = await findScheduledBookings(services.db, resource.id, from, to, statuses);
    res.json({
      resourceId: resource.id,
      from: instantJson(from, timeZone),
      to: instantJson(to, timeZone),
      timeZone: timeZone ?? 'UTC',
      bookings: bookings.map((b) => (canSeeBooking(actor, b) ? bookingJson(b, timeZone) : anonymousBookingJson(b, timeZone))),
    });
  });

  router.get('/:id/available-slots', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as { date: string; tz?: string; slotMinutes?: number | string };
    const date = calendarDate(query.date);
    const timeZone = answerZone(query.tz);
    const slotMinutes = Number(query.slotMinutes ?? 30);
    const resource = await loadVisibleResource(services.db, actor, req.params.id);
    const day = calendarDay(date, timeZone ?? 'UTC');
    const bookings = await findActiveOverlapping(services.db, resource.id, day.start, day.end);
    const earliestStart = services.now().add({ minutes: resource.bookingPolicy.minNoticeMinutes });
    const slots = availableSlots({ resource, day, slotMinutes, bookings, earliestStart });
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
