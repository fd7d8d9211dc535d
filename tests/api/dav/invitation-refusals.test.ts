import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { seedZone } from '../../support/device-records.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { registerZone, setClock } from '../booking/booking-api.js';
import { eventPath, eventText, inboxReplies, putEvent, roomAddress, storedEvent } from './invitation-requests.js';

/**
 * Contract §26: a room decides an invitation as the REST create decides a booking. For each refusal
 * the create gives that invitations.test.ts does not already cover, the same booking is asked both
 * ways on a room set up alike: REST must refuse it, the room must answer DECLINED with the status the
 * contract maps that refusal to (409 → 4.0 …;conflict, 422 → 3.1 …;<policy>, 404 → 3.7,
 * 400 → 3.1 …;<property>; an inactive room is no principal (§25) → 3.7), and neither books anything.
 */

type Room = { id: string; zoneId: string };

type RestRefusal = { status: number; policy?: string };

/** A case's room (and its part, for a whole), its own organizer, and its own day (`day(h)`; `day(h, m, days)` that many days later). */
type Context = { room: Room; part?: Room; booker: { sub: string; token: string }; day: (h: number, m?: number, days?: number) => string };

type Case = {
  name: string;
  /** Registration extras of the room invited, or a whole of one part (§22). */
  room?: Record<string, unknown> | 'whole';
  /** What stands in the room's way, set up before both asks. */
  setup?: (context: Context) => Promise<void>;
  /** The times asked, on the case's own day. */
  times: (day: (h: number, m?: number) => string) => { start: string; end: string };
  /** An RRULE: the invitation is a series and REST is asked with bulk. */
  rule?: string;
  rest: RestRefusal;
  /** The REQUEST-STATUS of the room's REPLY and the SCHEDULE-STATUS on its ATTENDEE. */
  dav: { requestStatus: string; scheduleStatus: string };
};

const conflict = '4.0;Event conflict. Date-time is busy.;conflict';
const policy = (name: string) => `3.1;Invalid property value;${name}`;
const delivered = (requestStatus: string) => ({ requestStatus, scheduleStatus: '1.2' });

/** The contract's map from a REST refusal to the room's answer, which each case's expectation must agree with. */
function davAnswerOfRest(body: Record<string, unknown> & { statusCode: number; policy?: string }): string {
  const rest: RestRefusal = { status: body.statusCode, policy: body.policy };
  if (rest.status === 409) return conflict;
  if (rest.status === 404 || rest.policy === 'isActive') return '3.7;Invalid calendar user';
  if (rest.status === 422) return policy(rest.policy!);
  if (rest.status === 400) return `3.1;Invalid property value;${({ '/body/startTime': 'DTSTART', '/body/endTime': 'DTEND' } as Record<string, string>)[(body.errors as { path: string }[])[0]!.path]}`;
  throw new Error(`no room answer for REST ${rest.status}`);
}

describe('each refusal of the REST create, as the room answers an invitation (contract §26)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let admin: string;
  let zones = 0;

  const register = async (extra: Record<string, unknown> = {}): Promise<Room> => {
    zones += 1;
    const zoneId = `refusal-room-${zones}`;
    return { zoneId, id: await registerZone(server, zoneId, { ...extra, bookingPolicy: { maxAdvanceDays: 365, ...((extra.bookingPolicy as object) ?? {}) } }) };
  };
  const rows = async (resourceId: string) => (await server.database.db.selectFrom('bookings').select('id').where('bookable_resource_id', '=', resourceId).execute()).length;
  const restCreate = (token: string, zoneId: string, start: string, end: string, rule?: string) =>
    server.request('POST', rule ? '/booking/v1/bookings/bulk' : '/booking/v1/bookings', {
      body: { resourceType: 'zone', resourceId: zoneId, title: 'Asked through REST', startTime: start, endTime: end, ...(rule ? { recurrenceRule: rule } : {}) },
      token,
    });
  const ok = (res: { status: number; body: unknown }, status = 201): void => void expect(res.status, JSON.stringify(res.body)).to.equal(status);

  before(async () => {
    server = await startTestServer();
    admin = server.token({ level: 'LV2', sub: 'admin' });
    setClock(server, '2027-03-01T08:00:00Z');
  });
  after(() => server.stop());

  const cases: Case[] = [
    {
      name: 'a booking whose occupied range (buffers, §17) overlaps one held → 409 / 4.0 conflict',
      room: { bookingPolicy: { bufferAfterMinutes: 30 } },
      setup: async ({ room, day }) => ok(await restCreate(admin, room.zoneId, day(9), day(10))),
      times: (day) => ({ start: day(10, 15), end: day(11) }),
      rest: { status: 409 },
      dav: delivered(conflict),
    },
    {
      name: 'the part of a combined room booked, the whole invited (§22) → 409 / 4.0 conflict',
      room: 'whole',
      setup: async ({ part, day }) => ok(await restCreate(admin, part!.zoneId, day(9), day(10))),
      times: (day) => ({ start: day(9, 30), end: day(10, 30) }),
      rest: { status: 409 },
      dav: delivered(conflict),
    },
    {
      name: 'outside operating hours → 422 availability / 3.1 availability',
      room: { availability: { timeZone: 'UTC', hours: { monday: [{ start: '08:00', end: '18:00' }] } } },
      times: (day) => ({ start: day(9), end: day(10) }),
      rest: { status: 422, policy: 'availability' },
      dav: delivered(policy('availability')),
    },
    {
      // §25: an inactive resource is no principal, so the room is no calendar user the organizer can reach.
      name: 'an inactive room → 422 isActive / 3.7',
      setup: async ({ room }) => ok(await server.request('PATCH', `/booking/v1/resources/${room.id}`, { body: { isActive: false }, token: admin }), 200),
      times: (day) => ({ start: day(9), end: day(10) }),
      rest: { status: 422, policy: 'isActive' },
      dav: { requestStatus: '3.7;Invalid calendar user', scheduleStatus: '3.7' },
    },
    {
      name: 'beyond the horizon → 422 maxAdvanceDays / 3.1 maxAdvanceDays',
      room: { bookingPolicy: { maxAdvanceDays: 3 } },
      times: (day) => ({ start: day(9), end: day(10) }),
      rest: { status: 422, policy: 'maxAdvanceDays' },
      dav: delivered(policy('maxAdvanceDays')),
    },
    {
      name: 'too short a notice → 422 minNoticeMinutes / 3.1 minNoticeMinutes',
      room: { bookingPolicy: { minNoticeMinutes: 120 } },
      times: () => ({ start: '2027-03-01T09:00:00Z', end: '2027-03-01T09:30:00Z' }),
      rest: { status: 422, policy: 'minNoticeMinutes' },
      dav: delivered(policy('minNoticeMinutes')),
    },
    {
      name: 'the organizer at its maxBookingsPerUser → 422 maxBookingsPerUser / 3.1 maxBookingsPerUser',
      room: { bookingPolicy: { maxBookingsPerUser: 1 } },
      setup: async ({ room, booker, day }) => ok(await restCreate(booker.token, room.zoneId, day(7), day(8))),
      times: (day) => ({ start: day(9), end: day(10) }),
      rest: { status: 422, policy: 'maxBookingsPerUser' },
      dav: delivered(policy('maxBookingsPerUser')),
    },
    {
      name: 'a workspace-wide blackout (resourceIds null) → 422 blackout / 3.1 blackout',
      setup: async ({ day }) => ok(await server.request('POST', '/booking/v1/blackouts', { body: { from: day(12), to: day(14), reason: 'Fire drill' }, token: admin })),
      times: (day) => ({ start: day(13), end: day(15) }),
      rest: { status: 422, policy: 'blackout' },
      dav: delivered(policy('blackout')),
    },
    {
      name: 'an hours quota of the room’s group, used up on another room of the group → 422 quota / 3.1 quota',
      room: { groupId: 'quota-group' },
      setup: async ({ booker, day }) => {
        const sibling = await register({ groupId: 'quota-group' });
        ok(await server.request('POST', '/booking/v1/quotas', { body: { groupId: 'quota-group', limit: 2, unit: 'hours', per: 'day' }, token: admin }));
        ok(await restCreate(booker.token, sibling.zoneId, day(8), day(9, 30)));
      },
      times: (day) => ({ start: day(10), end: day(11) }),
      rest: { status: 422, policy: 'quota' },
      dav: delivered(policy('quota')),
    },
    {
      name: 'a quota of the resource type, per month, used up on another room → 422 quota / 3.1 quota',
      setup: async ({ booker, day }) => {
        const other = await register();
        const quota = await server.request('POST', '/booking/v1/quotas', { body: { resourceType: 'zone', limit: 1, unit: 'bookings', per: 'month' }, token: admin });
        ok(quota);
        ok(await restCreate(booker.token, other.zoneId, day(8), day(9)));
        quotas.push(quota.body.id);
      },
      times: (day) => ({ start: day(10), end: day(11) }),
      rest: { status: 422, policy: 'quota' },
      dav: delivered(policy('quota')),
    },
    {
      name: 'a start already past → 400 startTime / 3.1 DTSTART',
      times: () => ({ start: '2027-03-01T07:00:00Z', end: '2027-03-01T09:00:00Z' }),
      rest: { status: 400 },
      dav: delivered(policy('DTSTART')),
    },
    {
      name: 'a removed room → 404 / 3.7',
      setup: async ({ room }) => ok(await server.request('DELETE', `/booking/v1/resources/${room.id}`, { token: admin }), 204),
      times: (day) => ({ start: day(9), end: day(10) }),
      rest: { status: 404 },
      dav: { requestStatus: '3.7;Invalid calendar user', scheduleStatus: '3.7' },
    },
    {
      name: 'a series on a room that takes none → 422 allowRecurring / 3.1 allowRecurring',
      room: { bookingPolicy: { allowRecurring: false } },
      times: (day) => ({ start: day(9), end: day(10) }),
      rule: 'FREQ=WEEKLY;COUNT=3',
      rest: { status: 422, policy: 'allowRecurring' },
      dav: delivered(policy('allowRecurring')),
    },
    {
      name: 'a series running past the horizon → 422 maxAdvanceDays / 3.1 maxAdvanceDays',
      room: { bookingPolicy: { maxAdvanceDays: 30 } },
      times: (day) => ({ start: day(9), end: day(10) }),
      rule: 'FREQ=WEEKLY;COUNT=10',
      rest: { status: 422, policy: 'maxAdvanceDays' },
      dav: delivered(policy('maxAdvanceDays')),
    },
    {
      name: 'a series with one occurrence on a blackout → 422 blackout / 3.1 blackout',
      setup: async ({ room, day }) => ok(await server.request('POST', '/booking/v1/blackouts', { body: { resourceIds: [room.id], from: day(0, 0, 1), to: day(23, 0, 1), reason: 'Move' }, token: admin })),
      times: (day) => ({ start: day(9), end: day(10) }),
      rule: 'FREQ=DAILY;COUNT=3',
      rest: { status: 422, policy: 'blackout' },
      dav: delivered(policy('blackout')),
    },
  ];
  /** Quotas a case leaves behind, removed after it so that no other case meets them. */
  const quotas: string[] = [];

  for (const [i, c] of cases.entries()) {
    it(c.name, async function () {
      // Giving a room parts answers 503 while the read models follow the log (contract §22).
      if (c.room === 'whole' && process.env.PROJECTIONS === 'async') this.skip();
      const day = (h: number, m = 0, days = 0) => new Date(Date.UTC(2027, 2, 2 + i + days, h, m)).toISOString().replace('.000Z', 'Z');
      const sub = `organizer-${i}`;
      const booker = { sub, token: server.token({ level: 'LV4', sub, email: `${sub}@example.com` }) };
      const part = c.room === 'whole' ? await register() : undefined;
      const room = await register(part ? { parts: [part.id] } : (c.room as Record<string, unknown> | undefined));
      await c.setup?.({ room, part, booker, day });
      const { start, end } = c.times(day);
      const before = await rows(room.id);

      const rest = await restCreate(booker.token, room.zoneId, start, end, c.rule);
      expect(rest.status, JSON.stringify(rest.body)).to.equal(c.rest.status);
      if (c.rest.policy) expect(rest.body.policy).to.equal(c.rest.policy);
      expect(davAnswerOfRest(rest.body), 'the case’s answer is the one the contract maps its REST refusal to').to.equal(c.dav.requestStatus);

      const uid = randomUUID();
      const path = eventPath(sub, `${uid}.ics`);
      const text = eventText({ uid, start, end, organizer: `mailto:${sub}@example.com`, attendees: [roomAddress(room.id)], extra: c.rule ? [`RRULE:${c.rule}`] : [] });
      const put = await putEvent(server, booker.token, path, text);
      expect(put.status, put.text).to.equal(201);
      const attendee = (await storedEvent(server, booker.token, path)).attendees.find((a) => a.address === roomAddress(room.id))!;
      expect(attendee).to.deep.equal({ address: roomAddress(room.id), partstat: 'DECLINED', scheduleStatus: c.dav.scheduleStatus, bookingId: null });
      const replies = (await inboxReplies(server, booker.token, sub)).filter((r) => r.uid === uid);
      expect(replies.map((r) => [r.partstat, r.requestStatus])).to.deep.equal([['DECLINED', c.dav.requestStatus]]);

      expect(await rows(room.id), 'nothing booked').to.equal(before);
      expect(await server.database.db.selectFrom('bookings').select('id').where('calendar_uid', '=', uid).execute()).to.deep.equal([]);
      for (const id of quotas.splice(0)) ok(await server.request('DELETE', `/booking/v1/quotas/${id}`, { token: admin }), 204);
    });
  }

  it('a room of another workspace → REST 404 / 3.7, nothing booked', async () => {
    const elsewhere = randomUUID();
    await seedZone(server.database.db, elsewhere, 'foreign-room');
    const registered = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'foreign-room' }, token: server.token({ level: 'LV2', sub: 'other-admin', workspace: elsewhere }) });
    ok(registered);
    const booker = server.token({ level: 'LV4', sub: 'wanderer', email: 'wanderer@example.com' });
    const rest = await restCreate(booker, 'foreign-room', '2027-03-25T09:00:00Z', '2027-03-25T10:00:00Z');
    expect(rest.status).to.equal(404);
    const uid = randomUUID();
    const path = eventPath('wanderer', `${uid}.ics`);
    const put = await putEvent(server, booker, path, eventText({ uid, start: '2027-03-25T09:00:00Z', end: '2027-03-25T10:00:00Z', organizer: 'mailto:wanderer@example.com', attendees: [roomAddress(registered.body.id)] }));
    expect(put.status, put.text).to.equal(201);
    expect((await storedEvent(server, booker, path)).attendees[0]).to.include({ partstat: 'DECLINED', scheduleStatus: '3.7', bookingId: null });
    expect(await rows(registered.body.id)).to.equal(0);
  });
});
