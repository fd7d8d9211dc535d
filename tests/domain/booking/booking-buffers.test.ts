import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { availableSlots, busyTimesOf, calendarDay } from '../../../src/domain/booking/available-slots.js';
import { decideCreateBooking, type CreateBooking, type CreateBookingState } from '../../../src/domain/booking/decide-create-booking.js';
import { decideRescheduleBooking, type RescheduleBookingState } from '../../../src/domain/booking/decide-reschedule-booking.js';
import { decideCreateSeries, type CreateSeries } from '../../../src/domain/booking/series/decide-create-series.js';
import { decideUpdateSeries } from '../../../src/domain/booking/series/decide-update-series.js';
import { previewSeriesOccurrences } from '../../../src/domain/booking/series/preview-series-occurrences.js';
import { alice, at, booking, now, resource } from './booking-fixtures.js';
import { given } from './decider-spec.js';
import { idSource, parentId, storedSeries } from './series/series-fixtures.js';

// A booking 09:00–10:00 on 2027-01-05 unless a test says otherwise.
const command = (extra: Partial<CreateBooking> = {}): CreateBooking => ({
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  title: 'Workshop',
  startTime: at('2027-01-05T09:00:00Z'),
  endTime: at('2027-01-05T10:00:00Z'),
  ...extra,
});
const createState = (extra: Partial<CreateBookingState> = {}): CreateBookingState => ({ resource: resource(), overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [], ...extra });
const buffered = (before: number, after: number) => resource({ bufferBeforeMinutes: before, bufferAfterMinutes: after });

describe('buffers: a new booking occupies its times widened by the resource’s buffers', () => {
  it('conflicts with a neighbour that ends inside its own before-buffer (409 names the neighbour with its own times)', () => {
    const earlier = booking({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:45:00Z' });
    given(createState({ resource: buffered(30, 0), overlapping: [earlier] }))
      .when((s) => decideCreateBooking(command(), s, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: earlier.id, startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:45:00Z' }] });
  });

  it('conflicts with a neighbour whose own after-buffer reaches into its times, whatever the resource’s buffers now', () => {
    const earlier = booking({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:45:00Z', bufferAfterMinutes: 20 });
    given(createState({ overlapping: [earlier] }))
      .when((s) => decideCreateBooking(command(), s, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: earlier.id, startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:45:00Z' }] });
  });

  it('conflicts when its after-buffer meets a later neighbour’s before-buffer', () => {
    const later = booking({ startTime: '2027-01-05T10:30:00Z', endTime: '2027-01-05T11:00:00Z', bufferBeforeMinutes: 20 });
    given(createState({ resource: buffered(0, 15), overlapping: [later] }))
      .when((s) => decideCreateBooking(command(), s, alice, now))
      .thenThrows('booking_conflict');
  });

  it('accepts ranges that only touch, and records the buffers in force on the booking', () => {
    const earlier = booking({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:20:00Z', bufferAfterMinutes: 10 });
    const later = booking({ startTime: '2027-01-05T10:30:00Z', endTime: '2027-01-05T11:00:00Z', bufferBeforeMinutes: 15 });
    const event = decideCreateBooking(command(), createState({ resource: buffered(30, 15), overlapping: [earlier, later] }), alice, now);
    expect(event.data.booking).to.include({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z', bufferBeforeMinutes: 30, bufferAfterMinutes: 15 });
  });

  it('buffers of inactive bookings and series parents hold nothing', () => {
    const overlapping = [
      booking({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:50:00Z', bufferAfterMinutes: 30, status: 'cancelled' }),
      booking({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:50:00Z', bufferAfterMinutes: 30, isSeriesParent: true }),
    ];
    expect(decideCreateBooking(command(), createState({ resource: buffered(30, 30), overlapping }), alice, now).type).to.equal('BookingCreated');
  });

  it('a policy refusal still comes first (422 before a buffer’s 409)', () => {
    const earlier = booking({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:45:00Z' });
    given(createState({ resource: resource({ bufferBeforeMinutes: 30, maxDurationMinutes: 30 }), overlapping: [earlier] }))
      .when((s) => decideCreateBooking(command(), s, alice, now))
      .thenThrows('policy_violation', { policy: 'maxDurationMinutes' });
  });
});

describe('buffers when rescheduling', () => {
  const moved = { startTime: at('2027-01-05T11:00:00Z'), endTime: at('2027-01-05T12:00:00Z') };
  const state = (extra: Partial<RescheduleBookingState> = {}): RescheduleBookingState => ({ booking: booking(), resource: resource(), overlapping: [], blackouts: [], ...extra });

  it('refuses new times whose occupied range meets a neighbour’s (409)', () => {
    const neighbour = booking({ startTime: '2027-01-05T12:10:00Z', endTime: '2027-01-05T13:00:00Z' });
    given(state({ resource: buffered(0, 15), overlapping: [neighbour] }))
      .when((s) => decideRescheduleBooking(moved, s, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: neighbour.id, startTime: '2027-01-05T12:10:00Z', endTime: '2027-01-05T13:00:00Z' }] });
  });

  it('new times take the buffers in force; the booking’s own old range is never in its way', () => {
    const own = booking({ bufferAfterMinutes: 60 });
    const [event] = decideRescheduleBooking(moved, state({ booking: own, resource: buffered(5, 10), overlapping: [own] }), alice, now);
    expect(event!.data.booking).to.include({ startTime: '2027-01-05T11:00:00Z', bufferBeforeMinutes: 5, bufferAfterMinutes: 10 });
  });

  it('a title-only change keeps the buffers the booking was decided with', () => {
    const own = booking({ bufferBeforeMinutes: 45 });
    const [event] = decideRescheduleBooking({ title: 'Renamed' }, state({ booking: own, resource: buffered(0, 0) }), alice, now);
    expect(event!.data.booking).to.include({ title: 'Renamed', bufferBeforeMinutes: 45, bufferAfterMinutes: 0 });
  });
});

describe('buffers in a series', () => {
  const series = (extra: Partial<CreateSeries> = {}): CreateSeries => ({
    parentId,
    newId: idSource(),
    title: 'Stand-up',
    startTime: at('2027-01-11T09:00:00Z'),
    endTime: at('2027-01-11T09:30:00Z'),
    recurrenceRule: 'FREQ=WEEKLY;COUNT=3',
    ...extra,
  });

  it('refuses the whole series when one occurrence’s occupied range meets a booking (409)', () => {
    const inTheWay = booking({ startTime: '2027-01-18T09:40:00Z', endTime: '2027-01-18T10:00:00Z' });
    given({ resource: buffered(0, 15), overlapping: [inTheWay], activeBookingsOfBooker: 0, blackouts: [] })
      .when((s) => decideCreateSeries(series(), s, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: inTheWay.id, startTime: '2027-01-18T09:40:00Z', endTime: '2027-01-18T10:00:00Z' }] });
  });

  it('gives every record of the series the buffers in force', () => {
    const events = decideCreateSeries(series(), { resource: buffered(10, 5), overlapping: [], activeBookingsOfBooker: 0, blackouts: [] }, alice, now);
    expect(events.map((e) => [e.data.booking.bufferBeforeMinutes, e.data.booking.bufferAfterMinutes])).to.deep.equal(Array(4).fill([10, 5]));
  });

  it('refuses occurrences whose occupied ranges meet each other (400); touching ones are fine', () => {
    // Daily 09:00–10:00 leaves 23 hours (1380 minutes) between occurrences.
    const daily = series({ endTime: at('2027-01-11T10:00:00Z'), recurrenceRule: 'FREQ=DAILY;COUNT=3' });
    given({ resource: buffered(661, 720), overlapping: [], activeBookingsOfBooker: 0, blackouts: [] })
      .when((s) => decideCreateSeries(daily, s, alice, now))
      .thenThrows('invalid_request');
    expect(decideCreateSeries(daily, { resource: buffered(660, 720), overlapping: [], activeBookingsOfBooker: 0, blackouts: [] }, alice, now)).to.have.length(4);
  });

  it('the preview (dry run) lists an occurrence in the way of a buffer as the creation would refuse it', () => {
    const inTheWay = booking({ startTime: '2027-01-18T08:40:00Z', endTime: '2027-01-18T08:55:00Z' });
    const preview = previewSeriesOccurrences(series(), { resource: buffered(10, 0), overlapping: [inTheWay], activeBookingsOfBooker: 0, blackouts: [] }, alice, now);
    expect(preview.map((o) => o.conflicts.map((c) => c.bookingId))).to.deep.equal([[], [inTheWay.id], []]);
  });

  it('a changed series meets another booking’s buffer (409), never its own occurrences', () => {
    const { parent, occurrences } = storedSeries(3);
    const neighbour = booking({ startTime: '2027-01-18T10:00:00Z', endTime: '2027-01-18T11:00:00Z', bufferBeforeMinutes: 15 });
    const state = { parent, resource: resource(), upcoming: occurrences, overlapping: [...occurrences, neighbour], activeBookingsOfBooker: 3, blackouts: [] };
    const later = { newId: idSource('bbbbbbbb'), startTime: at('2027-01-11T09:20:00Z'), endTime: at('2027-01-11T09:50:00Z') };
    given(state)
      .when((s) => decideUpdateSeries(later, s, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: neighbour.id, startTime: '2027-01-18T10:00:00Z', endTime: '2027-01-18T11:00:00Z' }] });
    const earlier = { newId: idSource('bbbbbbbb'), startTime: at('2027-01-11T08:50:00Z'), endTime: at('2027-01-11T09:20:00Z') };
    const events = decideUpdateSeries(earlier, { ...state, resource: buffered(5, 5) }, alice, now);
    expect(events.slice(1).map((e) => e.data.booking.bufferAfterMinutes)).to.deep.equal([5, 5, 5]);
  });
});

describe('free slots with buffers: a slot is listed exactly when a create of it would be accepted', () => {
  const date = Temporal.PlainDate.from('2027-01-05');
  const day = calendarDay(date, 'UTC');
  const slotsOf = (policy: { bufferBeforeMinutes: number; bufferAfterMinutes: number }, bookings: ReturnType<typeof booking>[]) =>
    availableSlots({ resource: resource(policy), day, slotMinutes: 30, busy: busyTimesOf(bookings), earliestStart: at('2020-01-01T00:00:00Z') }).map((s) =>
      s.start.toString().slice(11, 16),
    );

  it('leaves out the slots whose buffers reach a booking, and those a booking’s own buffers reach', () => {
    const meeting = booking({ startTime: '2027-01-05T10:00:00Z', endTime: '2027-01-05T11:00:00Z', bufferBeforeMinutes: 10, bufferAfterMinutes: 0 });
    const around = (slots: string[]) => slots.filter((s) => s >= '08:30' && s <= '12:00');
    expect(around(slotsOf({ bufferBeforeMinutes: 0, bufferAfterMinutes: 0 }, [meeting]))).to.deep.equal(['08:30', '09:00', '11:00', '11:30', '12:00']);
    expect(around(slotsOf({ bufferBeforeMinutes: 0, bufferAfterMinutes: 20 }, [meeting]))).to.deep.equal(['08:30', '09:00', '11:00', '11:30', '12:00']);
    expect(around(slotsOf({ bufferBeforeMinutes: 0, bufferAfterMinutes: 30 }, [meeting]))).to.deep.equal(['08:30', '11:00', '11:30', '12:00']);
    expect(around(slotsOf({ bufferBeforeMinutes: 15, bufferAfterMinutes: 0 }, [meeting]))).to.deep.equal(['08:30', '09:00', '11:30', '12:00']);
  });

  it('agrees with the create’s decision on every slot of the day', () => {
    const bookings = [
      booking({ startTime: '2027-01-05T07:10:00Z', endTime: '2027-01-05T07:50:00Z', bufferAfterMinutes: 25 }),
      booking({ startTime: '2027-01-05T13:00:00Z', endTime: '2027-01-05T14:00:00Z', bufferBeforeMinutes: 40, bufferAfterMinutes: 5 }),
      booking({ startTime: '2027-01-05T14:30:00Z', endTime: '2027-01-05T15:00:00Z', status: 'cancelled', bufferAfterMinutes: 120 }),
    ];
    for (const policy of [
      { bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
      { bufferBeforeMinutes: 30, bufferAfterMinutes: 0 },
      { bufferBeforeMinutes: 7, bufferAfterMinutes: 45 },
    ]) {
      const listed = new Set(slotsOf(policy, bookings));
      for (let minute = 0; minute < 24 * 60; minute += 30) {
        const start = day.start.add({ minutes: minute });
        let accepted = true;
        try {
          decideCreateBooking(command({ startTime: start, endTime: start.add({ minutes: 30 }) }), createState({ resource: resource(policy), overlapping: bookings }), alice, now);
        } catch {
          accepted = false;
        }
        expect(listed.has(start.toString().slice(11, 16)), `${start.toString()} with ${JSON.stringify(policy)}`).to.equal(accepted);
      }
    }
  });
});
