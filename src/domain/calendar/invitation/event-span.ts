import type { Temporal } from 'temporal-polyfill';
import { instantOf, type EventTime } from './event-time.js';
import type { Invitation } from './parse-invitation.js';

/** The widest a wall-clock time's instant can be from UTC's reading of it: UTC−12 to UTC+14. */
const wallClockSlackHours = 14;

/** The instant a time names, read in UTC and widened by wallClockSlackHours (`side`) where it names no instant of its own (floating, all-day). */
function boundOf(time: EventTime, side: -1 | 1): Temporal.Instant {
  const instant = instantOf(time, 'UTC');
  return time.kind === 'utc' || time.kind === 'zoned' ? instant : instant.add({ hours: side * wallClockSlackHours });
}

/**
 * The span an organizer's event covers, for the time-range filter of its calendar (RFC 4791 §9.9):
 * from its start to its end, or with no end for a recurring one (its rule may run on); a floating
 * or all-day time is widened to every zone a room may read it in. Never narrower than the event.
 */
export function eventSpan(invitation: Invitation): { start: Temporal.Instant; end: Temporal.Instant | null } {
  return { start: boundOf(invitation.start, -1), end: invitation.recurrence ? null : boundOf(invitation.end, 1) };
}
