import { expect } from 'chai';
import type { BookingStatus } from '../../../../src/domain/booking/booking.js';
import type { RoomAnswer } from '../../../../src/domain/calendar/invitation/calendar-event-events.js';
import { laterAnswer, partstatOfStatus } from '../../../../src/domain/calendar/invitation/later-decision.js';

const bookingId = '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';

const room = (overrides: Partial<RoomAnswer> = {}): RoomAnswer => ({
  address: 'mailto:room-a@resources.invalid',
  resourceId: '7c1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77',
  bookingId,
  partstat: 'TENTATIVE',
  scheduleStatus: '1.2',
  requestStatus: '2.0;Success',
  ...overrides,
});

const declinedElsewhere = room({ address: 'mailto:room-b@resources.invalid', resourceId: 'b', bookingId: null, partstat: 'DECLINED', requestStatus: '4.0;Event conflict. Date-time is busy.;conflict' });

const booking = (status: BookingStatus, reason: string | null = null) => ({ id: bookingId, status, reason });

describe('a room\'s answer to a decision made after the event was written (contract §26)', () => {
  it('answers what the booking\'s status implies: pending tentative, confirmed or completed accepted, cancelled or no-show declined', () => {
    const implied = (['pending', 'confirmed', 'completed', 'cancelled', 'no_show'] as const).map(partstatOfStatus);
    expect(implied).to.deep.equal(['TENTATIVE', 'ACCEPTED', 'ACCEPTED', 'DECLINED', 'DECLINED']);
  });

  it('an approver\'s confirm turns the tentative room accepted, keeping its booking, the other rooms untouched', () => {
    const later = laterAnswer([declinedElsewhere, room()], booking('confirmed'));
    expect(later).to.deep.equal({
      rooms: [declinedElsewhere, room({ partstat: 'ACCEPTED' })],
      answer: room({ partstat: 'ACCEPTED' }),
      comment: null,
    });
  });

  it('a cancel declines the room, which holds no booking any more, with the cancel\'s reason as the comment and 2.0 as the request status', () => {
    const later = laterAnswer([room({ partstat: 'ACCEPTED' }), declinedElsewhere], booking('cancelled', 'Room closed for repairs'));
    expect(later?.answer).to.deep.equal(room({ partstat: 'DECLINED', bookingId: null, requestStatus: '2.0;Success' }));
    expect(later?.rooms).to.deep.equal([later?.answer, declinedElsewhere]);
    expect(later?.comment).to.equal('Room closed for repairs');
  });

  it('says why when the record has no reason: a no-show, a cancel without one', () => {
    expect(laterAnswer([room({ partstat: 'ACCEPTED' })], booking('no_show'))?.comment).to.equal('no-show: not checked in within the grace period');
    expect(laterAnswer([room()], booking('cancelled', '  '))?.comment).to.equal('cancelled');
  });

  it('changes nothing when the stored answer already agrees: a repeat, or the event\'s own write', () => {
    expect(laterAnswer([room({ partstat: 'ACCEPTED' })], booking('confirmed'))).to.equal(null);
    expect(laterAnswer([room({ partstat: 'ACCEPTED' })], booking('completed'))).to.equal(null);
    expect(laterAnswer([room()], booking('pending'))).to.equal(null);
  });

  it('changes nothing when no room holds the booking: withdrawn already, or left the event', () => {
    expect(laterAnswer([room({ partstat: 'DECLINED', bookingId: null })], booking('cancelled'))).to.equal(null);
    expect(laterAnswer([declinedElsewhere], booking('confirmed'))).to.equal(null);
    expect(laterAnswer([], booking('cancelled'))).to.equal(null);
  });
});
