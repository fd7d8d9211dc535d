import { isSeriesTooLong } from '../../booking/series/series-pattern.js';
import type { DomainError } from '../../domain-error.js';
import type { RoomAnswer } from './calendar-event-events.js';

/** What a room says of an event: its PARTSTAT, the SCHEDULE-STATUS on its ATTENDEE and the REQUEST-STATUS of its REPLY. */
export type RoomVerdict = Pick<RoomAnswer, 'partstat' | 'scheduleStatus' | 'requestStatus'>;

/** RFC 5545 §3.8.8.3 statuses of a REPLY (RFC 5546 §3.6); the third part names why. */
export const successStatus = '2.0;Success';
const conflictStatus = '4.0;Event conflict. Date-time is busy.';
const invalidValueStatus = '3.1;Invalid property value';

/** The iCalendar property a 400 of the booking command points at (its `errors[].path`). */
const propertyOfPath: Record<string, string> = {
  '/body/startTime': 'DTSTART',
  '/body/endTime': 'DTEND',
  '/body/recurrenceRule': 'RRULE',
  '/body/timeZone': 'TZID',
};

function invalidRequestStatus(details: DomainError['details']): string {
  const path = details.errors?.[0]?.path.replace(/\/\d+$/, '');
  if (path === '/body/exdates') return `${invalidValueStatus};EXDATE`;
  const property = path === undefined ? undefined : propertyOfPath[path];
  return property ? `${invalidValueStatus};${property}` : invalidValueStatus;
}

/**
 * A room's DECLINED answer to a refusal of the REST verdict (contract §26), told by its code and
 * details, never its message: 409 conflict → `4.0;…;conflict` (`;units` when the resource is a pool
 * of units, §21); 422 → `3.1;…;<the policy>`; 403 → SCHEDULE-STATUS 3.8 (the organizer may not book
 * it); 404 → 3.7 (no resource the organizer can see); 400 → `3.1;…;<the property>` (e.g. DTSTART in
 * the past). The refusal does not say whether the resource pools units: the caller knows its resource.
 */
export function roomAnswerOfRefusal(error: Pick<DomainError, 'code' | 'details'>, resource: { units: number } | null = null): RoomVerdict {
  const declined = (scheduleStatus: RoomVerdict['scheduleStatus'], requestStatus: string): RoomVerdict => ({ partstat: 'DECLINED', scheduleStatus, requestStatus });
  switch (error.code) {
    case 'booking_conflict':
      return declined('1.2', `${conflictStatus};${resource !== null && resource.units > 1 ? 'units' : 'conflict'}`);
    case 'policy_violation':
      return declined('1.2', `${invalidValueStatus};${error.details.policy ?? 'policy'}`);
    case 'forbidden':
      return declined('3.8', '3.8;No authority');
    case 'not_found':
    case 'resource_not_found':
      return declined('3.7', '3.7;Invalid calendar user');
    case 'invalid_request':
      // A series longer than §6 allows is the room's limit, not a bad property (contract §26).
      return declined('1.2', isSeriesTooLong(error) ? `${invalidValueStatus};maxOccurrences` : invalidRequestStatus(error.details));
    default:
      return declined('1.2', `${invalidValueStatus};${error.code}`);
  }
}

/** A room's answer to an event it booked: ACCEPTED when the booking is confirmed, TENTATIVE while it waits for approval (contract §24). */
export const acceptedAnswer = (status: 'confirmed' | 'pending'): RoomVerdict => ({
  partstat: status === 'confirmed' ? 'ACCEPTED' : 'TENTATIVE',
  scheduleStatus: '1.2',
  requestStatus: successStatus,
});
