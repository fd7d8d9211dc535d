import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../../src/domain/access/principal.js';
import type { Booking } from '../../../src/domain/booking/booking.js';
import { defaultBookingPolicy, mergeBookingPolicy, type BookingPolicyPatch, type Resource } from '../../../src/domain/resource/resource.js';

export const workspace = '11111111-1111-4111-8111-111111111111';
export const resourceUuid = '22222222-2222-4222-8222-222222222222';
export const now = Temporal.Instant.from('2027-01-04T08:00:00Z');
export const at = (iso: string) => Temporal.Instant.from(iso);

export function actor(level: Principal['level'], sub = `lv${level}-user`, extra: Partial<Principal> = {}): Principal {
  return { sub, workspace, level, groups: [], email: `${sub}@example.com`, ...extra };
}

export const admin = actor(2, 'admin');
export const alice = actor(4, 'alice');
export const bob = actor(4, 'bob');
export const guest = actor(5, 'guest');

export function resource(policy: BookingPolicyPatch = {}, extra: Partial<Resource> = {}): Resource {
  return {
    id: resourceUuid,
    workspace,
    resourceType: 'zone',
    resourceId: 'zone-42',
    resourceName: 'Board room',
    capacity: 8,
    units: 1,
    parts: null,
    groupId: null,
    isActive: true,
    bookingPolicy: mergeBookingPolicy(defaultBookingPolicy, policy),
    availability: null,
    removed: false,
    createdAt: '2026-12-01T00:00:00Z',
    updatedAt: '2026-12-01T00:00:00Z',
    ...extra,
  };
}

let counter = 0;
export function booking(extra: Partial<Booking> = {}): Booking {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    bookableResourceId: resourceUuid,
    workspace,
    resourceType: 'zone',
    resourceId: 'zone-42',
    bookerProfileId: 'alice',
    bookerEmail: 'alice@example.com',
    createdBy: 'alice',
    title: 'Sync',
    startTime: '2027-01-05T09:00:00Z',
    endTime: '2027-01-05T10:00:00Z',
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    units: 1,
    pooled: false,
    status: 'confirmed',
    isSeriesParent: false,
    recurrenceRule: null,
    recurrenceTimeZone: null,
    recurrenceParentId: null,
    exceptionOf: null,
    bundleId: null,
    calendarUid: null,
    confirmedBy: null,
    confirmedAt: null,
    cancelledBy: null,
    cancelledAt: null,
    onBehalfOf: null,
    reason: null,
    checkedInAt: null,
    checkedOutAt: null,
    createdAt: '2027-01-01T00:00:00Z',
    updatedAt: '2027-01-01T00:00:00Z',
    sequence: 0,
    ...extra,
  };
}
