import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

type Case = { zone: string; date: string; hours: number; booking: [string, string]; local: [string, string]; from: string; to: string };

// One booking across each 2027 DST change, as UTC instants and as the zone's wall clock.
const cases: Case[] = [
  {
    zone: 'Europe/Berlin',
    date: '2027-03-28',
    hours: 23,
    booking: ['2027-03-28T00:00:00Z', '2027-03-28T01:00:00Z'],
    local: ['2027-03-28T01:00:00+01:00', '2027-03-28T03:00:00+02:00'],
    from: '2027-03-28T00:00:00+01:00',
    to: '2027-03-29T00:00:00+02:00',
  },
  {
    zone: 'Europe/Berlin',
    date: '2027-10-31',
    hours: 25,
    booking: ['2027-10-31T00:30:00Z', '2027-10-31T01:30:00Z'],
    local: ['2027-10-31T02:30:00+02:00', '2027-10-31T02:30:00+01:00'],
    from: '2027-10-31T00:00:00+02:00',
    to: '2027-11-01T00:00:00+01:00',
  },
  {
    zone: 'America/New_York',
    date: '2027-03-14',
    hours: 23,
    booking: ['2027-03-14T06:00:00Z', '2027-03-14T08:00:00Z'],
    local: ['2027-03-14T01:00:00-05:00', '2027-03-14T04:00:00-04:00'],
    from: '2027-03-14T00:00:00-05:00',
    to: '2027-03-15T00:00:00-04:00',
  },
  {
    zone: 'America/New_York',
    date: '2027-11-07',
    hours: 25,
    booking: ['2027-11-07T05:00:00Z', '2027-11-07T07:00:00Z'],
    local: ['2027-11-07T01:00:00-04:00', '2027-11-07T02:00:00-05:00'],
    from: '2027-11-07T00:00:00-04:00',
    to: '2027-11-08T00:00:00-05:00',
  },
];

const q = (value: string) => encodeURIComponent(value);

describe('schedule and free slots over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let admin: string;
  let busy: string;
  let empty: string;
  const booked = new Map<string, string>();

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
    const policy = { bookingPolicy: { maxAdvanceDays: 3650 } };
    busy = await registerZone(server, 'zone-busy', policy);
    empty = await registerZone(server, 'zone-empty', policy);
    for (const c of cases) {
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-busy', ...c.booking, { title: `DST ${c.date}` }), token: alice });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      booked.set(c.date, res.body.id);
    }
    const bobs = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-busy', '2027-03-28T10:00:00Z', '2027-03-28T11:00:00Z', { title: 'Private' }), token: bob });
    expect(bobs.status).to.equal(201);
  });
  after(() => server.stop());

  const schedule = (id: string, query: string, token = admin) => server.request('GET', `/booking/v1/resources/${id}/schedule?${query}`, { token });
  const slots = (id: string, query: string, token = alice) => server.request('GET', `/booking/v1/resources/${id}/available-slots?${query}`, { token });

  for (const c of cases) {
    describe(`${c.zone} on ${c.date} (${c.hours} hours)`, () => {
      it('the schedule with tz carries the zone’s offsets in every time', async () => {
        const res = await schedule(busy, `from=${q(c.from)}&to=${q(c.to)}&tz=${c.zone}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.include({ resourceId: busy, from: c.from, to: c.to, timeZone: c.zone });
        const entry = res.body.bookings.find((b: any) => b.id === booked.get(c.date));
        expect(entry).to.include({ startTime: c.local[0], endTime: c.local[1], title: `DST ${c.date}` });
        expect(entry.createdAt).to.match(/[+-]\d\d:\d\d$/);
      });

      it('the schedule without tz answers UTC with Z', async () => {
        const res = await schedule(busy, `from=${q(c.from)}&to=${q(c.to)}`);
        expect(res.body.timeZone).to.equal('UTC');
        expect(res.body.from).to.match(/Z$/);
        const entry = res.body.bookings.find((b: any) => b.id === booked.get(c.date));
        expect(entry).to.include({ startTime: c.booking[0], endTime: c.booking[1] });
      });

      it('the day has as many hourly slots as hours, from local midnight to local midnight', async () => {
        const res = await slots(empty, `date=${c.date}&tz=${c.zone}&slotMinutes=60`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.include({ resourceId: empty, date: c.date, timeZone: c.zone, slotMinutes: 60 });
        expect(res.body.slots).to.have.length(c.hours);
        expect(res.body.slots[0].startTime).to.equal(c.from);
        expect(res.body.slots.at(-1).endTime).to.equal(c.to);
      });

      it('a booked slot is not free; the rest of the day is', async () => {
        const res = await slots(busy, `date=${c.date}&tz=${c.zone}&slotMinutes=30`);
        const starts = res.body.slots.map((s: any) => s.startTime);
        expect(starts).not.to.include(c.local[0]);
        const blocked = (Date.parse(c.booking[1]) - Date.parse(c.booking[0])) / 1_800_000;
        const bobBlocks = c.date === '2027-03-28' && c.zone === 'Europe/Berlin' ? 2 : 0;
        expect(res.body.slots).to.have.length(c.hours * 2 - blocked - bobBlocks);
      });
    });
  }

  it('LV4 sees other users’ bookings in a schedule with times and status only', async () => {
    const res = await schedule(busy, `from=2027-03-28T00:00:00Z&to=2027-03-29T00:00:00Z`, alice);
    expect(res.status).to.equal(200);
    const [own, other] = res.body.bookings;
    expect(own).to.include({ title: 'DST 2027-03-28', bookerProfileId: 'alice', bookerEmail: 'alice@example.com' });
    expect(other).to.include({ title: null, bookerProfileId: null, bookerEmail: null, status: 'confirmed', startTime: '2027-03-28T10:00:00Z' });
    const asAdmin = await schedule(busy, `from=2027-03-28T00:00:00Z&to=2027-03-29T00:00:00Z`);
    expect(asAdmin.body.bookings[1]).to.include({ title: 'Private', bookerProfileId: 'bob' });
  });

  it('filters by status when asked, pending and confirmed by default', async () => {
    const cancelled = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-busy', '2027-03-28T12:00:00Z', '2027-03-28T13:00:00Z'), token: alice });
    await server.request('PATCH', `/booking/v1/bookings/${cancelled.body.id}/cancel`, { token: alice });
    const range = 'from=2027-03-28T00:00:00Z&to=2027-03-29T00:00:00Z';
    expect((await schedule(busy, range)).body.bookings).to.have.length(2);
    const only = await schedule(busy, `${range}&status=cancelled`);
    expect(only.body.bookings.map((b: any) => b.id)).to.deep.equal([cancelled.body.id]);
    expect((await schedule(busy, `${range}&status=cancelled&status=confirmed`)).body.bookings).to.have.length(3);
  });

  it('refuses bad ranges and zones with 400, other workspaces’ resources with 404', async () => {
    expect((await schedule(busy, 'from=2027-03-28T00:00:00Z&to=2027-03-28T00:00:00Z')).status).to.equal(400);
    expect((await schedule(busy, 'from=2027-03-28T00:00:00Z&to=2028-03-29T00:00:01Z')).status).to.equal(400);
    expect((await schedule(busy, 'from=2027-03-28T00:00:00&to=2027-03-29T00:00:00Z')).status).to.equal(400);
    const badZone = await schedule(busy, 'from=2027-03-28T00:00:00Z&to=2027-03-29T00:00:00Z&tz=Mars/Olympus');
    expect(badZone.status).to.equal(400);
    expect(badZone.body.errors[0].path).to.equal('/query/tz');
    expect((await slots(busy, 'date=2027-02-30')).status).to.equal(400);
    expect((await slots(busy, 'date=2027-03-28&tz=Nowhere/City')).status).to.equal(400);
    expect((await slots(busy, 'date=2027-03-28&slotMinutes=4')).status).to.equal(400);
    const stranger = server.token({ level: 'LV2', workspace: '99999999-9999-4999-8999-999999999999' });
    expect((await schedule(busy, 'from=2027-03-28T00:00:00Z&to=2027-03-29T00:00:00Z', stranger)).status).to.equal(404);
    expect((await slots(busy, 'date=2027-03-28', stranger)).status).to.equal(404);
  });

  it('free slots without tz are a UTC day with Z, 30 minutes by default, none before now + minNoticeMinutes', async () => {
    const res = await slots(empty, 'date=2027-03-28');
    expect(res.body).to.include({ timeZone: 'UTC', slotMinutes: 30 });
    expect(res.body.slots).to.have.length(48);
    expect(res.body.slots[0]).to.deep.equal({ startTime: '2027-03-28T00:00:00Z', endTime: '2027-03-28T00:30:00Z', availableUnits: 1 });
    setClock(server, '2027-03-28T10:10:00Z');
    const later = await slots(empty, 'date=2027-03-28');
    expect(later.body.slots[0].startTime).to.equal('2027-03-28T10:30:00Z');
    setClock(server, '2027-01-04T08:00:00Z');
  });
});
