import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { availableSlots, busyTimesOf, calendarDay } from '../../../src/domain/booking/available-slots.js';
import { at, booking, resource } from './booking-fixtures.js';

const longAgo = at('2020-01-01T00:00:00Z');
const local = (instant: Temporal.Instant, zone: string) => instant.toZonedDateTimeISO(zone).toString({ timeZoneName: 'never' });

function slotsOf(date: string, zone: string, options: Partial<Parameters<typeof availableSlots>[0]> = {}) {
  const day = calendarDay(Temporal.PlainDate.from(date), zone);
  return availableSlots({ resource: resource(), day, slotMinutes: 30, busy: [], earliestStart: longAgo, ...options }).map((s) => ({
    start: local(s.start, zone),
    end: local(s.end, zone),
  }));
}

describe('free slots on days of a DST change', () => {
  it('Europe/Berlin 2027-03-28 has 23 hours: 46 half-hour slots, the one at 01:30 ending at 03:00', () => {
    const slots = slotsOf('2027-03-28', 'Europe/Berlin');
    expect(slots).to.have.length(46);
    expect(slots[0]).to.deep.equal({ start: '2027-03-28T00:00:00+01:00', end: '2027-03-28T00:30:00+01:00' });
    expect(slots[3]).to.deep.equal({ start: '2027-03-28T01:30:00+01:00', end: '2027-03-28T03:00:00+02:00' });
    expect(slots.at(-1)).to.deep.equal({ start: '2027-03-28T23:30:00+02:00', end: '2027-03-29T00:00:00+02:00' });
  });

  it('Europe/Berlin 2027-10-31 has 25 hours: 50 slots, 02:00–03:00 twice', () => {
    const slots = slotsOf('2027-10-31', 'Europe/Berlin');
    expect(slots).to.have.length(50);
    expect(slots.slice(4, 8).map((s) => s.start)).to.deep.equal([
      '2027-10-31T02:00:00+02:00',
      '2027-10-31T02:30:00+02:00',
      '2027-10-31T02:00:00+01:00',
      '2027-10-31T02:30:00+01:00',
    ]);
  });

  it('America/New_York 2027-03-14 and 2027-11-07 have 23 and 25 hours', () => {
    expect(slotsOf('2027-03-14', 'America/New_York')).to.have.length(46);
    expect(slotsOf('2027-11-07', 'America/New_York')).to.have.length(50);
    expect(slotsOf('2027-11-07', 'America/New_York', { slotMinutes: 60 }).map((s) => s.start).slice(0, 3)).to.deep.equal([
      '2027-11-07T00:00:00-04:00',
      '2027-11-07T01:00:00-04:00',
      '2027-11-07T01:00:00-05:00',
    ]);
  });

  it('keeps inside operating hours of the resource’s own zone, which follow its DST', () => {
    const berlinHours = resource({}, { availability: { timeZone: 'Europe/Berlin', hours: { sunday: [{ start: '08:00', end: '10:00' }] } } });
    expect(slotsOf('2027-03-28', 'Europe/Berlin', { resource: berlinHours, slotMinutes: 60 })).to.deep.equal([
      { start: '2027-03-28T08:00:00+02:00', end: '2027-03-28T09:00:00+02:00' },
      { start: '2027-03-28T09:00:00+02:00', end: '2027-03-28T10:00:00+02:00' },
    ]);
    // The same hours seen from New York (already on summer time since 03-14): 02:00–04:00 local.
    expect(slotsOf('2027-03-28', 'America/New_York', { resource: berlinHours, slotMinutes: 60 }).map((s) => s.start)).to.deep.equal([
      '2027-03-28T02:00:00-04:00',
      '2027-03-28T03:00:00-04:00',
    ]);
  });

  it('leaves out slots overlapping active bookings (back-to-back is free) and those before the earliest start', () => {
    const bookings = [
      booking({ startTime: '2027-03-28T08:00:00Z', endTime: '2027-03-28T09:00:00Z' }),
      booking({ startTime: '2027-03-28T09:00:00Z', endTime: '2027-03-28T10:00:00Z', status: 'cancelled' }),
      booking({ startTime: '2027-03-28T10:15:00Z', endTime: '2027-03-28T10:45:00Z', status: 'pending' }),
    ];
    const starts = slotsOf('2027-03-28', 'UTC', { busy: busyTimesOf(bookings), slotMinutes: 60, earliestStart: at('2027-03-28T06:30:00Z') }).map((s) => s.start);
    expect(starts.slice(0, 4)).to.deep.equal(['2027-03-28T07:00:00+00:00', '2027-03-28T09:00:00+00:00', '2027-03-28T11:00:00+00:00', '2027-03-28T12:00:00+00:00']);
  });

  it('an inactive resource has no slots', () => {
    expect(slotsOf('2027-03-28', 'UTC', { resource: resource({}, { isActive: false }) })).to.deep.equal([]);
  });
});
