import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Blackout } from '../../../src/domain/blackout/blackout.js';
import { toEventEnvelope } from '../../../src/domain/event-envelope.js';
import { decideDeactivate, decideRegister, decideRemove, decideUpdate } from '../../../src/domain/resource/decide-resource.js';
import { evolveResource } from '../../../src/domain/resource/evolve-resource.js';
import type { WaitlistEntry } from '../../../src/domain/waitlist/waitlist-entry.js';
import { envelopeText } from '../../../src/infra/event-store/envelope-text.js';
import { publishedEventNames } from '../../../src/infra/event-store/published-event-condition.js';
import { createPostgresLogReader } from '../../../src/infra/event-store/postgres-log-reader.js';
import { deviceRecord, zoneRecord } from '../../support/record-samples.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { sampleBooking } from '../../workers/booking-event-fixture.js';

type Stored = { type: string; data: Record<string, unknown> };

/** What the feed answered before the twin: the TypeScript envelope as JSON (a member `undefined` left out), parsed. */
const answered = (envelope: unknown) => JSON.parse(JSON.stringify(envelope)) as unknown;

const at = '2030-01-01T09:15:00Z';
const workspace = 'f3a9c1d2-5b6e-4f70-8a91-b2c3d4e5f607';

/** Bookings of every age: today's (booked by a calendar event), one written before booking on behalf, buffers, bundles, pools and invitations, and some odd values. */
function bookings() {
  const today = sampleBooking({ workspace, bundleId: randomUUID(), units: 2, pooled: true, bufferBeforeMinutes: 5, calendarUid: 'event-1@example.com' });
  const { createdBy: _c, bufferBeforeMinutes: _b, bufferAfterMinutes: _a, bundleId: _u, units: _n, pooled: _p, calendarUid: _k, ...old } = sampleBooking({ workspace });
  const odd = { ...sampleBooking({ workspace, title: 'Quote " backslash \\ tab \t line\n é – 😀 \u0001' }), createdBy: null, units: null, recurrenceParentId: randomUUID() };
  const { title: _t, bookableResourceId: _r, ...untitled } = sampleBooking({ workspace, isSeriesParent: true });
  return [today, old, odd, untitled] as Record<string, unknown>[];
}

/** Every booking event kind, for every booking, with the extras each kind can carry and lack. */
function bookingEvents(): Stored[] {
  return bookings().flatMap((booking) => {
    const withBooking = (type: string, extra: Record<string, unknown> = {}, changes: Record<string, unknown> = {}) => ({
      type,
      data: { booking: { ...booking, ...changes }, by: 'user-1', at, ...extra },
    });
    return [
      withBooking('BookingCreated'),
      withBooking('BookingCreated', { approvers: ['approver-1', 'approver-2'] }),
      withBooking('BookingCreated', { approvers: [] }),
      withBooking('BookingCreated', { approvers: null }),
      withBooking('BookingConfirmed', {}, { confirmedBy: 'admin', confirmedAt: at }),
      withBooking('BookingConfirmed', { onBehalfOf: 'approver-1' }, { confirmedBy: 'delegate', confirmedAt: at }),
      withBooking('BookingConfirmed', { onBehalfOf: '' }, { confirmedBy: 'admin', confirmedAt: at }),
      withBooking('BookingRescheduled', { previousStartTime: '2030-01-01T08:00:00Z', previousEndTime: '2030-01-01T08:30:00Z' }),
      withBooking('BookingRescheduled', { previousStartTime: '2030-01-01T08:00:00Z', previousEndTime: '2030-01-01T08:30:00Z', previousUnits: 3 }),
      withBooking('BookingCancelled', {}, { status: 'cancelled', cancelledBy: 'system', cancelledAt: at, reason: 'not confirmed before start' }),
      withBooking('BookingCancelled', { onBehalfOf: 'approver-1' }, { status: 'cancelled', cancelledBy: 'delegate', cancelledAt: at }),
      withBooking('BookingCheckedIn', {}, { checkedInAt: at }),
      withBooking('BookingCheckedOut', {}, { status: 'completed', checkedOutAt: at }),
      withBooking('BookingCompleted', {}, { status: 'completed' }),
      withBooking('BookingMarkedNoShow', { gracePeriodExpiredAt: at }, { status: 'no_show' }),
      withBooking('BookingReminderIssued', { reminderType: 'upcoming' }),
      withBooking('BookingApprovalReminderIssued', { approvers: ['approver-1'] }),
    ];
  });
}

/** Every resource event kind, as the decider writes it today and as older events stored it. */
function resourceEvents(): Stored[] {
  const now = Temporal.Instant.from(at);
  const later = now.add({ minutes: 5 });
  const admin = { sub: 'admin-1', level: 1, workspace: null } as never;
  const registered = decideRegister({ id: randomUUID(), workspace, resourceType: 'zone', resourceId: 'zone-7', resourceName: 'Room 7', capacity: 4 }, null, admin, now);
  const state = evolveResource(null, registered)!;
  const { units: _units, parts: _parts, ...beforePools } = registered.data;
  const { units: _u, parts: _p, removed: _r, ...oldRecord } = state;
  const { resource: _resource, ...withoutRecord } = decideUpdate({ capacity: 8 }, state, admin, later).data;
  return [
    registered,
    { type: 'ResourceRegistered', data: beforePools },
    { type: 'ResourceRegistered', data: { ...beforePools, units: 3, parts: [randomUUID()] } },
    decideUpdate({ capacity: 8 }, state, admin, later),
    decideUpdate({ isActive: false }, state, admin, later),
    decideUpdate({ isActive: true }, { ...state, isActive: false }, admin, later),
    { type: 'ResourceUpdated', data: { ...decideUpdate({ capacity: 8 }, state, admin, later).data, resource: oldRecord } },
    { type: 'ResourceUpdated', data: withoutRecord },
    decideDeactivate(state, 'zone deleted', later)[0]!,
    { type: 'ResourceDeactivated', data: { id: state.id, reason: 'zone deleted', by: 'system', at } },
    decideRemove(state, admin, later),
  ] as Stored[];
}

function otherEvents(): Stored[] {
  const blackout: Blackout = { id: randomUUID(), workspace, resourceIds: null, from: at, to: '2030-01-02T00:00:00Z', reason: 'holiday', createdBy: 'admin-1', createdAt: at };
  const entry: WaitlistEntry = {
    id: randomUUID(), workspace, bookableResourceId: randomUUID(), resourceType: 'zone', resourceId: 'zone-7', title: 'Stand-up', startTime: at, endTime: '2030-01-01T10:00:00Z',
    units: 1, bookerProfileId: 'user-1', bookerEmail: null, createdBy: 'user-1', joinedAs: { level: 4, groups: ['g-1'] }, status: 'waiting', bookingId: null, policy: null, createdAt: at, closedAt: null,
  };
  const zone = zoneRecord(workspace, 'zone-7');
  return [
    { type: 'ZoneDeleted', data: { workspace, id: zone.id, record: zone, by: 'admin-1', at } },
    { type: 'DeviceDeleted', data: { workspace, id: 'dev-1', record: deviceRecord(workspace, 'dev-1'), by: 'admin-1', at } },
    { type: 'ZoneUpdated', data: { workspace, id: zone.id, record: zone, by: 'admin-1', at } },
    { type: 'BlackoutCreated', data: { blackout, by: 'admin-1', at } },
    { type: 'BlackoutDeleted', data: { blackout: { ...blackout, resourceIds: [randomUUID()] }, by: 'admin-1', at } },
    { type: 'WaitlistJoined', data: { entry, by: 'user-1', at } },
    { type: 'WaitlistFulfilled', data: { entry: { ...entry, status: 'fulfilled', bookingId: randomUUID(), closedAt: at }, by: 'system', at } },
    { type: 'WaitlistClosed', data: { entry: { ...entry, status: 'refused', policy: 'maxBookingsPerUser', closedAt: at }, by: 'system', at } },
    { type: 'SomethingUnpublished', data: { workspace, at } },
  ];
}

describe('the envelope rendered by PostgreSQL (the SQL twin of toEventEnvelope, contract §8, §14)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const events = [...bookingEvents(), ...resourceEvents(), ...otherEvents()];

  before(async () => {
    database = await createTestDatabase();
    for (const [revision, event] of events.entries()) {
      await sql`insert into events (event_id, stream_id, stream_revision, event_type, data, hash)
        values (${randomUUID()}, 'twin', ${revision}, ${event.type}, ${JSON.stringify(event.data)}, repeat('0', 64))`.execute(database.db);
    }
  });
  after(() => database?.destroy());

  it('parses to the TypeScript envelope of every stored event, of every kind and age; NULL for an event published under no name', async () => {
    const { rows } = await sql<{ id: string; globalPosition: string; type: string; data: Record<string, unknown>; text: string | null }>`
      select event_id as id, global_position as "globalPosition", event_type as type, data, ${envelopeText} as text
      from events order by global_position`.execute(database.db);
    expect(rows).to.have.length(events.length);
    const kinds = new Set(rows.flatMap((row) => (row.text === null ? [] : [JSON.parse(row.text).event as string])));
    expect([...kinds].sort()).to.deep.equal([...publishedEventNames].sort());
    for (const row of rows) {
      const { text, ...stored } = row;
      expect(text === null ? null : JSON.parse(text), `${row.type} ${JSON.stringify(row.data)}`).to.deep.equal(answered(toEventEnvelope(stored)));
    }
  });

  it('answers the audit feed’s pages as the envelopes of the events readPublished answers, page by page', async () => {
    const reader = createPostgresLogReader(database.db);
    for (let after = 0; ; ) {
      const read = { after, maxCount: 7, names: publishedEventNames, workspace };
      const [page, json] = [await reader.readPublished(read), await reader.readPublishedJson(read)];
      expect(json?.next).to.equal(page?.next);
      expect(json?.envelopes.map((text) => JSON.parse(text))).to.deep.equal(answered(page?.events.flatMap((event) => toEventEnvelope(event) ?? [])));
      if (page!.next === after) break;
      after = page!.next;
    }
  });
});
