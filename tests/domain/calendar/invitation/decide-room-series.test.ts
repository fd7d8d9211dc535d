import { expect } from 'chai';
import type { CreateSeriesState } from '../../../../src/domain/booking/series/decide-create-series.js';
import { decideRoomSeries } from '../../../../src/domain/calendar/invitation/decide-room-series.js';
import type { RoomSeries } from '../../../../src/domain/calendar/invitation/room-series.js';
import { DomainError } from '../../../../src/domain/domain-error.js';
import { alice, at, booking, now, resource } from '../../booking/booking-fixtures.js';
import { idSource, parentId } from '../../booking/series/series-fixtures.js';

const weekly = (extra: Partial<RoomSeries> = {}): RoomSeries => ({
  startTime: at('2027-01-11T09:00:00Z'),
  endTime: at('2027-01-11T10:00:00Z'),
  recurrenceRule: 'FREQ=WEEKLY;COUNT=4',
  timeZone: 'UTC',
  exdates: [],
  moved: [],
  added: [],
  ...extra,
});
const ask = () => ({ parentId, newId: idSource(), title: 'Weekly', calendarUid: 'uid-1' });
const busyAt = (start: string, end: string) => booking({ id: `busy-${start}`, bookerProfileId: 'bob', startTime: start, endTime: end });
const state = (allowed: number, busy: string[][] = []): CreateSeriesState => ({
  resource: resource({ schedulingConflictsAllowed: allowed }),
  overlapping: busy.map(([start, end]) => busyAt(start!, end!)),
  activeBookingsOfBooker: 0,
  blackouts: [],
});
const starts = (events: { data: { booking: { startTime: string; isSeriesParent: boolean } } }[]) => events.filter((e) => !e.data.booking.isSeriesParent).map((e) => e.data.booking.startTime);

describe('a room deciding a recurring invitation (contract §26, schedulingConflictsAllowed)', () => {
  it('books every occurrence when none is refused, each with the event’s UID, the parent first', () => {
    const { events, declined } = decideRoomSeries(weekly(), ask(), state(0), alice, now);
    expect(events[0]!.data.booking).to.include({ id: parentId, isSeriesParent: true, calendarUid: 'uid-1' });
    expect(starts(events)).to.deep.equal(['2027-01-11T09:00:00Z', '2027-01-18T09:00:00Z', '2027-01-25T09:00:00Z', '2027-02-01T09:00:00Z']);
    expect(events.every((e) => e.data.booking.calendarUid === 'uid-1')).to.equal(true);
    expect(declined).to.deep.equal([]);
  });

  it('refuses the whole series with the conflict when more occurrences are refused than allowed', () => {
    const busy = [['2027-01-18T09:30:00Z', '2027-01-18T10:30:00Z'], ['2027-01-25T09:00:00Z', '2027-01-25T09:15:00Z']];
    expect(() => decideRoomSeries(weekly(), ask(), state(1, busy), alice, now)).to.throw(DomainError).with.property('code', 'booking_conflict');
  });

  it('books the rest and declines the refused ones when they are at most the allowed number', () => {
    const busy = [['2027-01-18T09:30:00Z', '2027-01-18T10:30:00Z'], ['2027-01-25T09:00:00Z', '2027-01-25T09:15:00Z']];
    const { events, declined } = decideRoomSeries(weekly(), ask(), state(2, busy), alice, now);
    expect(starts(events)).to.deep.equal(['2027-01-11T09:00:00Z', '2027-02-01T09:00:00Z']);
    expect(declined.map(String)).to.deep.equal(['2027-01-18T09:00:00Z', '2027-01-25T09:00:00Z']);
  });

  it('never books a series of no occurrence: every one refused refuses it, whatever is allowed', () => {
    const busy = [['2027-01-01T00:00:00Z', '2027-03-01T00:00:00Z']];
    expect(() => decideRoomSeries(weekly(), ask(), state(10, busy), alice, now)).to.throw(DomainError).with.property('code', 'booking_conflict');
  });

  it('holds a moved instance at its new times and declines it by its RECURRENCE-ID', () => {
    const moved = [{ recurrenceId: at('2027-01-18T09:00:00Z'), start: at('2027-01-18T14:00:00Z'), end: at('2027-01-18T15:00:00Z') }];
    const free = decideRoomSeries(weekly({ moved }), ask(), state(0), alice, now);
    expect(starts(free.events)).to.include('2027-01-18T14:00:00Z').and.not.include('2027-01-18T09:00:00Z');
    const refused = decideRoomSeries(weekly({ moved }), ask(), state(1, [['2027-01-18T14:30:00Z', '2027-01-18T15:30:00Z']]), alice, now);
    expect(refused.declined.map(String)).to.deep.equal(['2027-01-18T09:00:00Z']);
  });

  it('counts only the occurrences it books towards the booker’s limit on the room', () => {
    const limited: CreateSeriesState = { ...state(1, [['2027-01-18T09:30:00Z', '2027-01-18T10:30:00Z']]), resource: resource({ schedulingConflictsAllowed: 1, maxBookingsPerUser: 3 }) };
    expect(starts(decideRoomSeries(weekly(), ask(), limited, alice, now).events)).to.have.length(3);
  });
});
