import { Temporal } from 'temporal-polyfill';
import { fromMeasurement, type BenchContext, type Workload } from '../workload.js';

/** Issue 36's CalDAV targets (p95 at the bench's connections), each its own workload. */
const p95Below = (ms: number) => (m: { p95: number }) => () => ({ text: `p95 < ${ms} ms`, met: m.p95 < ms });

const xml = { 'content-type': 'application/xml; charset=utf-8' };
const syncBody = (token: string) => `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
const utc = (day: Temporal.PlainDate) => day.toString().replaceAll('-', '') + 'T000000Z';
const busyCalendar = (ctx: BenchContext) => `/dav/calendars/resources/${ctx.data.busy.id}/bookings/`;

/** REPORT sync-collection on the busy room's `bookings/` (3,000 bookings) with the token of a first, full sync: nothing changed (through undici: autocannon sends no REPORT). */
export const davSync: Workload = {
  name: 'dav-sync',
  async run(ctx) {
    const path = busyCalendar(ctx);
    const first = await fetch(`${ctx.url}${path}`, { method: 'REPORT', headers: { ...xml, authorization: `Bearer ${ctx.token}` }, body: syncBody('') });
    const token = /<(?:\w+:)?sync-token>([^<]+)</.exec(await first.text())?.[1];
    if (first.status !== 207 || !token) throw new Error(`the first sync-collection answered ${first.status} without a sync-token`);
    const measured = await ctx.httpDroppingBodies({ name: 'CalDAV sync-collection, no change (3,000 bookings)', method: 'REPORT', next: () => ({ path, body: syncBody(token) }), headers: xml, expect: 207 });
    return [fromMeasurement(measured, p95Below(20)(measured))];
  },
};

/** REPORT calendar-query of the busy room's 30 days (3,000 bookings, with calendar-data); bodies read and dropped. */
export const davMonth: Workload = {
  name: 'dav-month',
  async run(ctx) {
    const { firstDay } = ctx.data.busy;
    const body = `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${utc(firstDay)}" end="${utc(firstDay.add({ days: 30 }))}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;
    const measured = await ctx.httpDroppingBodies({ name: "CalDAV calendar-query, a room's 30 days (3,000 bookings)", method: 'REPORT', next: () => ({ path: busyCalendar(ctx), body }), headers: { ...xml, depth: '1' }, expect: 207 });
    return [fromMeasurement(measured, p95Below(200)(measured))];
  },
};

/** POST of a VFREEBUSY request for the seeded rooms (100, 20 bookings each) over their week to the caller's outbox. */
export const davFreeBusy: Workload = {
  name: 'dav-freebusy',
  async run(ctx) {
    const { rooms, busy } = ctx.data;
    const request = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//bench//EN',
      'METHOD:REQUEST',
      'BEGIN:VFREEBUSY',
      'UID:bench-freebusy',
      `DTSTAMP:${utc(busy.firstDay)}`,
      `DTSTART:${utc(busy.firstDay)}`,
      `DTEND:${utc(busy.firstDay.add({ days: 7 }))}`,
      'ORGANIZER:mailto:bench@example.com',
      ...rooms.map((room) => `ATTENDEE:mailto:${room.id}@resources.invalid`),
      'END:VFREEBUSY',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const measured = await ctx.http({ name: `CalDAV outbox free/busy, ${rooms.length} rooms, a week`, method: 'POST', next: () => ({ path: '/dav/calendars/users/bench-admin/outbox/', body: request }), headers: { 'content-type': 'text/calendar; charset=utf-8' }, expect: 200 });
    return [fromMeasurement(measured, p95Below(300)(measured))];
  },
};
