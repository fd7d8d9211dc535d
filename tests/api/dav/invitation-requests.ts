import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import type { TestServer } from '../../support/test-server.js';
import { C, calendarQueryBody, davRequest, prop, type DavAnswer } from './dav-requests.js';

/** Where the requests go: a test server, or any service node (its base URL; token() is the default bearer). */
export type DavTarget = Pick<TestServer, 'url' | 'token'>;

/** The address of a room principal (contract §25). */
export const roomAddress = (id: string) => `mailto:${id}@resources.invalid`;

export type EventParts = {
  uid?: string;
  start: string;
  end: string;
  summary?: string;
  organizer?: string;
  attendees?: string[];
  status?: string;
  /** Extra lines of the VEVENT (RRULE, …). */
  extra?: string[];
};

const icalTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+/, '');

/** An organizer's event as a calendar client PUTs it: CRLF lines, one VEVENT. */
export function eventText({ uid = randomUUID(), start, end, summary = 'Planning', organizer = 'mailto:alice@example.com', attendees = [], status, extra = [] }: EventParts): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//tests//invitations//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20270101T000000Z',
    `DTSTART:${icalTime(start)}`,
    `DTEND:${icalTime(end)}`,
    `SUMMARY:${summary}`,
    `ORGANIZER;CN=Organizer:${organizer}`,
    ...attendees.map((address) => `ATTENDEE;CUTYPE=ROOM;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:${address}`),
    ...(status ? [`STATUS:${status}`] : []),
    ...extra,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ];
  return lines.join('\r\n');
}

export const eventPath = (user: string, name: string) => `/dav/calendars/users/${user}/bookings/${name}`;

/** PUT of an event text into a user's bookings/ calendar. */
export function putEvent(server: DavTarget, token: string, path: string, text: string, headers: Record<string, string> = {}): Promise<DavAnswer> {
  return davRequest(server, 'PUT', path, { token, headers: { 'content-type': 'text/calendar; charset=utf-8', ...headers }, body: text });
}

/** One room attendee of a stored event, as the next GET shows it. */
export type RoomAttendee = { address: string; partstat: string; scheduleStatus: string | null; bookingId: string | null };

/** The stored event a GET answers: its ETag and its attendees. */
export async function storedEvent(server: DavTarget, token: string, path: string): Promise<{ status: number; etag: string | null; text: string; attendees: RoomAttendee[] }> {
  const res = await davRequest(server, 'GET', path, { token });
  if (res.status !== 200) return { status: res.status, etag: null, text: res.text, attendees: [] };
  const vevent = new ICAL.Component(ICAL.parse(res.text)).getFirstSubcomponent('vevent')!;
  const attendees = vevent.getAllProperties('attendee').map((p) => ({
    address: String(p.getFirstValue()),
    partstat: String(p.getParameter('partstat') ?? ''),
    scheduleStatus: (p.getParameter('schedule-status') as string | undefined) ?? null,
    bookingId: (p.getParameter('x-booking-id') as string | undefined) ?? null,
  }));
  return { status: res.status, etag: res.headers.get('etag'), text: res.text, attendees };
}

/** A REPLY in the organizer's inbox. */
export type Reply = { href: string; uid: string; attendee: string; partstat: string; requestStatus: string };

/** Every REPLY the organizer's inbox lists (calendar-query without a range). */
export async function inboxReplies(server: DavTarget, token: string, user: string): Promise<Reply[]> {
  const res = await davRequest(server, 'REPORT', `/dav/calendars/users/${user}/inbox/`, { token, depth: '1', body: calendarQueryBody() });
  if (res.status !== 207) throw new Error(`inbox: ${res.status} ${res.text}`);
  return res.members.flatMap((member) => {
    const data = prop(member, C, 'calendar-data');
    if (!data) return [];
    const calendar = new ICAL.Component(ICAL.parse(data.text));
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    const attendee = vevent.getFirstProperty('attendee')!;
    return [
      {
        href: member.href,
        uid: String(vevent.getFirstPropertyValue('uid')),
        attendee: String(attendee.getFirstValue()),
        partstat: String(attendee.getParameter('partstat') ?? ''),
        requestStatus: String(vevent.getFirstProperty('request-status')?.toICALString().replace(/^REQUEST-STATUS:/i, '') ?? ''),
      },
    ];
  });
}
