import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createDAVClient } from 'tsdav';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from '../booking/booking-api.js';

const run = promisify(execFile);
/** Debian's python3 (python3-caldav is installed for it, not for a pyenv python on PATH). */
const debianPython = '/usr/bin/python3';
const pythonClient = fileURLToPath(new URL('./clients/python_caldav_read.py', import.meta.url));
const pythonInvites = fileURLToPath(new URL('./clients/python_caldav_invite.py', import.meta.url));

/** Real, independent CalDAV clients against the service (contract §25): what people's calendars do. */
describe('CalDAV clients: python3-caldav and tsdav (contract §25, §26)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let token: string;
  let room: string;
  const ids: string[] = [];

  const create = async (start: string, end: string, title: string) => {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('room-clients', start, end, { title }), token });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const python = async (...args: string[]) => {
    const { stdout } = await run(debianPython, [pythonClient, args[0]!, server.url, token, room, ...args.slice(1)], { timeout: 60_000 });
    return JSON.parse(stdout);
  };

  before(async () => {
    server = await startTestServer();
    token = server.token({ level: 'LV4', sub: 'carol', email: 'carol@example.com' });
    room = await registerZone(server, 'room-clients');
    setClock(server, '2027-03-01T08:00:00Z');
    ids.push(await create('2027-03-02T09:00:00Z', '2027-03-02T10:00:00Z', 'Standup'));
    ids.push(await create('2027-03-15T13:00:00Z', '2027-03-15T14:00:00Z', 'Review'));
    ids.push(await create('2027-04-15T13:00:00Z', '2027-04-15T14:00:00Z', 'Next month'));
  });
  after(() => server.stop());

  describe('python3-caldav', () => {
    it("discovers the principal from the bare URL and reads a room's month", async () => {
      const found = await python('discover');
      expect(found.principal).to.equal(`${server.url}/dav/principals/users/carol/`);
      expect(found.home).to.equal(`${server.url}/dav/calendars/users/carol/`);
      expect(found.ownCalendars).to.include(`${server.url}/dav/calendars/users/carol/bookings/`);
      expect(found.roomName).to.equal('Zone room-clients');
      expect(found.march).to.deep.equal([ids[0], ids[1]].sort());
      expect(found.summaries).to.deep.equal(['Review', 'Standup']);
    });

    it('keeps the room in sync by sync-token: a REST create and a REST cancel', async () => {
      const start = await python('sync-start');
      expect(start.ids).to.deep.equal([...ids].sort());
      const created = await create('2027-03-20T09:00:00Z', '2027-03-20T10:00:00Z', 'Added');
      expect((await server.request('PATCH', `/booking/v1/bookings/${ids[1]}/cancel`, { token, body: {} })).status).to.equal(200);
      const next = await python('sync-next', start.token);
      expect(next.token).to.not.equal(start.token);
      const calendar = `${server.url}/dav/calendars/resources/${room}/bookings/`;
      expect(next.changed).to.deep.equal([`${calendar}${created}.ics`]);
      expect(next.removed).to.deep.equal([`${calendar}${ids[1]}.ics`]);
      ids.splice(1, 1, created);
    });

    it("asks a room's free/busy by free-busy-query, and two rooms' by the outbox: BUSY exactly where REST's schedule holds a booking", async () => {
      const other = await registerZone(server, 'room-clients-2');
      const schedule = await server.request('GET', `/booking/v1/resources/${room}/schedule?from=2027-03-01T00:00:00Z&to=2027-04-01T00:00:00Z`, { token });
      expect(schedule.status).to.equal(200);
      const compact = (instant: string) => new Date(instant).toISOString().replace(/[-:]|\.\d{3}/g, '');
      const busy = (schedule.body.bookings as { startTime: string; endTime: string }[]).map((b) => ['BUSY', `${compact(b.startTime)}/${compact(b.endTime)}`]).sort();
      expect(busy).to.have.length.above(0);
      const answer = await python('freebusy', other);
      expect([...answer.query].sort()).to.deep.equal(busy);
      expect(answer.outbox).to.deep.equal({
        [`mailto:${room}@resources.invalid`]: { status: '2.0;Success', busy },
        [`mailto:${other}@resources.invalid`]: { status: '2.0;Success', busy: [] },
      });
    });
  });

  describe('python3-caldav scheduling (contract §26)', () => {
    const invite = async (...args: string[]) => {
      const { stdout } = await run(debianPython, [pythonInvites, args[0]!, server.url, token, room, ...args.slice(1)], { timeout: 60_000 });
      return JSON.parse(stdout);
    };
    const roomAddress = () => `mailto:${room}@resources.invalid`;

    it('save_with_invites books a free room (ACCEPTED with its booking) and declines a busy one (4.0 in the schedule inbox)', async () => {
      const free = await invite('invite', 'py-free', '2027-04-03T09:00:00+00:00', '2027-04-03T10:00:00+00:00', 'Design review');
      expect(free.organizer.toLowerCase()).to.equal('mailto:carol@example.com');
      const answer = free.attendees.find((a: { address: string }) => a.address.toLowerCase() === roomAddress());
      expect(answer).to.include({ partstat: 'ACCEPTED', scheduleStatus: '1.2' });
      const booking = await server.request('GET', `/booking/v1/bookings/${answer.bookingId}`, { token });
      expect(booking.body).to.include({ status: 'confirmed', calendarUid: 'py-free', title: 'Design review', bookerProfileId: 'carol', startTime: '2027-04-03T09:00:00Z' });

      // Overlaps the REST booking "Standup" of 2027-03-02 09:00–10:00.
      const busy = await invite('invite', 'py-busy', '2027-03-02T09:30:00+00:00', '2027-03-02T10:30:00+00:00', 'Clash');
      expect(busy.attendees.find((a: { address: string }) => a.address.toLowerCase() === roomAddress())).to.include({ partstat: 'DECLINED', bookingId: '' });

      const { replies } = await invite('inbox');
      expect(replies.map((r: { uid: string; requestStatus: string }) => [r.uid, r.requestStatus.split(';')[0]])).to.deep.equal([
        ['py-busy', '4.0'],
        ['py-free', '2.0'],
      ]);
      expect(replies.every((r: { method: string }) => r.method === 'REPLY')).to.equal(true);
    });
  });

  describe('tsdav', () => {
    it("finds the caller's calendars and reads a room's objects", async () => {
      const client = await createDAVClient({
        serverUrl: `${server.url}/dav/`,
        credentials: {},
        authMethod: 'Custom',
        authFunction: async () => ({ authorization: `Bearer ${token}` }),
        defaultAccountType: 'caldav',
      });
      const calendars = await client.fetchCalendars();
      expect(calendars.map((c) => c.url)).to.include(`${server.url}/dav/calendars/users/carol/bookings/`);
      const roomCalendar = { url: `${server.url}/dav/calendars/resources/${room}/bookings/` };
      const objects = await client.fetchCalendarObjects({ calendar: roomCalendar, timeRange: { start: '2027-03-01T00:00:00Z', end: '2027-04-01T00:00:00Z' } });
      const bookingIds = objects.map((o) => /X-BOOKING-ID:(\S+)/.exec(o.data)?.[1]);
      expect(bookingIds).to.have.members([ids[0], ids[1]]);
      for (const object of objects) expect(object.etag).to.match(/^"/);
    });
  });
});
