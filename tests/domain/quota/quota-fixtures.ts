import type { Temporal } from 'temporal-polyfill';
import type { Quota } from '../../../src/domain/quota/quota.js';
import type { CountedBooking } from '../../../src/domain/quota/quota-usage.js';
import { at, resource, workspace } from '../booking/booking-fixtures.js';

export const quotaId = '33333333-3333-4333-8333-333333333333';

export function quota(extra: Partial<Quota> = {}): Quota {
  return {
    id: quotaId,
    workspace,
    resourceType: null,
    groupId: null,
    resourceIds: null,
    limit: 3,
    unit: 'hours',
    per: 'day',
    timeZone: 'UTC',
    createdBy: 'admin',
    createdAt: '2027-01-01T00:00:00Z',
    ...extra,
  };
}

let counter = 0;
/** A counted booking of [start, end) on the fixtures' resource (or another one). */
export function counted(start: string, end: string, on: CountedBooking['resource'] = resource()): CountedBooking {
  counter += 1;
  return { id: `c-${counter}`, resource: on, startTime: at(start), endTime: at(end) };
}

export const iso = (instant: Temporal.Instant) => instant.toString();
