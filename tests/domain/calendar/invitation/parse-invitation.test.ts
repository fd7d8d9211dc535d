import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { instantOf, type EventTime } from '../../../../src/domain/calendar/invitation/event-time.js';
import { InvalidCalendarObject, type CalendarObjectPrecondition } from '../../../../src/domain/calendar/invitation/invalid-calendar-object.js';
import { maxAttendeesPerInstance, maxEventComponents, parseInvitation } from '../../../../src/domain/calendar/invitation/parse-invitation.js';
import { calendarText, eventText, fixture, plain, roomAddress, vevent } from './invitation-fixtures.js';

const at = (text: string) => Temporal.Instant.from(text);
const instant = (time: EventTime, zone = 'UTC') => instantOf(time, zone).toString();

function refusal(text: string): InvalidCalendarObject {
  try {
    parseInvitation(text);
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidCalendarObject);
    return error as InvalidCalendarObject;
  }
  throw new Error('parsed');
}

const expectRefused = (text: string, precondition: CalendarObjectPrecondition, message: RegExp) => {
  const error = refusal(text);
  expect(error.precondition).to.equal(precondition);
  expect(error.message).to.match(message);
};

const vtimezone = (tzid: string, ...extra: string[]) => [
  'BEGIN:VTIMEZONE',
  `TZID:${tzid}`,
  ...extra,
  'BEGIN:STANDARD',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

describe('an invitation as calendar clients write it (contract §26)', () => {
  it('Thunderbird: a VTIMEZONE and TZID=Europe/Berlin, the organizer among the attendees, an alarm', () => {
    const invitation = parseInvitation(fixture('thunderbird.ics'));
    expect(invitation).to.include({ uid: '5a6c4f3e-2b1d-4c8e-9f7a-0e1d2c3b4a59', summary: 'Sprint planning', sequence: 0, status: null, organizer: 'mailto:ann@example.com', recurrence: null });
    expect(plain(invitation.start)).to.deep.equal({ kind: 'zoned', dateTime: '2027-01-05T09:00:00', timeZone: 'Europe/Berlin' });
    expect(instant(invitation.start)).to.equal('2027-01-05T08:00:00Z');
    expect(instant(invitation.end)).to.equal('2027-01-05T09:00:00Z');
    expect(invitation.attendees).to.deep.equal([
      { address: 'mailto:ann@example.com', scheduleAgent: 'SERVER', commonName: 'Ann Example' },
      { address: roomAddress, scheduleAgent: 'SERVER' },
      { address: 'mailto:bob@example.com', scheduleAgent: 'SERVER', commonName: 'Bob' },
    ]);
  });

  it('Apple Calendar: quoted parameters, X- properties, an escaped SUMMARY, a urn:uuid address kept as written', () => {
    const invitation = parseInvitation(fixture('apple.ics'));
    expect(invitation).to.include({ uid: '8F3C1D2E-4B5A-4C6D-9E8F-0A1B2C3D4E5F', summary: 'Design review, part 2', sequence: 1 });
    expect(invitation.attendees.map((a) => a.address)).to.deep.equal(['mailto:ann@example.com', 'urn:uuid:7C1C2A9E-5B7D-4C1E-9A4F-2D6B8E0C1A77', 'mailto:carla@example.org']);
    expect([instant(invitation.start), instant(invitation.end)]).to.deep.equal(['2027-03-12T13:00:00Z', '2027-03-12T14:30:00Z']);
  });

  it('Outlook: a Windows zone name (TZID="W. Europe Standard Time") read as CLDR maps it, after the change to summer time', () => {
    const invitation = parseInvitation(fixture('outlook.ics'));
    expect(plain(invitation.start)).to.deep.equal({ kind: 'zoned', dateTime: '2027-03-30T10:00:00', timeZone: 'Europe/Berlin' });
    expect([instant(invitation.start), instant(invitation.end)]).to.deep.equal(['2027-03-30T08:00:00Z', '2027-03-30T09:30:00Z']);
    expect(invitation.organizer).to.equal('mailto:Ann@Example.com');
    expect(invitation.uid).to.have.length(112);
    expect(invitation.summary).to.equal('Quarterly review');
  });

  it('a Windows zone name without its VTIMEZONE, as Exchange sends it too', () => {
    const invitation = parseInvitation(eventText('DTSTART;TZID=Pacific Standard Time:20270705T090000', 'DTEND;TZID=Pacific Standard Time:20270705T100000'));
    expect(plain(invitation.start)).to.deep.equal({ kind: 'zoned', dateTime: '2027-07-05T09:00:00', timeZone: 'America/Los_Angeles' });
    expect(instant(invitation.start)).to.equal('2027-07-05T16:00:00Z');
  });

  it('DAVx5: a weekly RRULE with EXDATEs, a moved instance and a cancelled one', () => {
    const invitation = parseInvitation(fixture('davx5-weekly.ics'));
    expect(invitation.status).to.equal('CONFIRMED');
    expect(plain(invitation.recurrence)).to.deep.equal({
      rrule: 'FREQ=WEEKLY;UNTIL=20270426T133000Z;BYDAY=MO',
      exdates: [
        { kind: 'zoned', dateTime: '2027-02-15T09:30:00', timeZone: 'America/New_York' },
        { kind: 'zoned', dateTime: '2027-02-22T09:30:00', timeZone: 'America/New_York' },
      ],
      rdates: [],
      overrides: [
        {
          recurrenceId: { kind: 'zoned', dateTime: '2027-03-15T09:30:00', timeZone: 'America/New_York' },
          start: { kind: 'zoned', dateTime: '2027-03-16T11:00:00', timeZone: 'America/New_York' },
          end: { kind: 'zoned', dateTime: '2027-03-16T11:30:00', timeZone: 'America/New_York' },
          status: null,
          cancelled: false,
          attendees: [
            { address: roomAddress, scheduleAgent: 'SERVER', commonName: 'Room Tycho' },
            { address: 'mailto:ann@example.com', scheduleAgent: 'SERVER', commonName: 'Ann Example' },
          ],
        },
        {
          recurrenceId: { kind: 'zoned', dateTime: '2027-03-29T09:30:00', timeZone: 'America/New_York' },
          start: { kind: 'zoned', dateTime: '2027-03-29T09:30:00', timeZone: 'America/New_York' },
          end: { kind: 'zoned', dateTime: '2027-03-29T10:00:00', timeZone: 'America/New_York' },
          status: 'CANCELLED',
          cancelled: true,
          attendees: [],
        },
      ],
    });
  });

  it('python3-caldav: UTC times, an ORGANIZER without CN', () => {
    const invitation = parseInvitation(fixture('python-caldav.ics'));
    expect(plain([invitation.start, invitation.end])).to.deep.equal([
      { kind: 'utc', instant: '2027-02-01T13:00:00Z' },
      { kind: 'utc', instant: '2027-02-01T14:00:00Z' },
    ]);
    expect(instant(invitation.start, 'Asia/Tokyo')).to.equal('2027-02-01T13:00:00Z');
  });

  it('Evolution: floating times and SCHEDULE-AGENT, the floating times placed in the resource zone', () => {
    const invitation = parseInvitation(fixture('evolution-floating.ics'));
    expect(invitation.sequence).to.equal(2);
    expect(invitation.attendees).to.deep.equal([
      { address: 'urn:uuid:7c1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77', scheduleAgent: 'SERVER' },
      { address: 'mailto:eve@example.com', scheduleAgent: 'CLIENT' },
    ]);
    expect(plain(invitation.start)).to.deep.equal({ kind: 'floating', dateTime: '2027-03-28T01:30:00' });
    // 28 March 2027 in Berlin: 02:00 CET becomes 03:00 CEST; 01:30–03:30 on the wall clock is one hour.
    expect([instant(invitation.start, 'Europe/Berlin'), instant(invitation.end, 'Europe/Berlin')]).to.deep.equal(['2027-03-28T00:30:00Z', '2027-03-28T01:30:00Z']);
    expect([instant(invitation.start, 'America/New_York'), instant(invitation.end, 'America/New_York')]).to.deep.equal(['2027-03-28T05:30:00Z', '2027-03-28T07:30:00Z']);
  });

  it('an all-day event (VALUE=DATE) spans whole days of the resource zone, 47 hours over the change to summer time', () => {
    const invitation = parseInvitation(fixture('all-day.ics'));
    expect(plain([invitation.start, invitation.end])).to.deep.equal([
      { kind: 'date', date: '2027-03-27' },
      { kind: 'date', date: '2027-03-29' },
    ]);
    expect([instant(invitation.start, 'Europe/Berlin'), instant(invitation.end, 'Europe/Berlin')]).to.deep.equal(['2027-03-26T23:00:00Z', '2027-03-28T22:00:00Z']);
  });

  it('an all-day event without DTEND lasts its day', () => {
    const invitation = parseInvitation(eventText('DTSTART;VALUE=DATE:20271031'));
    expect(plain(invitation.end)).to.deep.equal({ kind: 'date', date: '2027-11-01' });
    // The last Sunday of October 2027 in Berlin has 25 hours.
    expect([instant(invitation.start, 'Europe/Berlin'), instant(invitation.end, 'Europe/Berlin')]).to.deep.equal(['2027-10-30T22:00:00Z', '2027-10-31T23:00:00Z']);
  });

  it('a date-time event without DTEND or DURATION ends when it starts (RFC 5545 §3.6.1)', () => {
    const invitation = parseInvitation(eventText('DTSTART:20270105T090000Z'));
    expect(plain(invitation.end)).to.deep.equal(plain(invitation.start));
  });

  it('DURATION: days on the wall clock, hours as elapsed time, across the change to summer time', () => {
    const hours = parseInvitation(eventText('DTSTART;TZID=Europe/Berlin:20270328T013000', 'DURATION:PT2H'));
    expect([instant(hours.start), instant(hours.end)]).to.deep.equal(['2027-03-28T00:30:00Z', '2027-03-28T02:30:00Z']);
    const day = parseInvitation(eventText('DTSTART;TZID=Europe/Berlin:20270327T100000', 'DURATION:P1D'));
    expect(plain(day.end)).to.deep.equal({ kind: 'zoned', dateTime: '2027-03-28T10:00:00', timeZone: 'Europe/Berlin' });
    const utc = parseInvitation(eventText('DTSTART:20270105T090000Z', 'DURATION:P1DT1H30M'));
    expect(instant(utc.end)).to.equal('2027-01-06T10:30:00Z');
    const days = parseInvitation(eventText('DTSTART;VALUE=DATE:20270105', 'DURATION:P2W'));
    expect(plain(days.end)).to.deep.equal({ kind: 'date', date: '2027-01-19' });
  });

  it('a wall-clock time in the gap of a change to summer time is read as after it (RFC 5545 §3.3.5)', () => {
    const invitation = parseInvitation(eventText('DTSTART;TZID=Europe/Berlin:20270328T023000', 'DTEND;TZID=Europe/Berlin:20270328T040000'));
    expect([instant(invitation.start), instant(invitation.end)]).to.deep.equal(['2027-03-28T01:30:00Z', '2027-03-28T02:00:00Z']);
  });

  it('a TZID of the body alone (no IANA or Windows name) is read with its VTIMEZONE, as a UTC time', () => {
    const text = calendarText(vtimezone('Customized Time Zone'), vevent('UID:e', 'DTSTART;TZID=Customized Time Zone:20270705T090000', 'DTEND;TZID=Customized Time Zone:20270705T100000'));
    const invitation = parseInvitation(text);
    expect(plain([invitation.start, invitation.end])).to.deep.equal([
      { kind: 'utc', instant: '2027-07-05T07:00:00Z' },
      { kind: 'utc', instant: '2027-07-05T08:00:00Z' },
    ]);
  });

  it('a libical TZID is read as the IANA zone its X-LIC-LOCATION names', () => {
    const tzid = '/freeassociation.sourceforge.net/Tzfile/Europe/Paris';
    const text = calendarText(vtimezone(tzid, 'X-LIC-LOCATION:Europe/Paris'), vevent('UID:e', `DTSTART;TZID=${tzid}:20270105T090000`, `DTEND;TZID=${tzid}:20270105T100000`));
    expect(plain(parseInvitation(text).start)).to.deep.equal({ kind: 'zoned', dateTime: '2027-01-05T09:00:00', timeZone: 'Europe/Paris' });
  });

  it('RDATEs alone repeat an event; an RDATE period counts by its start', () => {
    const invitation = parseInvitation(eventText('DTSTART:20270105T090000Z', 'DTEND:20270105T100000Z', 'RDATE:20270107T090000Z,20270109T090000Z', 'RDATE;VALUE=PERIOD:20270111T090000Z/PT1H'));
    expect(plain(invitation.recurrence)).to.deep.equal({
      rrule: null,
      exdates: [],
      rdates: ['2027-01-07T09:00:00Z', '2027-01-09T09:00:00Z', '2027-01-11T09:00:00Z'].map((t) => ({ kind: 'utc', instant: t })),
      overrides: [],
    });
  });

  it('takes at most 100 ATTENDEEs in one component', () => {
    const attendees = (n: number) => Array.from({ length: n }, (_, i) => `ATTENDEE:mailto:guest${i}@example.com`);
    expect(parseInvitation(eventText('DTSTART:20270105T090000Z', ...attendees(maxAttendeesPerInstance))).attendees).to.have.length(100);
    expectRefused(eventText('DTSTART:20270105T090000Z', ...attendees(101)), 'max-attendees-per-instance', /at most 100 ATTENDEEs; this one names 101/);
    expectRefused(eventText('DTSTART:20270105T090000Z', ...attendees(10_000)), 'max-attendees-per-instance', /10000/);
    const inAnInstance = calendarText(
      vevent('UID:e', 'DTSTART:20270105T090000Z', 'RRULE:FREQ=DAILY;COUNT=3'),
      vevent('UID:e', 'RECURRENCE-ID:20270106T090000Z', 'DTSTART:20270106T100000Z', ...attendees(101)),
    );
    expectRefused(inAnInstance, 'max-attendees-per-instance', /101/);
  });
});

describe('calendar data refused before anything is decided (contract §26, RFC 4791 §5.3.2.1)', () => {
  const start = 'DTSTART:20270105T090000Z';

  it('text that is not one VCALENDAR: CALDAV:valid-calendar-data', () => {
    expectRefused('', 'valid-calendar-data', /not one VCALENDAR/);
    expectRefused('hello', 'valid-calendar-data', /not iCalendar/);
    expectRefused('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', 'valid-calendar-data', /not one VCALENDAR/);
    expectRefused(vevent('UID:e', start).join('\r\n'), 'valid-calendar-data', /a VEVENT, not a VCALENDAR/);
    expectRefused(eventText('DTSTART:20271305T090000Z'), 'valid-calendar-data', /DTSTART "2027-13-05T09:00:00Z" is not a valid date or date-time/);
    expectRefused(eventText('DTSTART:tomorrow'), 'valid-calendar-data', /DTSTART/);
    expectRefused(eventText(start, 'DURATION:an hour'), 'valid-calendar-data', /DURATION/);
  });

  it('a VTODO, VJOURNAL or VFREEBUSY, or no VEVENT: CALDAV:supported-calendar-component', () => {
    for (const name of ['VTODO', 'VJOURNAL', 'VFREEBUSY']) {
      expectRefused(calendarText([`BEGIN:${name}`, 'UID:t', start, `END:${name}`]), 'supported-calendar-component', new RegExp(`not a ${name}`));
    }
    expectRefused(calendarText(vevent('UID:e', start), ['BEGIN:VTODO', 'UID:e', 'END:VTODO']), 'supported-calendar-component', /VTODO/);
    expectRefused(calendarText(vtimezone('Customized Time Zone')), 'supported-calendar-component', /no VEVENT/);
  });

  it('what a stored object may not be: CALDAV:valid-calendar-object-resource', () => {
    const cases: [string, RegExp][] = [
      [calendarText(vevent('UID:a', start), vevent('UID:b', start)), /one UID, not 2/],
      [calendarText(['METHOD:REQUEST'], vevent('UID:a', start)), /no METHOD/],
      [calendarText(vevent(start)), /UID/],
      [eventText('SUMMARY:no start'), /DTSTART/],
      [eventText(start, 'DTEND:20270105T090000Z'), /DTEND must be after DTSTART/],
      [eventText(start, 'DTEND:20270105T080000Z'), /DTEND must be after DTSTART/],
      [eventText('DTSTART;VALUE=DATE:20270105', 'DTEND;VALUE=DATE:20270105'), /DTEND must be after DTSTART/],
      [eventText(start, 'DTEND:20270105T100000Z', 'DURATION:PT1H'), /not both/],
      [eventText(start, 'DURATION:-PT1H'), /DURATION must be positive/],
      [eventText('DTSTART;VALUE=DATE:20270105', 'DURATION:PT4H'), /whole days/],
      [eventText('DTSTART;VALUE=DATE:20270105', 'DTEND:20270105T100000Z'), /both dates or both date-times/],
      [eventText('DTSTART;TZID=Mars/Olympus_Mons:20270105T090000'), /TZID "Mars\/Olympus_Mons", which is neither a VTIMEZONE of the object, nor an IANA zone, nor a Windows zone name/],
      [eventText(start, 'EXDATE;TZID=Nowhere:20270106T090000', 'RRULE:FREQ=DAILY'), /TZID "Nowhere"/],
      [eventText(start, 'SEQUENCE:-1'), /SEQUENCE/],
      [eventText(start, 'RRULE:FREQ=DAILY', 'RRULE:FREQ=WEEKLY'), /one RRULE/],
      [calendarText(vevent('UID:e', start), vevent('UID:e', start)), /without RECURRENCE-ID/],
      [calendarText(vevent('UID:e', 'RECURRENCE-ID:20270106T090000Z', start)), /without their event/],
      [calendarText(vevent('UID:e', start), vevent('UID:e', 'RECURRENCE-ID:20270106T090000Z', 'DTSTART:20270106T100000Z')), /no RRULE or RDATE/],
      [
        calendarText(vevent('UID:e', start, 'RRULE:FREQ=DAILY'), vevent('UID:e', 'RECURRENCE-ID:20270106T090000Z', 'DTSTART:20270106T100000Z'), vevent('UID:e', 'RECURRENCE-ID:20270106T090000Z', 'DTSTART:20270106T110000Z')),
        /same RECURRENCE-ID/,
      ],
      [calendarText(vevent('UID:e', start, 'RRULE:FREQ=DAILY'), vevent('UID:e', 'RECURRENCE-ID:20270106T090000Z')), /DTSTART/],
    ];
    for (const [text, message] of cases) expectRefused(text, 'valid-calendar-object-resource', message);
  });

  it('bounds the components and recurrence dates of one object', () => {
    const instances = Array.from({ length: maxEventComponents }, (_, i) => {
      const day = Temporal.PlainDate.from('2027-01-06').add({ days: i }).toString().replaceAll('-', '');
      return vevent('UID:e', `RECURRENCE-ID:${day}T090000Z`, `DTSTART:${day}T100000Z`);
    });
    expectRefused(calendarText(vevent('UID:e', start, 'RRULE:FREQ=DAILY'), ...instances), 'valid-calendar-object-resource', /at most 1000 VEVENTs .*; this one holds 1001/);
    expect(parseInvitation(calendarText(vevent('UID:e', start, 'RRULE:FREQ=DAILY'), ...instances.slice(1))).recurrence!.overrides).to.have.length(999);
    const exdates = Array.from({ length: 1001 }, (_, i) => at('2027-01-06T09:00:00Z').add({ hours: 24 * i }).toString().replaceAll(/[-:]/g, ''));
    expectRefused(eventText(start, 'RRULE:FREQ=DAILY', `EXDATE:${exdates.join(',')}`), 'valid-calendar-object-resource', /at most 1000 EXDATE and RDATE values/);
  });
});
