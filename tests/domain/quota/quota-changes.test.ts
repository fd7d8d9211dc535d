import { expect } from 'chai';
import { countedOf, ledgerAfter, usagesAfter } from '../../../src/domain/quota/quota-changes.js';
import { quotaRefusal } from '../../../src/domain/quota/quota-refusal.js';
import { quotaUsagesAt, type CountedBooking } from '../../../src/domain/quota/quota-usage.js';
import { at, booking, resource } from '../booking/booking-fixtures.js';
import { counted, quota, quotaId } from './quota-fixtures.js';

const room = resource();
const other = { id: 'other-room', resourceType: 'zone' as const, groupId: null };
const usagesAt = (bookings: CountedBooking[], start: string, q = quota({ limit: 2 })) => quotaUsagesAt([q], bookings, at(start));
const moved = (from: CountedBooking, start: string, end: string): CountedBooking => ({ ...from, startTime: at(start), endTime: at(end) });

describe('quota usage after earlier steps of one write (contract §17 under §26)', () => {
  it('a booking moved within the period counts once, at its new length', () => {
    const held = counted('2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', other);
    const usages = usagesAfter(usagesAt([held], '2027-01-05T13:00:00Z'), { before: [held], after: [moved(held, '2027-01-05T13:00:00Z', '2027-01-05T14:30:00Z')] });
    expect(usages[0]!.used).to.equal(1.5);
    expect(quotaRefusal(usages, room, at('2027-01-05T13:00:00Z'), at('2027-01-05T13:30:00Z'))).to.equal(null);
    expect(quotaRefusal(usages, room, at('2027-01-05T13:00:00Z'), at('2027-01-05T13:31:00Z'))?.id).to.equal(quotaId);
  });

  it('a booking moved into the period from another counts there; one moved out of it no longer does', () => {
    const elsewhere = counted('2027-01-04T09:00:00Z', '2027-01-04T10:00:00Z', other);
    const into = usagesAfter(usagesAt([elsewhere], '2027-01-05T09:00:00Z'), { before: [elsewhere], after: [moved(elsewhere, '2027-01-05T09:00:00Z', '2027-01-05T10:30:00Z')] });
    expect(into[0]!.used).to.equal(1.5);
    const here = counted('2027-01-05T09:00:00Z', '2027-01-05T11:00:00Z', other);
    const out = usagesAfter(usagesAt([here], '2027-01-05T13:00:00Z'), { before: [here], after: [moved(here, '2027-01-06T09:00:00Z', '2027-01-06T11:00:00Z')] });
    expect(out[0]!.used).to.equal(0);
  });

  it('a booking made counts; one cancelled no longer does; bookings of resources the quota does not match change nothing', () => {
    const held = counted('2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', other);
    const made = counted('2027-01-05T11:00:00Z', '2027-01-05T11:45:00Z', other);
    expect(usagesAfter(usagesAt([held], '2027-01-05T13:00:00Z'), { before: [held], after: [made] })[0]!.used).to.equal(0.75);
    const scoped = quota({ limit: 2, resourceIds: [room.id] });
    expect(usagesAfter(usagesAt([], '2027-01-05T13:00:00Z', scoped), { before: [], after: [made] })[0]!.used).to.equal(0);
  });

  it('a series’ ledger: a moved booking replaced by its new times, a made one added, a cancelled one taken out', () => {
    const [kept, moving, cancelled] = ['09', '11', '13'].map((h) => counted(`2027-01-05T${h}:00:00Z`, `2027-01-05T${h}:30:00Z`, other));
    const made = counted('2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z', other);
    const to = moved(moving!, '2027-01-06T11:00:00Z', '2027-01-06T12:00:00Z');
    const ledger = ledgerAfter({ quotas: [quota()], counted: [kept!, moving!, cancelled!] }, { before: [moving!, cancelled!], after: [to, made] });
    expect(ledger.counted.map((b) => [b.id, b.startTime.toString()])).to.deep.equal([
      [kept!.id, '2027-01-05T09:00:00Z'],
      [moving!.id, '2027-01-06T11:00:00Z'],
      [made.id, '2027-01-06T09:00:00Z'],
    ]);
  });

  it('quotas count a booking of any status but cancelled, never a series parent', () => {
    expect(countedOf(booking({ status: 'pending' }), room)).to.not.equal(null);
    expect(countedOf(booking({ status: 'no_show' }), room)).to.not.equal(null);
    expect(countedOf(booking({ status: 'cancelled' }), room)).to.equal(null);
    expect(countedOf(booking({ isSeriesParent: true }), room)).to.equal(null);
  });
});
