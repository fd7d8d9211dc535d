import { expect } from 'chai';
import { acceptedAnswer, roomAnswerOfRefusal } from '../../../../src/domain/calendar/invitation/request-status.js';
import { conflictRefusal } from '../../../../src/domain/booking/find-conflicts.js';
import { timesRefusal } from '../../../../src/domain/booking/booking-time.js';
import { DomainError, forbidden, invalidTransition, notFound, policyViolation } from '../../../../src/domain/domain-error.js';
import { Temporal } from 'temporal-polyfill';

const conflict = conflictRefusal([{ bookingId: 'b1', startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z' }], 0)!;

describe('why a room declined, in its answer and REPLY (contract §26)', () => {
  it('409: the date-time is busy, `units` on a pool of units (§21)', () => {
    expect(roomAnswerOfRefusal(conflict, { units: 1 })).to.deep.equal({ partstat: 'DECLINED', scheduleStatus: '1.2', requestStatus: '4.0;Event conflict. Date-time is busy.;conflict' });
    expect(roomAnswerOfRefusal(conflict)).to.deep.equal({ partstat: 'DECLINED', scheduleStatus: '1.2', requestStatus: '4.0;Event conflict. Date-time is busy.;conflict' });
    expect(roomAnswerOfRefusal(conflict, { units: 12 }).requestStatus).to.equal('4.0;Event conflict. Date-time is busy.;units');
  });

  it('422: the policy it breaks, as the refusal names it', () => {
    for (const policy of ['maxDurationMinutes', 'availability', 'maxAdvanceDays', 'minNoticeMinutes', 'maxBookingsPerUser', 'isActive']) {
      expect(roomAnswerOfRefusal(policyViolation(policy, 'the message is not read'))).to.deep.equal({ partstat: 'DECLINED', scheduleStatus: '1.2', requestStatus: `3.1;Invalid property value;${policy}` });
    }
    expect(roomAnswerOfRefusal(new DomainError('policy_violation', 'x', { policy: 'quota', quotaId: 'q1' })).requestStatus).to.equal('3.1;Invalid property value;quota');
    expect(roomAnswerOfRefusal(new DomainError('policy_violation', 'x', { policy: 'blackout', blackoutId: 'k1' })).requestStatus).to.equal('3.1;Invalid property value;blackout');
  });

  it('403: SCHEDULE-STATUS 3.8, the organizer may not book the room; 404: 3.7, no room the organizer can see', () => {
    expect(roomAnswerOfRefusal(forbidden('guests (LV5) cannot book'))).to.deep.equal({ partstat: 'DECLINED', scheduleStatus: '3.8', requestStatus: '3.8;No authority' });
    expect(roomAnswerOfRefusal(notFound('resource'))).to.deep.equal({ partstat: 'DECLINED', scheduleStatus: '3.7', requestStatus: '3.7;Invalid calendar user' });
  });

  it('400: the property whose value the booking command refused', () => {
    const now = Temporal.Instant.from('2027-01-05T12:00:00Z');
    const past = timesRefusal(Temporal.Instant.from('2027-01-05T09:00:00Z'), Temporal.Instant.from('2027-01-05T10:00:00Z'), now)!;
    expect(roomAnswerOfRefusal(past).requestStatus).to.equal('3.1;Invalid property value;DTSTART');
    const empty = timesRefusal(Temporal.Instant.from('2027-01-06T09:00:00Z'), Temporal.Instant.from('2027-01-06T09:00:00Z'), now)!;
    expect(roomAnswerOfRefusal(empty).requestStatus).to.equal('3.1;Invalid property value;DTEND');
    expect(roomAnswerOfRefusal(new DomainError('invalid_request', 'x', { errors: [{ path: '/body/exdates/3', message: 'x' }] })).requestStatus).to.equal('3.1;Invalid property value;EXDATE');
  });

  it('any other refusal: its code', () => {
    expect(roomAnswerOfRefusal(invalidTransition('the booking is cancelled')).requestStatus).to.equal('3.1;Invalid property value;invalid_transition');
  });

  it('a booking made: ACCEPTED when confirmed, TENTATIVE while it waits for approval (§24)', () => {
    expect(acceptedAnswer('confirmed')).to.deep.equal({ partstat: 'ACCEPTED', scheduleStatus: '1.2', requestStatus: '2.0;Success' });
    expect(acceptedAnswer('pending')).to.deep.equal({ partstat: 'TENTATIVE', scheduleStatus: '1.2', requestStatus: '2.0;Success' });
  });
});
