import { Temporal } from 'temporal-polyfill';
import { instantOf, type EventTime } from './event-time.js';
import type { Attendee, Invitation } from './parse-invitation.js';

type Span = { start: Temporal.Instant; end: Temporal.Instant };

/** A recurring event as the §6 series of one room, with what §6 has no words for beside it. */
export type RoomSeries = {
  /** CreateSeries' startTime and endTime: the first occurrence (DTSTART and its end). */
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  /** The RRULE with UNTIL as the UTC date-time §6 takes; without COUNT or UNTIL it stays so, and §6 ends it at the room's horizon. */
  recurrenceRule: string;
  /** The zone of the series' wall clock: the event's zone; the room's for floating times and days; UTC for UTC times. */
  timeZone: string;
  /** Starts left out: EXDATEs, cancelled instances, and instances the room is not invited to. */
  exdates: Temporal.Instant[];
  /** Instances the organizer moved (RECURRENCE-ID) with the room invited: the occurrence at `recurrenceId` is held at start–end instead. */
  moved: (Span & { recurrenceId: Temporal.Instant })[];
  /** RDATEs: occurrences beside the rule, which a §6 series cannot hold. */
  added: Span[];
};

const invites = (attendees: readonly Attendee[], address: string): boolean =>
  attendees.some((a) => a.address.toLowerCase() === address.toLowerCase() && a.scheduleAgent === 'SERVER');

/** The zone a series of the event expands in: floating times and days in the room's zone (contract §26). */
function seriesZone(start: EventTime, resourceTimeZone: string): string {
  if (start.kind === 'zoned') return start.timeZone;
  return start.kind === 'utc' ? 'UTC' : resourceTimeZone;
}

const utcText = (instant: Temporal.Instant) => instant.toString({ smallestUnit: 'second' }).replaceAll(/[-:]/g, '');

/**
 * UNTIL as §6 reads it, a UTC date-time: a DATE (all-day events) is its day's last second in the
 * series' zone, a local date-time is read in that zone (RFC 5545 §3.3.10 allows both).
 */
function utcUntil(rule: string, timeZone: string): string {
  return rule.replace(/(^|;)UNTIL=([0-9T]+Z?)(?=;|$)/i, (whole, separator: string, value: string) => {
    if (value.endsWith('Z')) return whole;
    const date = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
    if (date) {
      const nextDay = Temporal.PlainDate.from({ year: +date[1]!, month: +date[2]!, day: +date[3]! }).add({ days: 1 });
      return `${separator}UNTIL=${utcText(nextDay.toZonedDateTime({ timeZone }).toInstant().subtract({ seconds: 1 }))}`;
    }
    const local = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(value);
    if (!local) return whole;
    const [year, month, day, hour, minute, second] = local.slice(1).map(Number) as [number, number, number, number, number, number];
    const instant = Temporal.PlainDateTime.from({ year, month, day, hour, minute, second }).toZonedDateTime(timeZone, { disambiguation: 'compatible' }).toInstant();
    return `${separator}UNTIL=${utcText(instant)}`;
  });
}

/**
 * The §6 series a recurring event (RRULE) asks of the room at `address` on a resource in
 * `resourceTimeZone`; null for an event without RRULE. Only the master's rule makes the series: its
 * EXDATEs and cancelled instances, and the instances the room is left out of, are left out; moved
 * instances and RDATEs are told apart for the caller to place or decline.
 */
export function roomSeriesOf(invitation: Invitation, address: string, resourceTimeZone: string): RoomSeries | null {
  const { recurrence } = invitation;
  if (recurrence === null || recurrence.rrule === null) return null;
  const at = (time: EventTime) => instantOf(time, resourceTimeZone);
  const startTime = at(invitation.start);
  const endTime = at(invitation.end);
  const durationMs = endTime.epochMilliseconds - startTime.epochMilliseconds;
  const timeZone = seriesZone(invitation.start, resourceTimeZone);
  const leftOut = recurrence.overrides.filter((o) => o.cancelled || !invites(o.attendees, address)).map((o) => at(o.recurrenceId));
  const moved = recurrence.overrides
    .filter((o) => !o.cancelled && invites(o.attendees, address))
    .map((o) => ({ recurrenceId: at(o.recurrenceId), start: at(o.start), end: at(o.end) }))
    .filter((o) => !o.start.equals(o.recurrenceId) || o.end.epochMilliseconds - o.start.epochMilliseconds !== durationMs);
  return {
    startTime,
    endTime,
    recurrenceRule: utcUntil(recurrence.rrule, timeZone),
    timeZone,
    exdates: [...recurrence.exdates.map(at), ...leftOut],
    moved,
    added: recurrence.rdates.map((rdate) => ({ start: at(rdate), end: at(rdate).add({ milliseconds: durationMs }) })),
  };
}
