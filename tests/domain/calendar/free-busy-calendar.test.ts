import { expect } from 'chai';
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { freeBusyCalendarText } from '../../../src/domain/calendar/free-busy-calendar.js';
import { parseFreeBusyRequest } from '../../../src/domain/calendar/free-busy-request.js';
import { registrationIdOfAddress, resourceAddresses } from '../../../src/domain/calendar/resource-address.js';
import type { DomainError } from '../../../src/domain/domain-error.js';

const at = (iso: string) => Temporal.Instant.from(iso);
const ms = (iso: string) => Date.parse(iso);
const range = { start: at('2027-01-05T00:00:00Z'), end: at('2027-01-06T00:00:00Z') };
const roomId = '22222222-2222-4222-8222-222222222222';

describe('a VFREEBUSY as iCalendar text', () => {
  const text = freeBusyCalendarText({
    method: 'REPLY',
    uid: 'request-1',
    stamp: at('2027-01-04T08:00:00.250Z'),
    range,
    organizer: 'mailto:alice@example.com',
    attendee: `mailto:${roomId}@${'a-very-long-subdomain-of-resources.'.repeat(3)}invalid`,
    periods: [
      { type: 'BUSY-UNAVAILABLE', startMs: ms('2027-01-05T00:00:00Z'), endMs: ms('2027-01-05T07:00:00Z') },
      { type: 'BUSY', startMs: ms('2027-01-05T09:00:00.400Z'), endMs: ms('2027-01-05T10:00:00Z') },
      { type: 'BUSY', startMs: ms('2027-01-05T10:00:00.500Z'), endMs: ms('2027-01-05T11:00:00.001Z') },
      { type: 'BUSY-TENTATIVE', startMs: ms('2027-01-05T12:00:00Z'), endMs: ms('2027-01-05T13:00:00Z') },
    ],
  });

  it('ends every line in CRLF and folds none longer than 75 octets', () => {
    expect(text.endsWith('\r\n')).to.equal(true);
    expect(text.replace(/\r\n/g, '')).not.to.match(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line), line).to.be.at.most(75);
    expect(text).to.match(/\r\n /);
  });

  it('holds the method, UID, DTSTAMP, the range, ORGANIZER, ATTENDEE and FBTYPE periods in UTC, whole seconds outward', () => {
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('method')).to.equal('REPLY');
    const fb = calendar.getFirstSubcomponent('vfreebusy')!;
    expect(fb.getFirstPropertyValue('uid')).to.equal('request-1');
    expect(String(fb.getFirstPropertyValue('dtstamp'))).to.equal('2027-01-04T08:00:00Z');
    expect(String(fb.getFirstPropertyValue('dtstart'))).to.equal('2027-01-05T00:00:00Z');
    expect(String(fb.getFirstPropertyValue('dtend'))).to.equal('2027-01-06T00:00:00Z');
    expect(fb.getFirstPropertyValue('organizer')).to.equal('mailto:alice@example.com');
    expect(String(fb.getFirstPropertyValue('attendee'))).to.contain(roomId);
    const periods = fb.getAllProperties('freebusy').map((p) => `${p.getParameter('fbtype')} ${String(p.getFirstValue())}`);
    expect(periods).to.deep.equal([
      'BUSY-UNAVAILABLE 2027-01-05T00:00:00Z/2027-01-05T07:00:00Z',
      'BUSY 2027-01-05T09:00:00Z/2027-01-05T11:00:01Z',
      'BUSY-TENTATIVE 2027-01-05T12:00:00Z/2027-01-05T13:00:00Z',
    ]);
    expect(text).to.contain('FREEBUSY;FBTYPE=BUSY:20270105T090000Z/20270105T110001Z\r\n');
  });
});

describe('a free/busy request', () => {
  const request = (lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
  const vfreebusy = (extra: string[], method = 'METHOD:REQUEST') =>
    request([method, 'BEGIN:VFREEBUSY', 'UID:fb-1', 'DTSTAMP:20270104T080000Z', 'ORGANIZER:mailto:alice@example.com', ...extra, 'END:VFREEBUSY']);
  const refusal = (text: string) => {
    try {
      parseFreeBusyRequest(text);
    } catch (error) {
      return `${(error as DomainError).code}: ${(error as DomainError).message}`;
    }
    return 'accepted';
  };

  it('reads the attendees in order, the UTC range, UID and ORGANIZER', () => {
    const parsed = parseFreeBusyRequest(vfreebusy(['DTSTART:20270105T000000Z', 'DTEND:20270112T000000Z', 'ATTENDEE:urn:uuid:x', 'ATTENDEE;CN=Room:mailto:y@resources.invalid']));
    expect(parsed.attendees).to.deep.equal(['urn:uuid:x', 'mailto:y@resources.invalid']);
    expect(parsed.range.start.toString()).to.equal('2027-01-05T00:00:00Z');
    expect(parsed.range.end.toString()).to.equal('2027-01-12T00:00:00Z');
    expect(parsed).to.include({ uid: 'fb-1', organizer: 'mailto:alice@example.com' });
  });

  it('refuses with 400 what is not such a request, saying why', () => {
    const range = ['DTSTART:20270105T000000Z', 'DTEND:20270106T000000Z'];
    expect(refusal('not iCalendar at all')).to.match(/^invalid_request: the body is not one iCalendar object/);
    expect(refusal(request(['METHOD:REQUEST']))).to.equal('invalid_request: the calendar holds no VFREEBUSY');
    expect(refusal(vfreebusy([...range, 'ATTENDEE:urn:uuid:x'], 'METHOD:PUBLISH'))).to.equal('invalid_request: a free/busy request has METHOD:REQUEST');
    expect(refusal(vfreebusy(range))).to.equal('invalid_request: the VFREEBUSY names no ATTENDEE');
    const many = Array.from({ length: 101 }, (_, i) => `ATTENDEE:urn:uuid:${i}`);
    expect(refusal(vfreebusy([...range, ...many]))).to.match(/at most 100 ATTENDEEs; this one names 101/);
    expect(refusal(vfreebusy(['DTSTART:20270105T000000Z', 'DTEND:20270308T000001Z', 'ATTENDEE:urn:uuid:x']))).to.match(/at most 62 days/);
    expect(refusal(vfreebusy(['DTSTART:20270105T000000Z', 'DTEND:20270308T000000Z', 'ATTENDEE:urn:uuid:x']))).to.equal('accepted');
    expect(refusal(vfreebusy(['DTSTART:20270106T000000Z', 'DTEND:20270105T000000Z', 'ATTENDEE:urn:uuid:x']))).to.match(/must end after it starts/);
    expect(refusal(vfreebusy(['DTSTART:20270105T000000', 'DTEND:20270106T000000Z', 'ATTENDEE:urn:uuid:x']))).to.match(/DTSTART of a VFREEBUSY must be a UTC date-time/);
    expect(refusal(vfreebusy(['DTEND:20270106T000000Z', 'ATTENDEE:urn:uuid:x']))).to.match(/has no DTSTART/);
  });
});

describe('resource addresses', () => {
  it('names a resource by mailto at the configured domain or by urn:uuid, and nothing else', () => {
    const [mail, urn] = resourceAddresses(roomId, 'rooms.example');
    expect(registrationIdOfAddress(mail, 'rooms.example')).to.equal(roomId);
    expect(registrationIdOfAddress(urn.toUpperCase(), 'rooms.example')).to.equal(roomId);
    expect(registrationIdOfAddress(`MAILTO:${roomId.toUpperCase()}@Rooms.Example`, 'rooms.example')).to.equal(roomId);
    expect(registrationIdOfAddress(`mailto:${roomId}@elsewhere.example`, 'rooms.example')).to.equal(null);
    expect(registrationIdOfAddress('mailto:alice@rooms.example', 'rooms.example')).to.equal(null);
    expect(registrationIdOfAddress('urn:uuid:not-a-uuid', 'rooms.example')).to.equal(null);
  });
});
