import { randomUUID } from 'node:crypto';
import type { BenchResource } from '../seed-bench-data.js';
import { spreadSlot } from './creates.js';

const minute = 60_000;
const icalUtc = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d+/g, '');

/** The bench admin's own bookings/ calendar (contract §26): the token's sub, and its email as the ORGANIZER. */
export const benchCalendar = '/dav/calendars/users/bench-admin/bookings/';
export const roomAddress = (room: BenchResource) => `mailto:${room.id}@resources.invalid`;

/** One VEVENT as a calendar client PUTs it: a fresh UID, the room as its one ATTENDEE, `extra` lines (an RRULE) added. */
export function invitationText(uid: string, room: BenchResource, startMs: number, extra: string[] = []): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//bench//invitations//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${icalUtc(startMs)}`,
    `DTEND:${icalUtc(startMs + 30 * minute)}`,
    'SUMMARY:Bench',
    'ORGANIZER;CN=Bench:mailto:bench@example.com',
    `ATTENDEE;CUTYPE=ROOM;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:${roomAddress(room)}`,
    ...extra,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/**
 * PUTs of new events into the bench admin's bookings/, each inviting the room of slot k as
 * `creates` hands the slots out (k mod n, half-hours up from `fromMs`); `uids` collects every UID
 * handed out, for the check after the run.
 */
export function invitations(rooms: BenchResource[], fromMs: number, extra: string[] = []): { next: () => { path: string; body: string }; uids: string[] } {
  const uids: string[] = [];
  let k = 0;
  return {
    uids,
    next: () => {
      const { resource, startMs } = spreadSlot(rooms, fromMs, k++);
      const uid = randomUUID();
      uids.push(uid);
      return { path: `${benchCalendar}${uid}.ics`, body: invitationText(uid, resource, startMs, extra) };
    },
  };
}
