import { expect } from 'chai';
import { markNoShow } from '../../../src/commands/booking/system-moves.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from '../booking/booking-api.js';

type Query = Record<string, string | string[]>;

const berlin = 'Europe/Berlin';
// Saturday 28 March 2026 to Tuesday 31 March, Berlin: Sunday the 29th has 23 hours (02:00 → 03:00).
const range = { from: '2026-03-28T00:00:00+01:00', to: '2026-03-31T00:00:00+02:00' };

describe('utilization over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: string;
  let alice: string;
  const utilization = (query: Query, token = admin) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) for (const v of ([] as string[]).concat(value)) params.append(name, v);
    return server.request('GET', `/booking/v1/analytics/utilization?${params}`, { token });
  };
  const create = async (zoneId: string, start: string, end: string) => {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end), token: alice });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const move = async (id: string, action: string, token = alice) => {
    const res = await server.request('PATCH', `/booking/v1/bookings/${id}/${action}`, { token, body: action === 'cancel' ? {} : undefined });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };

  // Room: Sunday open all day, Monday 00:00–17:00, Saturday closed (Berlin wall clock). Hall: no hours.
  let room: string;
  let hall: string;
  before(async () => {
    server = await startTestServer();
    admin = server.token({ level: 'LV2', sub: 'admin' });
    alice = server.token({ level: 'LV4', sub: 'alice' });
    setClock(server, '2026-03-27T08:00:00Z');
    room = await registerZone(server, 'room', {
      availability: { timeZone: berlin, hours: { sunday: [{ start: '00:00', end: '24:00' }], monday: [{ start: '00:00', end: '17:00' }] } },
      groupId: 'east',
    });
    hall = await registerZone(server, 'hall', { groupId: 'west' });

    // Sunday 10:00–12:00 Berlin (summer time): checked in, checked out → completed, 120 min.
    const completed = await create('room', '2026-03-29T10:00:00+02:00', '2026-03-29T12:00:00+02:00');
    // Sunday 13:00–14:00: cancelled, holds nothing.
    const cancelled = await create('room', '2026-03-29T13:00:00+02:00', '2026-03-29T14:00:00+02:00');
    // Sunday 15:00–15:30: never checked in → no_show, still 30 min held.
    const noShow = await create('room', '2026-03-29T15:00:00+02:00', '2026-03-29T15:30:00+02:00');
    // Sunday 23:00 – Monday 01:00: 60 min on each day, counted on Sunday where it starts.
    await create('room', '2026-03-29T23:00:00+02:00', '2026-03-30T01:00:00+02:00');
    // Monday 09:00–10:30: checked in, still confirmed, 90 min.
    const checkedIn = await create('room', '2026-03-30T09:00:00+02:00', '2026-03-30T10:30:00+02:00');
    // Outside the range (the Sunday after): counts nowhere.
    await create('room', '2026-04-05T08:00:00+02:00', '2026-04-05T09:00:00+02:00');
    // Hall, Saturday 10:00–11:00 Berlin (winter time).
    await create('hall', '2026-03-28T10:00:00+01:00', '2026-03-28T11:00:00+01:00');

    await move(cancelled, 'cancel');
    setClock(server, '2026-03-29T07:50:00Z');
    await move(completed, 'checkin');
    setClock(server, '2026-03-29T09:00:00Z');
    await move(completed, 'checkout');
    setClock(server, '2026-03-29T13:20:00Z');
    await markNoShow(server.services, noShow);
    setClock(server, '2026-03-30T07:05:00Z');
    await move(checkedIn, 'checkin');
  });
  after(() => server.stop());

  const none = { bookedMinutes: 0, utilization: null, bookings: 0, cancelled: 0, noShows: 0, completed: 0, checkedIn: 0 };

  it('gives per day in tz the open and booked minutes and the counts (DST day, closed day, no hours)', async () => {
    const res = await utilization({ ...range, tz: berlin, groupBy: 'day', resourceId: [room, hall] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.from).to.equal('2026-03-28T00:00:00+01:00');
    expect(res.body.to).to.equal('2026-03-31T00:00:00+02:00');
    expect(res.body.timeZone).to.equal(berlin);
    const roomRows = [
      { resourceId: room, day: '2026-03-28', openMinutes: 0, ...none },
      { resourceId: room, day: '2026-03-29', openMinutes: 1380, bookedMinutes: 210, utilization: 210 / 1380, bookings: 4, cancelled: 1, noShows: 1, completed: 1, checkedIn: 1 },
      { resourceId: room, day: '2026-03-30', openMinutes: 1020, bookedMinutes: 150, utilization: 150 / 1020, bookings: 1, cancelled: 0, noShows: 0, completed: 0, checkedIn: 1 },
    ];
    const hallRows = [
      { resourceId: hall, day: '2026-03-28', openMinutes: 1440, bookedMinutes: 60, utilization: 60 / 1440, bookings: 1, cancelled: 0, noShows: 0, completed: 0, checkedIn: 0 },
      { resourceId: hall, day: '2026-03-29', openMinutes: 1380, ...none, utilization: 0 },
      { resourceId: hall, day: '2026-03-30', openMinutes: 1440, ...none, utilization: 0 },
    ];
    expect(res.body.rows).to.deep.equal([...roomRows, ...hallRows].sort((a, b) => a.resourceId.localeCompare(b.resourceId)));
  });

  it('gives one row per resource over the whole range, and every visible resource without resourceId', async () => {
    const res = await utilization({ ...range, tz: berlin });
    expect(res.status).to.equal(200);
    const expected = [
      { resourceId: room, openMinutes: 2400, bookedMinutes: 360, utilization: 360 / 2400, bookings: 5, cancelled: 1, noShows: 1, completed: 1, checkedIn: 2 },
      { resourceId: hall, openMinutes: 4260, bookedMinutes: 60, utilization: 60 / 4260, bookings: 1, cancelled: 0, noShows: 0, completed: 0, checkedIn: 0 },
    ];
    expect(res.body.rows).to.deep.equal(expected.sort((a, b) => a.resourceId.localeCompare(b.resourceId)));
    expect((await utilization({ ...range, tz: berlin, groupBy: 'resource', resourceId: [room, room] })).body.rows).to.deep.equal(expected.filter((r) => r.resourceId === room));
  });

  it('cuts bookings and hours at the range edges and names days in UTC without tz', async () => {
    // Sunday 11:00 to Monday 00:30 Berlin, all of it on the UTC day of the 29th (09:00Z–22:30Z) and open.
    const res = await utilization({ from: '2026-03-29T09:00:00Z', to: '2026-03-29T22:30:00Z', groupBy: 'day', resourceId: room });
    expect(res.status).to.equal(200);
    expect(res.body.timeZone).to.equal('UTC');
    expect(res.body.from).to.equal('2026-03-29T09:00:00Z');
    // Open 13.5 h; held: 11:00–12:00 of the completed one, the no-show's 30 min, 23:00–00:30 of the night one.
    expect(res.body.rows).to.deep.equal([
      { resourceId: room, day: '2026-03-29', openMinutes: 810, bookedMinutes: 180, utilization: 180 / 810, bookings: 3, cancelled: 1, noShows: 1, completed: 0, checkedIn: 0 },
    ]);
  });

  it('is for LV1–LV3, LV3 only for resources of its groups', async () => {
    const lv1 = server.token({ level: 'LV1', sub: 'root' });
    const east = server.token({ level: 'LV3', sub: 'east-admin', groups: ['east'] });
    expect((await utilization({ ...range, resourceId: room }, lv1)).status).to.equal(200);
    const scoped = await utilization({ ...range }, east);
    expect(scoped.status).to.equal(200);
    expect(scoped.body.rows.map((r: { resourceId: string }) => r.resourceId)).to.deep.equal([room]);
    expect((await utilization({ ...range, resourceId: room }, east)).status).to.equal(200);
    const otherGroup = await utilization({ ...range, resourceId: hall }, east);
    expect(otherGroup.status).to.equal(403);
    expect(otherGroup.body.statusCode).to.equal(403);
    for (const level of ['LV4', 'LV5'] as const) {
      const res = await utilization({ ...range }, server.token({ level, sub: 'someone' }));
      expect(res.status, level).to.equal(403);
    }
    expect((await utilization({ ...range }, null as unknown as string)).status).to.equal(401);
  });

  it('answers 404 for a resource of another workspace or none, as schedules do', async () => {
    const stranger = server.token({ level: 'LV2', sub: 'stranger', workspace: '00000000-0000-4000-8000-000000000001' });
    const res = await utilization({ ...range, resourceId: room }, stranger);
    expect(res.status).to.equal(404);
    expect(res.body.statusCode).to.equal(404);
    expect((await utilization({ ...range, resourceId: '00000000-0000-4000-8000-000000000002' })).status).to.equal(404);
    expect((await utilization({ ...range }, stranger)).body.rows).to.deep.equal([]);
  });

  it('refuses bad input with 400', async () => {
    const bad: Query[] = [
      { to: range.to },
      { from: range.from },
      { from: range.to, to: range.from },
      { from: range.from, to: range.from },
      { from: '2026-01-01T00:00:00Z', to: '2027-01-02T00:00:01Z' },
      { ...range, tz: 'Mars/Olympus' },
      { ...range, groupBy: 'week' },
      { ...range, resourceId: 'room' },
      { ...range, resourceId: Array.from({ length: 21 }, () => room) },
      { from: '2026-03-28T00:00:00', to: range.to },
    ];
    for (const query of bad) {
      const res = await utilization(query);
      expect(res.status, JSON.stringify(query)).to.equal(400);
      expect(res.body.statusCode).to.equal(400);
    }
    const tooMany = await utilization({ ...range, resourceId: Array.from({ length: 21 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) });
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.message).to.include('at most 20 times');
    expect((await utilization({ from: '2026-01-01T00:00:00Z', to: '2027-01-02T00:00:00Z' })).status).to.equal(200);
    expect((await utilization({ ...range, resourceId: Array.from({ length: 20 }, () => room) })).body.rows).to.have.length(1);
  });
});
