import { Temporal } from 'temporal-polyfill';
import { upcastBooking, type StoredBooking } from '../../domain/booking/upcast-booking.js';
import { utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';

/** A stretch of time in which a zone keeps one offset (from Temporal: the offset and the next transition). */
type OffsetPeriod = { fromMs: number; untilMs: number; offsetMs: number; offset: string };

/** The offset periods looked up lately, by zone (a hit: the zone's are kept, whether or not they hold the instant). */
const periodsByZone = boundedCache<string, OffsetPeriod[]>('zone-offset-periods', { maxEntries: 64 });
const periodsPerZone = 16;

/**
 * The offset period of `zone` that holds `ms`. Temporal answers the offset and the next transition
 * once; the times of a schedule that fall before that transition are then written with plain
 * arithmetic. Null for an offset that is not whole minutes (historic local mean time).
 */
function offsetPeriod(ms: number, zone: string): OffsetPeriod | null {
  const periods = periodsByZone.get(zone) ?? [];
  const known = periods.find((p) => p.fromMs <= ms && ms < p.untilMs);
  if (known) return known;
  const zoned = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
  const offsetMs = zoned.offsetNanoseconds / 1e6;
  if (offsetMs % 60_000 !== 0) return null;
  const next = zoned.getTimeZoneTransition('next');
  const period = { fromMs: ms, untilMs: next ? next.epochMilliseconds : Infinity, offsetMs, offset: zoned.offset };
  periodsByZone.set(zone, [period, ...periods].slice(0, periodsPerZone));
  return period;
}

/** UTC with Z, or the wall-clock time of `timeZone` with the offset it has at that instant. */
export function timeJson(utc: string, timeZone?: string): string {
  if (!timeZone) return utc;
  const ms = Date.parse(utc);
  const period = offsetPeriod(ms, timeZone);
  if (!period) return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone).toString({ timeZoneName: 'never' });
  return `${utcTextOfEpochMs(ms + period.offsetMs).slice(0, -1)}${period.offset}`;
}

const timeOrNull = (utc: string | null, timeZone?: string) => (utc === null ? null : timeJson(utc, timeZone));

/**
 * The booking record of spec 2.2 plus exceptionOf, every field present. `timeZone` expresses the
 * times with that zone's offset (schedules with tz).
 */
export function bookingJson(stored: StoredBooking, timeZone?: string) {
  const booking = upcastBooking(stored);
  return {
    id: booking.id,
    bookableResourceId: booking.bookableResourceId,
    resourceId: booking.resourceId,
    resourceType: booking.resourceType,
    workspace: booking.workspace,
    bookerProfileId: booking.bookerProfileId as string | null,
    bookerEmail: booking.bookerEmail,
    createdBy: booking.createdBy as string | null,
    title: booking.title as string | null,
    startTime: timeJson(booking.startTime, timeZone),
    endTime: timeJson(booking.endTime, timeZone),
    bufferBeforeMinutes: booking.bufferBeforeMinutes,
    bufferAfterMinutes: booking.bufferAfterMinutes,
    units: booking.units,
    status: booking.status,
    isSeriesParent: booking.isSeriesParent,
    recurrenceRule: booking.recurrenceRule,
    recurrenceParentId: booking.recurrenceParentId,
    exceptionOf: booking.exceptionOf,
    bundleId: booking.bundleId,
    calendarUid: booking.calendarUid,
    confirmedBy: booking.confirmedBy,
    confirmedAt: timeOrNull(booking.confirmedAt, timeZone),
    cancelledBy: booking.cancelledBy,
    cancelledAt: timeOrNull(booking.cancelledAt, timeZone),
    onBehalfOf: booking.onBehalfOf,
    reason: booking.reason,
    checkedInAt: timeOrNull(booking.checkedInAt, timeZone),
    checkedOutAt: timeOrNull(booking.checkedOutAt, timeZone),
    createdAt: timeJson(booking.createdAt, timeZone),
    updatedAt: timeJson(booking.updatedAt, timeZone),
    archivedAt: timeOrNull(booking.archivedAt ?? null, timeZone),
  };
}

/** Another user's booking in a schedule read by LV4/LV5: its times and status, nobody's details (nor its calendar event's UID). */
export function anonymousBookingJson(booking: StoredBooking, timeZone?: string) {
  return { ...bookingJson(booking, timeZone), title: null, bookerEmail: null, bookerProfileId: null, createdBy: null, confirmedBy: null, cancelledBy: null, onBehalfOf: null, reason: null, calendarUid: null };
}
