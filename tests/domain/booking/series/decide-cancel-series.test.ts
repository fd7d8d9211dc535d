import { expect } from 'chai';
import type { Booking } from '../../../../src/domain/booking/booking.js';
import { decideCancelSeries, type CancelSeriesState } from '../../../../src/domain/booking/series/decide-cancel-series.js';
import { admin, alice, bob, booking, guest, now, resource } from '../booking-fixtures.js';
import { given } from '../decider-spec.js';
import { parentId, storedSeries } from './series-fixtures.js';

function state(extra: Partial<CancelSeriesState> = {}): CancelSeriesState {
  const { parent, occurrences } = storedSeries(3);
  return { parent, resource: resource(), upcoming: occurrences, ...extra };
}
const ids = (events: { data: { booking: Booking } }[]) => events.map((e) => e.data.booking.id);

describe('cancelling a series', () => {
  it('cancels every occurrence still ahead, then the parent, with the reason', () => {
    const s = state();
    const events = decideCancelSeries(s, alice, now, 'team disbanded');
    expect(ids(events)).to.deep.equal([...s.upcoming.map((b) => b.id), parentId]);
    for (const event of events) {
      expect(event.type).to.equal('BookingCancelled');
      expect(event.data.booking).to.include({ status: 'cancelled', cancelledBy: 'alice', cancelledAt: '2027-01-04T08:00:00Z', reason: 'team disbanded' });
    }
  });

  it('leaves alone occurrences already cancelled or checked in', () => {
    const s = state();
    const [first, second, third] = s.upcoming;
    const upcoming = [{ ...first!, status: 'cancelled' as const }, { ...second!, checkedInAt: '2027-01-04T07:50:00Z' }, third!];
    expect(ids(decideCancelSeries({ ...s, upcoming }, alice, now))).to.deep.equal([third!.id, parentId]);
  });

  it('for LV4, keeps the confirmed occurrences inside the cancellation-notice window; pending ones and an admin’s cancel go through', () => {
    const soon = (extra: Partial<Booking> = {}) => booking({ startTime: '2027-01-04T20:00:00Z', endTime: '2027-01-04T20:30:00Z', recurrenceParentId: parentId, ...extra });
    const inside = soon();
    const pending = soon({ status: 'pending', startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:30:00Z' });
    const atDeadline = soon({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:30:00Z' });
    const s = state({ resource: resource({ cancellationPolicy: { minNoticeMinutes: 24 * 60 } }) });
    const upcoming = [inside, pending, atDeadline, ...s.upcoming];
    expect(ids(decideCancelSeries({ ...s, upcoming }, alice, now))).to.deep.equal([pending.id, atDeadline.id, ...s.upcoming.map((b) => b.id), parentId]);
    expect(ids(decideCancelSeries({ ...s, upcoming }, admin, now))).to.have.length(upcoming.length + 1);
  });

  it('answers 403 to a guest, 404 for another user’s series or a non-parent, 409 when already cancelled', () => {
    const s = state();
    given(s).when((x) => decideCancelSeries(x, guest, now)).thenThrows('forbidden');
    given(s).when((x) => decideCancelSeries(x, bob, now)).thenThrows('not_found');
    given({ ...s, parent: s.upcoming[0]! }).when((x) => decideCancelSeries(x, alice, now)).thenThrows('not_found');
    given({ ...s, parent: null }).when((x) => decideCancelSeries(x, admin, now)).thenThrows('not_found');
    given<CancelSeriesState>({ ...s, parent: { ...s.parent!, status: 'cancelled' } }).when((x) => decideCancelSeries(x, alice, now)).thenThrows('invalid_transition');
  });
});
