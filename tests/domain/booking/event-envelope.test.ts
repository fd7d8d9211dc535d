import { expect } from 'chai';
import type { BookingEvent } from '../../../src/domain/booking/booking-events.js';
import type { RecordedEvent } from '../../../src/infra/event-store/event-store.js';
import { toEventEnvelope } from '../../../src/domain/booking/event-envelope.js';
import { sampleBooking } from '../../workers/booking-event-fixture.js';

const at = '2030-01-01T09:15:00Z';

function recorded(event: BookingEvent | { type: string; data: Record<string, unknown> }): RecordedEvent {
  return {
    id: '6a1d4f0e-7f55-4e7c-9a8b-1f2e3d4c5b6a',
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: {},
    streamId: 'resource-1',
    streamRevision: 0,
    globalPosition: 1,
    transactionId: '1',
    recordedAt: new Date(),
  };
}

describe('event envelopes (contract §8)', () => {
  const booking = sampleBooking();
  const base = {
    id: booking.id,
    resourceId: booking.resourceId,
    resourceType: booking.resourceType,
    bookerEmail: booking.bookerEmail,
    bookerProfileId: booking.bookerProfileId,
    startTime: booking.startTime,
    endTime: booking.endTime,
    title: booking.title,
    workspace: booking.workspace,
  };
  const envelopeOf = (event: BookingEvent) => toEventEnvelope(recorded(event))!;

  it('wraps the base set of spec §6 with the stored event id, the name, the time and the workspace', () => {
    expect(envelopeOf({ type: 'BookingCreated', data: { booking, by: 'user-1', at } })).to.deep.equal({
      id: '6a1d4f0e-7f55-4e7c-9a8b-1f2e3d4c5b6a',
      event: 'booking.create',
      timestamp: at,
      workspace: booking.workspace,
      data: { ...base, status: 'confirmed' },
    });
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
    }
  });

  it('publishes nothing for events that are not booking events', () => {
    expect(toEventEnvelope(recorded({ type: 'ResourceDeactivated', data: { id: 'r', reason: 'x', by: 'system', at } }))).to.equal(null);
  });
});
