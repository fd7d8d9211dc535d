import { Router } from 'express';
import { Temporal } from 'temporal-polyfill';
import { canSeeWorkspace } from '../../domain/access/principal.js';
import { utcText } from '../../domain/booking/booking-time.js';
import { availableSlots, calendarDay } from '../../domain/booking/available-slots.js';
import { invalidRequest, notFound } from '../../domain/domain-error.js';
import { unitsRefusal } from '../../domain/booking/unit-use.js';
import { checkUnits } from '../../domain/resource/resource-units.js';
import { timeJson } from './booking-json.js';
import { findResourceWithBusyTimes } from '../../projections/booking/busy-times.js';
import { readSchedule } from './schedule-reader.js';
import type { Services } from '../../services.js';
import { principalOf } from '../authenticate.js';
import { clientHoldsOf, sendTagged } from '../conditional-get.js';
import { answerZone, parseScheduleQuery } from './schedule-query.js';
import { readSideOf } from '../route-reads.js';

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
    const answer = await readSchedule({ db: readSideOf(res).db, primary: services.db }, {
      resourceId: req.params.id,
      reader: principalOf(res),
      ...parseScheduleQuery(req.query),
      clientHolds: clientHoldsOf(req),
      acceptsGzip: req.acceptsEncodings('gzip') === 'gzip',
    });
    res.set('Vary', 'Accept-Encoding');
    const gzipped = !answer.notModified && answer.gzipped;
    sendTagged(res, answer, { 'Content-Type': 'application/json; charset=utf-8', ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}) });
  });

  router.get('/:id/available-slots', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as { date: string; tz?: string; slotMinutes?: number | string; units?: number | string };
    const date = calendarDate(query.date);
    const timeZone = answerZone(query.tz);
    const slotMinutes = Number(query.slotMinutes ?? 30);
    const units = checkUnits(Number(query.units ?? 1), '/query/units');
    const day = calendarDay(date, timeZone ?? 'UTC');
    const found = await findResourceWithBusyTimes(readSideOf(res).db, req.params.id, day.start, day.end);
    if (!found || !canSeeWorkspace(actor, found.resource.workspace)) throw notFound('resource');
    const { resource, busy } = found;
    const tooMany = unitsRefusal(resource, units);
    if (tooMany) throw tooMany;
    const earliestStart = services.now().add({ minutes: resource.bookingPolicy.minNoticeMinutes });
    const slots = availableSlots({ resource, day, slotMinutes, busy, earliestStart, units });
    res.json({
      resourceId: resource.id,
      date: date.toString(),
      timeZone: timeZone ?? 'UTC',
      slotMinutes,
      units,
      slots: slots.map((slot) => ({ startTime: instantJson(slot.start, timeZone), endTime: instantJson(slot.end, timeZone), availableUnits: slot.availableUnits })),
    });
  });

  return router;
}
