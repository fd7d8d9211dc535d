import { expect } from 'chai';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../../src/domain/access/principal.js';
import type { Booking } from '../../../src/domain/booking/booking.js';
import { calendarObjectKey, calendarObjectText, type CalendarObjectSource } from '../../../src/domain/calendar/calendar-object.js';
import { foldContentLines, unfoldContentLines } from '../../../src/domain/calendar/fold-content-lines.js';
import { readSyncToken, syncTokenMaxAgeDays, syncTokenText } from '../../../src/domain/calendar/sync-token.js';
import { timeZoneCalendarText } from '../../../src/domain/calendar/time-zone-component.js';

const workspace = '6a1f3c1e-1111-4a4a-9b9b-000000000001';
const room = '7c1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';
const part = '8d1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';
const booking: Booking = {
  id: '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77',
  bookableResourceId: room,
  workspace,
  resourceType: 'zone',
  resourceId: 'zone-1',
  bookerProfileId: 'alice',
  bookerEmail: 'alice@example.com',
  title: 'Planning',
  startTime: '2027-01-05T09:00:00Z',
  endTime: '2027-01-05T10:00:00Z',
  units: 1,
  pooled: false,
  status: 'confirmed',
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
  onBehalfOf: null,
  cancelledAt: null,
  reason: null,
  checkedInAt: null,
  checkedOutAt: null,
  createdAt: '2027-01-01T08:00:00Z',
  updatedAt: '2027-01-02T08:30:00Z',
  createdBy: 'alice',
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  sequence: 2,
};
const as = (sub: string, level: Principal['level']): Principal => ({ sub, level, workspace, groups: [], email: null });

/** The one VEVENT of an object, as ical.js (Thunderbird's parser) reads it. */
function veventOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).to.have.length(1);
  return events[0]!;
}

describe('a booking as a CalDAV calendar object (contract §25)', () => {
  it('holds §18 content with ORGANIZER and X-BOOKING-ID, times in UTC', () => {
    const event = veventOf(calendarObjectText({ booking, location: 'Room 1', viewer: as('alice', 4), calendarResourceId: room }));
    expect(event.getFirstPropertyValue('uid')).to.equal(`${booking.id}@workspace-booking`);
    expect((event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).to.equal('2027-01-05T09:00:00.000Z');
    expect((event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString()).to.equal('2027-01-05T10:00:00.000Z');
    expect((event.getFirstPropertyValue('dtstart') as ICAL.Time).zone).to.equal(ICAL.Timezone.utcTimezone);
    expect((event.getFirstPropertyValue('last-modified') as ICAL.Time).toJSDate().toISOString()).to.equal('2027-01-02T08:30:00.000Z');
    expect(event.getFirstPropertyValue('summary')).to.equal('Planning');
    expect(event.getFirstPropertyValue('status')).to.equal('CONFIRMED');
    expect(event.getFirstPropertyValue('sequence')).to.equal(2);
    expect(event.getFirstPropertyValue('location')).to.equal('Room 1');
    expect(event.getFirstPropertyValue('organizer')).to.equal('mailto:alice@example.com');
    expect(event.getFirstPropertyValue('x-booking-id')).to.equal(booking.id);
    expect(event.hasProperty('x-via-resource')).to.equal(false);
  });

  it("hides another user's title and booker from LV4, shows them to an admin", () => {
    const bobSees = veventOf(calendarObjectText({ booking, location: 'Room 1', viewer: as('bob', 4), calendarResourceId: room }));
    expect(bobSees.getFirstPropertyValue('summary')).to.equal('Busy');
    expect(bobSees.hasProperty('organizer')).to.equal(false);
    const adminSees = veventOf(calendarObjectText({ booking, location: 'Room 1', viewer: as('admin', 2), calendarResourceId: room }));
    expect(adminSees.getFirstPropertyValue('summary')).to.equal('Planning');
    expect(adminSees.getFirstPropertyValue('organizer')).to.equal('mailto:alice@example.com');
  });

  it('names the resource booked when it is a part or whole of the calendar’s (§22)', () => {
    const event = veventOf(calendarObjectText({ booking: { ...booking, bookableResourceId: part }, location: 'Part', viewer: as('alice', 4), calendarResourceId: room }));
    expect(event.getFirstPropertyValue('x-via-resource')).to.equal(part);
  });

  it('maps pending to TENTATIVE', () => {
    const event = veventOf(calendarObjectText({ booking: { ...booking, status: 'pending' }, location: 'Room 1', viewer: as('alice', 4) }));
    expect(event.getFirstPropertyValue('status')).to.equal('TENTATIVE');
  });

  it('ends every line in CRLF, folded at 75 octets without splitting a character, and is equal bytes for equal input', () => {
    const title = `Quartalsplanung für Ärzte & Zahnärzte — ${'ü'.repeat(60)} ${'😀'.repeat(30)}`;
    const source = { booking: { ...booking, title }, location: 'Room 1', viewer: as('alice', 4) };
    const text = calendarObjectText(source);
    expect(text.endsWith('\r\n')).to.equal(true);
    expect(text.replace(/\r\n/g, '')).not.to.match(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line), line).to.be.at.most(75);
    expect(veventOf(text).getFirstPropertyValue('summary')).to.equal(title);
    expect(calendarObjectText(source)).to.equal(text);
    expect(calendarObjectText({ ...source, booking: { ...source.booking, sequence: 3 } })).not.to.equal(text);
  });

  it('folds and unfolds back to the same lines', () => {
    const line = `DESCRIPTION:${'a'.repeat(200)}`;
    const folded = foldContentLines(line);
    expect(folded.split('\r\n').slice(0, -1).every((l) => Buffer.byteLength(l) <= 75)).to.equal(true);
    expect(unfoldContentLines(folded)).to.equal(`${line}\r\n`);
  });
});

describe('sync tokens', () => {
  const now = Temporal.Instant.from('2027-03-01T10:00:00Z');
  it('reads back the position of a token it gave out', () => {
    expect(readSyncToken(syncTokenText(1234n, now), now, 2000n)).to.deep.equal({ kind: 'position', position: 1234n });
  });
  it('refuses tokens it never gave: another shape, a position past the horizon, a day to come', () => {
    expect(readSyncToken('http://example.com/sync/1', now, 2000n).kind).to.equal('unknown');
    expect(readSyncToken(syncTokenText(2001n, now), now, 2000n).kind).to.equal('unknown');
    expect(readSyncToken(syncTokenText(5n, now.add({ hours: 48 })), now, 2000n).kind).to.equal('unknown');
  });
  it(`refuses a token older than ${syncTokenMaxAgeDays} days`, () => {
    const old = syncTokenText(5n, now.subtract({ hours: 24 * (syncTokenMaxAgeDays + 1) }));
    expect(readSyncToken(old, now, 2000n).kind).to.equal('too-old');
  });
});

describe('calendar-timezone', () => {
  it("gives a zone's offset changes as ical.js reads them", () => {
    const text = timeZoneCalendarText('Europe/Berlin', Temporal.Instant.from('2027-03-01T10:00:00Z'));
    const zone = new ICAL.Timezone(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vtimezone')!);
    expect(zone.tzid).to.equal('Europe/Berlin');
    const summer = ICAL.Time.fromData({ year: 2027, month: 7, day: 1, hour: 12 }, zone);
    const winter = ICAL.Time.fromData({ year: 2027, month: 12, day: 1, hour: 12 }, zone);
    expect(summer.toJSDate().toISOString()).to.equal('2027-07-01T10:00:00.000Z');
    expect(winter.toJSDate().toISOString()).to.equal('2027-12-01T11:00:00.000Z');
  });
  it('gives a zone without changes one observance', () => {
    const text = timeZoneCalendarText('Asia/Kolkata', Temporal.Instant.from('2027-03-01T10:00:00Z'));
    expect(text).to.include('TZOFFSETTO:+0530');
  });
});

describe('the key of a calendar object', () => {
  /** Sources from a small world, so that equal keys come often, varying every field of the booking and the viewer. */
  const source: fc.Arbitrary<CalendarObjectSource> = fc
    .record({
      id: fc.constantFrom(booking.id, part),
      bookableResourceId: fc.constantFrom(room, part),
      workspace: fc.constantFrom(workspace, '6a1f3c1e-1111-4a4a-9b9b-000000000002'),
      bookerProfileId: fc.constantFrom('alice', 'bob'),
      bookerEmail: fc.constantFrom('alice@example.com', null),
      createdBy: fc.constantFrom('alice', 'carol'),
      title: fc.constantFrom('Planning', 'Review'),
      startTime: fc.constantFrom('2027-01-05T09:00:00Z', '2027-01-05T09:30:00Z'),
      endTime: fc.constantFrom('2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z'),
      units: fc.constantFrom(1, 2),
      status: fc.constantFrom('pending' as const, 'confirmed' as const, 'cancelled' as const),
      reason: fc.constantFrom(null, 'moved'),
      updatedAt: fc.constantFrom('2027-01-02T08:30:00Z', '2027-01-03T08:30:00Z'),
      sequence: fc.constantFrom(0, 1, undefined),
      location: fc.constantFrom('Room A', 'zone-1'),
      calendarResourceId: fc.constantFrom(room, part, undefined),
      viewer: fc.constantFrom(as('alice', 4), as('bob', 4), as('admin', 2)),
    })
    .map(({ location, calendarResourceId, viewer, ...fields }) => ({ booking: { ...booking, ...fields }, location, viewer, calendarResourceId }));

  it('is equal only where the texts are equal: a text kept under it is the text the source renders', () => {
    fc.assert(
      fc.property(source, source, (a, b) => {
        if (calendarObjectKey(a) === calendarObjectKey(b)) expect(calendarObjectText(a)).to.equal(calendarObjectText(b));
        else expect(calendarObjectText(a)).to.not.equal(calendarObjectText(b));
      }),
      { numRuns: 3000 },
    );
  });
});
