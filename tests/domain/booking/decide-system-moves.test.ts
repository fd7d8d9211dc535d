import { expect } from 'chai';
import { decideCompletion, decideExpiry, decideNoShow, decideReminder } from '../../../src/domain/booking/decide-system-moves.js';
import { decideResourceRemovalCancellations } from '../../../src/domain/booking/decide-resource-removal-cancellations.js';
import { admin, at, booking, resource } from './booking-fixtures.js';
import { given } from './decider-spec.js';

// The booking of the fixtures runs 2027-01-05 09:00–10:00Z.
describe('no-show', () => {
  it('a confirmed booking without check-in becomes no_show when the grace period is over', () => {
    const b = booking();
    given(b)
      .when((x) => decideNoShow(x, resource({ gracePeriodMinutes: 10 }), at('2027-01-05T09:10:00Z')))
      .then({
        type: 'BookingMarkedNoShow',
        data: { booking: { ...b, status: 'no_show', updatedAt: '2027-01-05T09:10:00Z' }, by: 'system', at: '2027-01-05T09:10:00Z', gracePeriodExpiredAt: '2027-01-05T09:10:00Z' },
      });
  });

  it('changes nothing before the grace period ends, after check-in, or once the booking moved on', () => {
    const policy = resource({ gracePeriodMinutes: 10 });
    given(booking()).when((x) => decideNoShow(x, policy, at('2027-01-05T09:09:59Z'))).thenNothing();
    given(booking({ checkedInAt: '2027-01-05T09:05:00Z' })).when((x) => decideNoShow(x, policy, at('2027-01-05T09:30:00Z'))).thenNothing();
    for (const status of ['pending', 'cancelled', 'completed', 'no_show'] as const) {
      given(booking({ status })).when((x) => decideNoShow(x, policy, at('2027-01-05T09:30:00Z'))).thenNothing();
    }
    given(null).when((x) => decideNoShow(x, policy, at('2027-01-05T09:30:00Z'))).thenNothing();
  });
});

describe('automatic completion', () => {
  it('confirmed at its end → completed by the system', () => {
    const [event] = decideCompletion(booking({ checkedInAt: '2027-01-05T09:00:00Z' }), at('2027-01-05T10:00:00Z'));
    expect(event!.type).to.equal('BookingCompleted');
    expect(event!.data).to.include({ by: 'system', at: '2027-01-05T10:00:00Z' });
    expect(event!.data.booking.status).to.equal('completed');
  });

  it('changes nothing before the end or for a booking no longer confirmed', () => {
    given(booking()).when((x) => decideCompletion(x, at('2027-01-05T09:59:59Z'))).thenNothing();
    for (const status of ['pending', 'cancelled', 'completed', 'no_show'] as const) {
      given(booking({ status })).when((x) => decideCompletion(x, at('2027-01-05T11:00:00Z'))).thenNothing();
    }
  });
});

describe('expiry of a pending booking', () => {
  it('still pending at its start → cancelled by the system, "not confirmed before start"', () => {
    const [event] = decideExpiry(booking({ status: 'pending' }), resource(), at('2027-01-05T09:00:00Z'));
    expect(event!.type).to.equal('BookingCancelled');
    expect(event!.data.booking).to.include({ status: 'cancelled', cancelledBy: 'system', reason: 'not confirmed before start', cancelledAt: '2027-01-05T09:00:00Z' });
  });

  it('changes nothing before the start or once confirmed or cancelled', () => {
    given(booking({ status: 'pending' })).when((x) => decideExpiry(x, resource(), at('2027-01-05T08:59:59Z'))).thenNothing();
    given(booking({ status: 'confirmed' })).when((x) => decideExpiry(x, resource(), at('2027-01-05T09:00:00Z'))).thenNothing();
    given(booking({ status: 'cancelled' })).when((x) => decideExpiry(x, resource(), at('2027-01-05T09:00:00Z'))).thenNothing();
  });

  it('with an approvalDeadlineMinutes: still pending that many minutes before its start → cancelled, "not approved in time"', () => {
    const policy = resource({ approvalDeadlineMinutes: 60 });
    given(booking({ status: 'pending' })).when((x) => decideExpiry(x, policy, at('2027-01-05T07:59:59Z'))).thenNothing();
    const [event] = decideExpiry(booking({ status: 'pending' }), policy, at('2027-01-05T08:00:00Z'));
    expect(event!.data.booking).to.include({ status: 'cancelled', cancelledBy: 'system', reason: 'not approved in time' });
    given(booking({ status: 'confirmed' })).when((x) => decideExpiry(x, policy, at('2027-01-05T08:30:00Z'))).thenNothing();
  });
});

describe('reminders', () => {
  it('issued from reminderMinutes before the start, without changing the booking', () => {
    const b = booking();
    given(b)
      .when((x) => decideReminder(x, at('2027-01-05T08:45:00Z'), 15))
      .then({ type: 'BookingReminderIssued', data: { booking: b, by: 'system', at: '2027-01-05T08:45:00Z', reminderType: 'upcoming' } });
  });

  it('changes nothing too early (rescheduled later), at or after the start, or for an inactive booking', () => {
    given(booking()).when((x) => decideReminder(x, at('2027-01-05T08:44:59Z'), 15)).thenNothing();
    given(booking()).when((x) => decideReminder(x, at('2027-01-05T09:00:00Z'), 15)).thenNothing();
    given(booking({ status: 'cancelled' })).when((x) => decideReminder(x, at('2027-01-05T08:50:00Z'), 15)).thenNothing();
  });
});

describe('cancellations when a resource is removed', () => {
  const now = at('2027-01-05T09:30:00Z');

  it('cancels active bookings that have not started, with reason "resource removed"', () => {
    const running = booking();
    const upcoming = booking({ startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z', status: 'pending' });
    const cancelled = booking({ startTime: '2027-01-06T11:00:00Z', endTime: '2027-01-06T12:00:00Z', status: 'cancelled' });
    const events = decideResourceRemovalCancellations([running, upcoming, cancelled], admin, now);
    expect(events.map((e) => e.data.booking.id)).to.deep.equal([upcoming.id]);
    expect(events[0]!.data.booking).to.include({ status: 'cancelled', cancelledBy: 'admin', reason: 'resource removed' });
  });

  it('cancels the parent of a series that loses occurrences', () => {
    const parent = booking({ isSeriesParent: true, recurrenceRule: 'FREQ=DAILY;COUNT=5' });
    const occurrence = booking({ startTime: '2027-01-06T09:00:00Z', endTime: '2027-01-06T10:00:00Z', recurrenceParentId: parent.id });
    const events = decideResourceRemovalCancellations([occurrence, parent], admin, now);
    expect(events.map((e) => e.data.booking.id)).to.deep.equal([occurrence.id, parent.id]);
  });
});
