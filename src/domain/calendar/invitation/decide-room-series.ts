import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../access/principal.js';
import type { BookingCreated } from '../../booking/booking-events.js';
import { admitSeries, decideCreateSeries, type CreateSeries, type CreateSeriesState, type SeriesDecisionOptions } from '../../booking/series/decide-create-series.js';
import { assertWithinHorizon, seriesOccurrences } from '../../booking/series/series-pattern.js';
import { occurrencesRefusal, refusedOccurrences } from '../../placement/occurrences-refusal.js';
import type { Occurrence } from '../../recurrence/index.js';
import type { RoomSeries } from './room-series.js';

/** What a series invitation asks of one room beside its rule: ids, title and the event's UID on every booking. */
export type RoomSeriesAsk = { parentId: string; newId: () => string; title: string; calendarUid: string };

/** The §6 command of a room's series: the rule's first occurrence and zone, the starts left out, one unit each. */
export const roomSeriesCommand = (series: RoomSeries, ask: RoomSeriesAsk): CreateSeries => ({
  ...ask,
  startTime: series.startTime,
  endTime: series.endTime,
  recurrenceRule: series.recurrenceRule,
  timeZone: series.timeZone,
  exdates: series.exdates,
  units: 1,
});

const byStart = (a: Occurrence, b: Occurrence) => Temporal.Instant.compare(a.start, b.start);

/**
 * The occurrences of the room's series as the organizer's event has them: the rule's (EXDATEs and
 * left-out instances already excluded), each moved instance at its new times, the RDATEs beside
 * them, in time order; less the starts in `skipped`.
 */
export function invitedOccurrences(series: RoomSeries, skipped: ReadonlySet<bigint> = new Set()): NonNullable<SeriesDecisionOptions['occurrencesOf']> {
  const movedFrom = new Set(series.moved.map((m) => m.recurrenceId.epochNanoseconds));
  return (pattern, resource, now) =>
    [...seriesOccurrences(pattern, resource, now).filter((o) => !movedFrom.has(o.start.epochNanoseconds)), ...series.moved, ...series.added]
      .map(({ start, end }) => ({ start, end }))
      .filter((o) => !skipped.has(o.start.epochNanoseconds))
      .sort(byStart);
}

/** The occurrence an instance is named by (its RECURRENCE-ID): a moved one by where the rule put it. */
function recurrenceIdOf(series: RoomSeries, start: Temporal.Instant): Temporal.Instant {
  return series.moved.find((m) => m.start.equals(start))?.recurrenceId ?? start;
}

/** A room's series booked: the parent and its occurrences' creations, and the occurrences it declined (by RECURRENCE-ID). */
export type RoomSeriesBooked = { events: BookingCreated[]; declined: Temporal.Instant[] };

/**
 * A room's answer to a recurring invitation (contract §26): the §6 series on the room, judged
 * occurrence by occurrence by the placement. Every occurrence accepted → the series. Some refused,
 * at most the room's `schedulingConflictsAllowed` of them and not all → the series without them,
 * each declined. Otherwise the series as a whole is refused, with what §6 refuses it with (the
 * request's own refusals — level, rule, more occurrences than §6 allows, allowRecurring, the
 * horizon — come first). Throws the refusal, as the REST decision does.
 */
export function decideRoomSeries(series: RoomSeries, ask: RoomSeriesAsk, state: CreateSeriesState, actor: Principal, now: Temporal.Instant): RoomSeriesBooked {
  const command = roomSeriesCommand(series, ask);
  const all = { occurrencesOf: invitedOccurrences(series) };
  const { resource, occurrences } = admitSeries(command, state, actor, now, all);
  assertWithinHorizon(occurrences, resource, now);
  const judged = { ...state, resource };
  const refused = refusedOccurrences(command, occurrences, judged, actor, now);
  if (refused.length === 0) return { events: decideCreateSeries(command, state, actor, now, all), declined: [] };
  if (refused.length > resource.bookingPolicy.schedulingConflictsAllowed || refused.length === occurrences.length) {
    throw occurrencesRefusal(command, occurrences, judged, actor, now) ?? refused[0]!.refusal;
  }
  const skipped = new Set(refused.map((r) => r.start.epochNanoseconds));
  return {
    events: decideCreateSeries(command, state, actor, now, { occurrencesOf: invitedOccurrences(series, skipped) }),
    declined: refused.map((r) => recurrenceIdOf(series, r.start)),
  };
}
