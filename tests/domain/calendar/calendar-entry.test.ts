import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../../src/domain/access/principal.js';
import type { Booking } from '../../../src/domain/booking/booking.js';
import { changedBooking, sequenceOf } from '../../../src/domain/booking/booking-sequence.js';
import { calendarEntryOf } from '../../../src/domain/calendar/calendar-entry.js';
import { feedOpens, feedWindow } from '../../../src/domain/calendar/calendar-feed.js';

const workspace = '6a1f3c1e-1111-4a4a-9b9b-000000000001';
const booking: Booking = {
  id: '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77',
  bookableResourceId: '7c1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77',
  workspace,
  resourceType: 'zone',
  resourceId: 'zone-1',
  bookerProfileId: 'alice',
  bookerEmail: null,
  title: 'Planning',
  startTime: '2027-01-05T09:00:00Z',
  endTime: '2027-01-05T10:00:00Z',
  units: 1,
  pooled: false,
  status: 'pending',
  isSeriesParent: false,
  bundleId: null,
  calendarUid: null,
  recurrenceRule: null,
  recurrenceTimeZone: null,
  recurrenceParentId: null,
  exceptionOf: null,
  confirmedBy: null,
  confirmedAt: null,
  cancelledBy: null,
  cancelledAt: null,
  onBehalfOf: null,
  reason: null,
  checkedInAt: null,
  checkedOutAt: null,
  createdAt: '2027-01-01T08:00:00Z',
  updatedAt: '2027-01-01T08:00:00Z',
  createdBy: 'alice',
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
};
const as = (sub: string, level: Principal['level']): Principal => ({ sub, level, workspace, groups: [], email: null });

describe('a booking as a calendar entry', () => {
  it('maps every status: pending tentative, held ones confirmed, cancelled cancelled', () => {
    const statusOf = (status: Booking['status']) => calendarEntryOf({ ...booking, status }, 'Room', as('alice', 4)).status;
    expect(['pending', 'confirmed', 'completed', 'no_show', 'cancelled'].map((s) => statusOf(s as Booking['status']))).to.deep.equal(['TENTATIVE', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CANCELLED']);
  });

  it('shows the title to the booker and LV1–LV3, Busy to other LV4/LV5', () => {
    expect(calendarEntryOf(booking, 'Room', as('alice', 4)).summary).to.equal('Planning');
    expect(calendarEntryOf(booking, 'Room', as('admin', 3)).summary).to.equal('Planning');
    expect(calendarEntryOf(booking, 'Room', as('bob', 4)).summary).to.equal('Busy');
    expect(calendarEntryOf(booking, 'Room', as('guest', 5)).summary).to.equal('Busy');
  });

  it('numbers SEQUENCE by changes: 0 at creation, one more with every change, even within one second', () => {
    const created = { ...booking, sequence: 0 };
    const moved = changedBooking(created, created.createdAt, { startTime: '2027-01-05T10:00:00Z' });
    const confirmed = changedBooking(moved, created.createdAt, { status: 'confirmed' });
    expect([created, moved, confirmed].map((b) => calendarEntryOf(b, 'Room', as('alice', 4)).sequence)).to.deep.equal([0, 1, 2]);
  });

  it('numbers a booking of events written before the count by whole seconds since creation, then counts on', () => {
    expect(sequenceOf(booking)).to.equal(0);
    expect(sequenceOf({ ...booking, updatedAt: '2027-01-01T08:00:00.999Z' })).to.equal(0);
    expect(sequenceOf({ ...booking, updatedAt: '2027-01-02T08:00:00Z' })).to.equal(86_400);
    expect(changedBooking({ ...booking, updatedAt: '2027-01-02T08:00:00Z' }, '2027-01-02T08:00:00Z').sequence).to.equal(86_401);
  });

  it('has the UID, times, stamp and location of the contract', () => {
    const entry = calendarEntryOf(booking, 'Room 1', as('alice', 4));
    expect(entry.uid).to.equal(`${booking.id}@workspace-booking`);
    expect(entry.start.toString()).to.equal('2027-01-05T09:00:00Z');
    expect(entry.stamp.toString()).to.equal(booking.updatedAt);
    expect(entry.location).to.equal('Room 1');
  });
});

describe('a feed', () => {
  it('covers 30 days back and 180 ahead', () => {
    const window = feedWindow(Temporal.Instant.from('2027-02-11T08:00:00Z'));
    expect(window.from.toString()).to.equal('2027-01-12T08:00:00Z');
    expect(window.to.toString()).to.equal('2027-08-10T08:00:00Z');
    expect(window.cancelledSince.toString()).to.equal('2027-01-12T08:00:00Z');
  });

  it('opens only the feed its token was made for', () => {
    const resource = booking.bookableResourceId;
    expect(feedOpens({ bookableResourceId: resource }, { kind: 'resource', bookableResourceId: resource.toUpperCase() })).to.equal(true);
    expect(feedOpens({ bookableResourceId: resource }, { kind: 'resource', bookableResourceId: booking.id })).to.equal(false);
    expect(feedOpens({ bookableResourceId: resource }, { kind: 'booker' })).to.equal(false);
    expect(feedOpens({ bookableResourceId: null }, { kind: 'booker' })).to.equal(true);
    expect(feedOpens({ bookableResourceId: null }, { kind: 'resource', bookableResourceId: resource })).to.equal(false);
  });
});
