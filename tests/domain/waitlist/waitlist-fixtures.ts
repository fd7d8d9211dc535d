import type { WaitlistEntry } from '../../../src/domain/waitlist/waitlist-entry.js';
import { resourceUuid, workspace } from '../booking/booking-fixtures.js';

let n = 0;
/** A waiting entry of bob's for 09:00–10:00, joined by its booker as a user; each with its own id. */
export function waitlistEntry(extra: Partial<WaitlistEntry> = {}): WaitlistEntry {
  n += 1;
  return {
    id: `e0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    workspace,
    bookableResourceId: resourceUuid,
    resourceType: 'zone',
    resourceId: 'zone-42',
    title: 'Waiting',
    startTime: '2027-01-05T09:00:00Z',
    endTime: '2027-01-05T10:00:00Z',
    units: 1,
    bookerProfileId: 'bob',
    bookerEmail: 'bob@example.com',
    // The booker joined for itself, as a user.
    createdBy: extra.bookerProfileId ?? 'bob',
    joinedAs: { level: 4, groups: [] },
    status: 'waiting',
    bookingId: null,
    policy: null,
    createdAt: '2027-01-04T07:00:00Z',
    closedAt: null,
    ...extra,
  };
}
