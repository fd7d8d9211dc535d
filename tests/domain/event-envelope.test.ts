import { expect } from 'chai';
import type { BookingEvent } from '../../src/domain/booking/booking-events.js';
import type { RecordedEvent } from '../../src/infra/event-store/event-store.js';
import { toEventEnvelope } from '../../src/domain/event-envelope.js';
import { decideDeactivate, decideRegister, decideRemove, decideUpdate } from '../../src/domain/resource/decide-resource.js';
import { evolveResource } from '../../src/domain/resource/evolve-resource.js';
import { Temporal } from 'temporal-polyfill';
import { deviceRecord, zoneRecord } from '../support/record-samples.js';
import { assertPublishedEvent } from '../support/published-event-schemas.js';
import { sampleBooking } from '../workers/booking-event-fixture.js';

const at = '2030-01-01T09:15:00Z';

function recorded(event: BookingEvent | { type: string; data: Record<string, unknown> }): RecordedEvent {
  return {
    id: '6a1d4f0e-7f55-4e7c-9a8b-1f2e3d4c5b6a',
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: {},
    streamId: 'resource-1',
    streamRevision: 0,
    globalPosition: 42,
    transactionId: '1',
    recordedAt: new Date(),
  };
}

describe('event envelopes (contract §8)', () => {
  const booking = sampleBooking();
  // The base set of contract §8 and §14, status aside (it is the booking's after each event).
  const baseFields = ['id', 'bookableResourceId', 'resourceId', 'resourceType', 'bookerEmail', 'bookerProfileId', 'createdBy', 'startTime', 'endTime', 'title', 'workspace', 'isSeriesParent', 'recurrenceParentId', 'bundleId', 'calendarUid', 'units'] as const;
  const base = Object.fromEntries(baseFields.map((field) => [field, booking[field]]));
  const envelopeOf = (event: BookingEvent) => toEventEnvelope(recorded(event))!;

  it('wraps the base set of spec §6 with the stored event id, the name, the time, the workspace and the log position', () => {
    expect(envelopeOf({ type: 'BookingCreated', data: { booking, by: 'user-1', at } })).to.deep.equal({
      id: '6a1d4f0e-7f55-4e7c-9a8b-1f2e3d4c5b6a',
      event: 'booking.create',
      timestamp: at,
      workspace: booking.workspace,
      position: 42,
      data: { ...base, status: 'confirmed' },
    });
  });

  it('carries createdBy; an event written before booking on behalf was created by its booker', () => {
    const onBehalf = { ...booking, createdBy: 'assistant' };
    expect(envelopeOf({ type: 'BookingCreated', data: { booking: onBehalf, by: 'assistant', at } }).data).to.include({ bookerProfileId: 'user-1', createdBy: 'assistant' });
    const { createdBy: _createdBy, ...old } = booking;
    const envelope = envelopeOf({ type: 'BookingCreated', data: { booking: old as typeof booking, by: 'user-1', at } });
    expect(envelope.data).to.include({ createdBy: 'user-1' });
    assertPublishedEvent(envelope);
  });

  it('adds the extras of each kind', () => {
    const cases: [BookingEvent, string, Record<string, unknown>][] = [
      [{ type: 'BookingConfirmed', data: { booking: { ...booking, confirmedBy: 'admin', confirmedAt: at }, by: 'admin', at } }, 'booking.confirm', { confirmedBy: 'admin', confirmedAt: at }],
      [
        { type: 'BookingCancelled', data: { booking: { ...booking, status: 'cancelled', cancelledBy: 'system', cancelledAt: at, reason: 'not confirmed before start' }, by: 'system', at } },
        'booking.cancel',
        { cancelledBy: 'system', cancelledAt: at, reason: 'not confirmed before start' },
      ],
      [{ type: 'BookingCheckedIn', data: { booking: { ...booking, checkedInAt: at }, by: 'user-1', at } }, 'booking.checkin', { checkedInAt: at }],
      [{ type: 'BookingCheckedOut', data: { booking: { ...booking, status: 'completed', checkedOutAt: at }, by: 'user-1', at } }, 'booking.checkout', { checkedOutAt: at }],
      [{ type: 'BookingCompleted', data: { booking: { ...booking, status: 'completed' }, by: 'system', at } }, 'booking.complete', { completedAt: at }],
      [{ type: 'BookingMarkedNoShow', data: { booking: { ...booking, status: 'no_show' }, by: 'system', at, gracePeriodExpiredAt: at } }, 'booking.no_show', { gracePeriodExpiredAt: at }],
      [{ type: 'BookingReminderIssued', data: { booking, by: 'system', at, reminderType: 'upcoming' } }, 'booking.reminder', { reminderType: 'upcoming' }],
      [
        { type: 'BookingRescheduled', data: { booking, by: 'user-1', at, previousStartTime: '2030-01-01T08:00:00Z', previousEndTime: '2030-01-01T08:30:00Z' } },
        'booking.reschedule',
        { previousStartTime: '2030-01-01T08:00:00Z', previousEndTime: '2030-01-01T08:30:00Z' },
      ],
    ];
    for (const [event, name, extras] of cases) {
      const envelope = envelopeOf(event);
      expect(envelope.event, event.type).to.equal(name);
      expect(envelope.data, event.type).to.deep.equal({ ...base, status: event.data.booking.status, ...extras });
      assertPublishedEvent(envelope);
    }
  });

  it('marks a series parent and names the parent of an occurrence', () => {
    const parent = envelopeOf({ type: 'BookingCreated', data: { booking: { ...booking, isSeriesParent: true, recurrenceRule: 'FREQ=DAILY;COUNT=2' }, by: 'user-1', at } });
    const occurrence = envelopeOf({ type: 'BookingCreated', data: { booking: { ...booking, recurrenceParentId: booking.id }, by: 'user-1', at } });
    expect(parent.data).to.include({ isSeriesParent: true, recurrenceParentId: null });
    expect(occurrence.data).to.include({ isSeriesParent: false, recurrenceParentId: booking.id });
  });
});

describe('resource and record event envelopes (contract §14)', () => {
  const now = Temporal.Instant.from(at);
  const admin = { sub: 'admin-1', level: 1, workspace: null } as never;
  const registered = decideRegister(
    { id: '0b5f8a66-8a44-4d3c-9f1e-2f6a1c7d9e10', workspace: 'f3a9c1d2-5b6e-4f70-8a91-b2c3d4e5f607', resourceType: 'zone', resourceId: 'zone-7', resourceName: 'Room 7', capacity: 4 },
    null,
    admin,
    now,
  );
  const state = evolveResource(null, registered)!;
  const { removed: _removed, ...record } = state;

  it('publishes each resource change with the resource after the change', () => {
    const later = now.add({ minutes: 5 });
    const cases: [{ type: string; data: Record<string, unknown> }, string, Record<string, unknown>][] = [
      [registered, 'resource.register', record],
      [decideUpdate({ capacity: 8 }, state, admin, later), 'resource.update', { ...record, capacity: 8, updatedAt: later.toString() }],
      [decideUpdate({ isActive: false }, state, admin, later), 'resource.deactivate', { ...record, isActive: false, updatedAt: later.toString() }],
      [decideUpdate({ isActive: true }, { ...state, isActive: false }, admin, later), 'resource.activate', { ...record, updatedAt: later.toString() }],
      [decideDeactivate(state, 'zone deleted', later)[0]!, 'resource.deactivate', { ...record, isActive: false, updatedAt: later.toString() }],
      [decideRemove(state, admin, later), 'resource.remove', { ...record, updatedAt: later.toString() }],
    ];
    for (const [event, name, data] of cases) {
      const envelope = toEventEnvelope(recorded(event))!;
      expect(envelope, name).to.deep.include({ event: name, workspace: record.workspace, position: 42, data });
      assertPublishedEvent(envelope);
    }
  });

  it('publishes device and zone deletions with the deleted record', () => {
    const workspace = 'f3a9c1d2-5b6e-4f70-8a91-b2c3d4e5f607';
    const zone = zoneRecord(workspace, 'zone-7', 'Room 7');
    const envelope = toEventEnvelope(recorded({ type: 'ZoneDeleted', data: { workspace, id: 'zone-7', record: zone, by: 'admin-1', at } }))!;
    expect(envelope).to.deep.include({ event: 'zone.delete', timestamp: at, workspace, data: zone });
    assertPublishedEvent(envelope);
    const device = deviceRecord(workspace, 'dev-1');
    assertPublishedEvent(toEventEnvelope(recorded({ type: 'DeviceDeleted', data: { workspace, id: 'dev-1', record: device, by: 'admin-1', at } }))!);
  });

  it('publishes nothing for record changes other than deletions, nor for a resource event recorded without its record', () => {
    expect(toEventEnvelope(recorded({ type: 'ZoneUpdated', data: { workspace: 'w', id: 'z', record: {}, by: 'a', at } }))).to.equal(null);
    expect(toEventEnvelope(recorded({ type: 'ResourceDeactivated', data: { id: 'r', reason: 'x', by: 'system', at } }))).to.equal(null);
  });
});
