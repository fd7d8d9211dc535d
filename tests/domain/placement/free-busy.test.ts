import { expect } from 'chai';
import type { Blackout } from '../../../src/domain/blackout/blackout.js';
import { freeBusy, type FreeBusyPeriod } from '../../../src/domain/placement/free-busy.js';
import { occupationMet } from '../../../src/domain/placement/occupation.js';
import { at, booking, resource, resourceUuid, workspace } from '../booking/booking-fixtures.js';

const range = { start: at('2027-01-05T00:00:00Z'), end: at('2027-01-06T00:00:00Z') };
const iso = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const periodsOf = (periods: FreeBusyPeriod[]) => periods.map((p) => `${p.type} ${iso(p.startMs)}-${iso(p.endMs)}`);
const utc = (hhmm: string) => `2027-01-05T${hhmm}:00Z`;
const held = (start: string, end: string, extra: Parameters<typeof booking>[0] = {}) => booking({ startTime: utc(start), endTime: utc(end), ...extra });

function blackout(from: string, to: string, resourceIds: string[] | null = [resourceUuid]): Blackout {
  return { id: 'b1', workspace, resourceIds, from: utc(from), to: utc(to), reason: 'closed', createdBy: 'admin', createdAt: utc('00:00') };
}

describe('free/busy of a room (contract §25)', () => {
  it('marks confirmed bookings BUSY and pending ones BUSY-TENTATIVE, merged, cancelled and completed ones free', () => {
    const bookings = [
      held('09:00', '10:00'),
      held('10:00', '11:00'),
      held('12:00', '13:00', { status: 'pending' }),
      held('14:00', '15:00', { status: 'cancelled' }),
      held('16:00', '17:00', { status: 'completed' }),
      held('18:00', '19:00', { isSeriesParent: true }),
    ];
    expect(periodsOf(freeBusy({ resource: resource(), bookings, blackouts: [], range }))).to.deep.equal(['BUSY 09:00-11:00', 'BUSY-TENTATIVE 12:00-13:00']);
  });

  it('widens the busy time by the buffers a new booking takes and by those the bookings hold', () => {
    // The booking holds 08:50–10:00; a new one holds 30 minutes before and 15 after its own times:
    // one starting before 10:30 or ending after 08:35 meets it.
    const bookings = [held('09:00', '10:00', { bufferBeforeMinutes: 10 })];
    const r = resource({ bufferBeforeMinutes: 30, bufferAfterMinutes: 15 });
    expect(periodsOf(freeBusy({ resource: r, bookings, blackouts: [], range }))).to.deep.equal(['BUSY 08:35-10:30']);
  });

  it('on a pool, is busy only where no unit is left, tentatively where pending bookings take the last', () => {
    const bookings = [held('09:00', '11:00'), held('10:00', '12:00'), held('10:30', '13:00', { status: 'pending' }), held('15:00', '16:00', { units: 3 })];
    expect(periodsOf(freeBusy({ resource: resource({}, { units: 3 }), bookings, blackouts: [], range }))).to.deep.equal([
      'BUSY-TENTATIVE 10:30-11:00',
      'BUSY 15:00-16:00',
    ]);
    expect(periodsOf(freeBusy({ resource: resource({}, { units: 2 }), bookings, blackouts: [], range }))).to.deep.equal([
      'BUSY 10:00-11:00',
      'BUSY-TENTATIVE 11:00-12:00',
      'BUSY 15:00-16:00',
    ]);
  });

  it('marks closed hours and blackouts of the resource BUSY-UNAVAILABLE where nothing busier is, workspace-wide ones too', () => {
    const r = resource({}, { availability: { timeZone: 'Europe/Berlin', hours: { tuesday: [{ start: '08:00', end: '18:00' }] } } });
    const bookings = [held('06:30', '07:30')];
    const blackouts = [blackout('12:00', '13:00'), blackout('14:00', '14:30', null), blackout('15:00', '16:00', ['another-resource'])];
    expect(periodsOf(freeBusy({ resource: r, bookings, blackouts, range }))).to.deep.equal([
      'BUSY-UNAVAILABLE 00:00-06:30',
      'BUSY 06:30-07:30',
      'BUSY-UNAVAILABLE 12:00-13:00',
      'BUSY-UNAVAILABLE 14:00-14:30',
      'BUSY-UNAVAILABLE 17:00-00:00',
    ]);
  });

  it('clips every period to the range and answers an inactive resource unavailable throughout', () => {
    const bookings = [held('00:00', '01:00', { startTime: '2027-01-04T23:00:00Z' })];
    expect(periodsOf(freeBusy({ resource: resource(), bookings, blackouts: [], range }))).to.deep.equal(['BUSY 00:00-01:00']);
    expect(periodsOf(freeBusy({ resource: resource({}, { isActive: false }), bookings, blackouts: [], range }))).to.deep.equal(['BUSY-UNAVAILABLE 00:00-00:00']);
  });
});

describe('the occupation a placement meets', () => {
  it('is, at each instant, the largest use within the buffers around it', () => {
    const hour = 3_600_000;
    const use = [
      { startMs: 10 * hour, endMs: 11 * hour, units: 1 },
      { startMs: 11 * hour, endMs: 12 * hour, units: 3 },
      { startMs: 14 * hour, endMs: 15 * hour, units: 2 },
    ];
    const met = occupationMet(use, { bufferBeforeMinutes: 60, bufferAfterMinutes: 30 }, 0, 24 * hour);
    expect(met).to.deep.equal([
      { startMs: 9.5 * hour, endMs: 10.5 * hour, units: 1 },
      { startMs: 10.5 * hour, endMs: 13 * hour, units: 3 },
      { startMs: 13.5 * hour, endMs: 16 * hour, units: 2 },
    ]);
  });
});
