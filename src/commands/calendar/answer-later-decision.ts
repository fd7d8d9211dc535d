import { Temporal } from 'temporal-polyfill';
import { randomUUID } from 'node:crypto';
import type { Booking } from '../../domain/booking/booking.js';
import { type CalendarEventEvent, type CalendarEventKey } from '../../domain/calendar/invitation/calendar-event-events.js';
import { decideLaterDecision, type SeriesStanding } from '../../domain/calendar/invitation/later-decision.js';
import { defaultSeriesTimeZone } from '../../domain/booking/series/series-pattern.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import { findBookedResource, findBooking, findSeriesOccurrences } from '../../projections/booking/booking-queries.js';
import type { Executor } from '../../infra/db/database.js';
import { findCalendarEvent, findCalendarEventNameOfUid, type StoredCalendarEvent } from '../../projections/calendar/calendar-event-queries.js';
import type { CommandContext } from '../command-context.js';
import { calendarEventStreamId } from './calendar-event-stream.js';
import { handleCommand } from '../handle-command.js';

type LaterDecisionState = { stored: StoredCalendarEvent | null; booking: Booking | null; series: SeriesStanding | null };

/** The series an occurrence belongs to, as it stands: its parent, every occurrence, the room's zone. */
async function seriesStanding(db: Executor, occurrence: Booking | null): Promise<SeriesStanding | null> {
  if (!occurrence?.recurrenceParentId) return null;
  const [parent, occurrences, resource] = await Promise.all([
    findBooking(db, occurrence.recurrenceParentId),
    findSeriesOccurrences(db, occurrence.recurrenceParentId, Temporal.Instant.fromEpochMilliseconds(0)),
    findBookedResource(db, occurrence.bookableResourceId),
  ]);
  return parent && { parent, occurrences, resourceTimeZone: resource ? defaultSeriesTimeZone(resource) : 'UTC' };
}

/**
 * Brings a decision made on a booking of an organizer's event outside the event's own writes
 * (contract §26 "Decisions made later") to the event: its room's answer as the booking stands now,
 * stored with a REPLY in the organizer's inbox, appended on the event's stream at the revision read
 * (a concurrent PUT makes it decide again on what the PUT stored). Nothing for a booking of no
 * event, when the event is gone, or when its answer already agrees.
 */
export async function answerLaterDecision(ctx: CommandContext, decided: Booking): Promise<void> {
  if (!decided.calendarUid) return;
  // With PROJECTIONS=async this answers once the read models have passed the booking's stream, so
  // the reads below see the decision that called this and the event that made the booking.
  await ctx.eventStore.readStreamRevision(resourceStreamId(decided.bookableResourceId));
  const owner = { workspace: decided.workspace, owner: decided.bookerProfileId };
  const name = await findCalendarEventNameOfUid(ctx.db, owner, decided.calendarUid);
  if (name === null) return;
  const key: CalendarEventKey = { ...owner, name };
  await handleCommand<LaterDecisionState, CalendarEventEvent>(ctx, calendarEventStreamId(key), {
    load: async (db) => {
      const booking = await findBooking(db, decided.id);
      return { stored: await findCalendarEvent(db, key), booking, series: await seriesStanding(db, booking) };
    },
    decide: ({ stored, booking, series }) => (stored && booking ? decideLaterDecision(stored, booking, ctx.now(), randomUUID, series) : []),
  });
}
