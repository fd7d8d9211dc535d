import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { registerZone, setClock } from '../booking/booking-api.js';
import { eventPath, eventText, inboxReplies, putEvent, roomAddress, storedEvent } from './invitation-requests.js';

/**
 * Contract §26 with §17's quotas: a room booked through an invitation is an ordinary booking of the
 * organizer, counted against its quotas as a REST create is; a later PUT moving the event is judged
 * with each booking counted at its new times only, as a REST reschedule is.
 */
describe('quotas and invitations (contract §26, §17)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let admin: string;
  let zones = 0;
  let organizers = 0;

  const room = async () => {
    zones += 1;
    const zoneId = `quota-room-${zones}`;
    return { zoneId, id: await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 365 } }) };
  };
  /** A quota of `hours` a day over the rooms. */
  const hoursQuota = async (hours: number, rooms: { id: string }[]) => {
    const res = await server.request('POST', '/booking/v1/quotas', { body: { resourceIds: rooms.map((r) => r.id), limit: hours, unit: 'hours', per: 'day' }, token: admin });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  /** An organizer of its own for each test, so that no test counts another's bookings. */
  const organizer = () => {
    organizers += 1;
    const sub = `quota-organizer-${organizers}`;
    const token = server.token({ level: 'LV4', sub, email: `${sub}@example.com` });
    const path = () => eventPath(sub, `${randomUUID()}.ics`);
    const put = (at: string, parts: { uid: string; start: string; end: string; rooms: { id: string }[] }) =>
      putEvent(server, token, at, eventText({ uid: parts.uid, start: parts.start, end: parts.end, organizer: `mailto:${sub}@example.com`, attendees: parts.rooms.map((r) => roomAddress(r.id)) }));
    const rooms = async (at: string) => (await storedEvent(server, token, at)).attendees;
    return { sub, token, path, put, rooms };
  };
  const day = (d: number, h: number, m = 0) => `2027-04-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00Z`;
  const booking = async (id: string) => (await server.request('GET', `/booking/v1/bookings/${id}`, { token: admin })).body;

  before(async () => {
    server = await startTestServer();
    admin = server.token({ level: 'LV2', sub: 'admin' });
    setClock(server, '2027-03-01T08:00:00Z');
  });
  after(() => server.stop());

  it('an invitation counts against the organizer’s quota: the usage shows it, and a REST create after it is refused 422 quota', async () => {
    const r = await room();
    const quotaId = await hoursQuota(2, [r]);
    const o = organizer();
    const at = o.path();
    expect((await o.put(at, { uid: randomUUID(), start: day(2, 9), end: day(2, 11), rooms: [r] })).status).to.equal(201);
    expect((await o.rooms(at))[0]!.partstat).to.equal('ACCEPTED');
    setClock(server, day(2, 7));
    const usage = await server.request('GET', `/booking/v1/quotas/usage?bookerProfileId=${o.sub}`, { token: o.token });
    expect(usage.status).to.equal(200);
    expect(usage.body.usage.find((u: { quotaId: string }) => u.quotaId === quotaId)).to.include({ used: 2, limit: 2, unit: 'hours' });
    setClock(server, '2027-03-01T08:00:00Z');
    const rest = await server.request('POST', '/booking/v1/bookings', { body: { resourceType: 'zone', resourceId: r.zoneId, title: 'More', startTime: day(2, 14), endTime: day(2, 15) }, token: o.token });
    expect(rest.status).to.equal(422);
    expect(rest.body).to.include({ policy: 'quota', quotaId });
  });

  it('a REST create counts against the quota an invitation is then judged on: DECLINED 3.1 quota, nothing booked', async () => {
    const r = await room();
    await hoursQuota(2, [r]);
    const o = organizer();
    const rest = await server.request('POST', '/booking/v1/bookings', { body: { resourceType: 'zone', resourceId: r.zoneId, title: 'First', startTime: day(3, 9), endTime: day(3, 10, 30) }, token: o.token });
    expect(rest.status).to.equal(201);
    const uid = randomUUID();
    const at = o.path();
    expect((await o.put(at, { uid, start: day(3, 14), end: day(3, 15), rooms: [r] })).status).to.equal(201);
    expect((await o.rooms(at))[0]).to.include({ partstat: 'DECLINED', bookingId: null });
    expect((await inboxReplies(server, o.token, o.sub)).find((reply) => reply.uid === uid)!.requestStatus).to.match(/^3\.1;.*;quota$/);
  });

  it('moving an event that uses the whole quota to other times the same day → ACCEPTED, its booking counted once, at its new times', async () => {
    const r = await room();
    await hoursQuota(2, [r]);
    const o = organizer();
    const uid = randomUUID();
    const at = o.path();
    await o.put(at, { uid, start: day(5, 9), end: day(5, 11), rooms: [r] });
    const id = (await o.rooms(at))[0]!.bookingId!;
    expect((await o.put(at, { uid, start: day(5, 14), end: day(5, 16), rooms: [r] })).status).to.equal(204);
    expect((await o.rooms(at))[0]).to.include({ partstat: 'ACCEPTED', bookingId: id });
    expect(await booking(id)).to.include({ status: 'confirmed', startTime: day(5, 14), endTime: day(5, 16) });
  });

  it('moving an event with two rooms under one quota, to longer times the same day → both ACCEPTED (each room’s old booking left out)', async () => {
    const [a, b] = [await room(), await room()];
    await hoursQuota(3, [a, b]);
    const o = organizer();
    const uid = randomUUID();
    const at = o.path();
    await o.put(at, { uid, start: day(6, 9), end: day(6, 10), rooms: [a, b] });
    const before = (await o.rooms(at)).map((x) => x.bookingId);
    expect((await o.put(at, { uid, start: day(6, 13), end: day(6, 14, 30), rooms: [a, b] })).status).to.equal(204);
    const after = await o.rooms(at);
    expect(after.map((x) => [x.partstat, x.bookingId])).to.deep.equal(before.map((id) => ['ACCEPTED', id]));
    for (const id of before) expect(await booking(id!)).to.include({ status: 'confirmed', startTime: day(6, 13), endTime: day(6, 14, 30) });
  });

  describe('the rooms of one PUT count each other’s new times, never the times they leave', () => {
    const twoRooms = async (hours: number) => {
      const [a, b] = [await room(), await room()];
      await hoursQuota(hours, [a, b]);
      return [a, b] as const;
    };
    /** The organizer's hours held on the rooms (pending or confirmed) starting on the day. */
    const heldHours = async (sub: string, ids: string[], date: string) => {
      const rows = await server.database.db
        .selectFrom('bookings')
        .select(['start_time', 'end_time'])
        .where('booker_profile_id', '=', sub)
        .where('bookable_resource_id', 'in', ids)
        .where('status', 'in', ['pending', 'confirmed'])
        .where('is_series_parent', '=', false)
        .execute();
      return rows
        .filter((row) => new Date(row.start_time as unknown as string).toISOString().startsWith(date))
        .reduce((sum, row) => sum + (new Date(row.end_time as unknown as string).getTime() - new Date(row.start_time as unknown as string).getTime()) / 3_600_000, 0);
    };

    it('two rooms moved to another day, together past the quota: the first ACCEPTED, the second DECLINED 3.1 quota', async () => {
      const [a, b] = await twoRooms(2);
      const o = organizer();
      const uid = randomUUID();
      const at = o.path();
      await o.put(at, { uid, start: day(11, 9), end: day(11, 10), rooms: [a, b] });
      expect((await o.rooms(at)).map((x) => x.partstat)).to.deep.equal(['ACCEPTED', 'ACCEPTED']);
      await o.put(at, { uid, start: day(12, 9), end: day(12, 10, 30), rooms: [a, b] });
      expect((await o.rooms(at)).map((x) => x.partstat)).to.deep.equal(['ACCEPTED', 'DECLINED']);
      expect((await inboxReplies(server, o.token, o.sub)).filter((reply) => reply.uid === uid).map((reply) => reply.requestStatus).at(-1)).to.match(/^3\.1;.*;quota$/);
      expect(await heldHours(o.sub, [a.id, b.id], '2027-04-12')).to.equal(1.5);
    });

    it('two rooms moved to longer times the same day, together past the quota: the second DECLINED (the first counted at its new length)', async () => {
      const [a, b] = await twoRooms(3);
      const o = organizer();
      const uid = randomUUID();
      const at = o.path();
      await o.put(at, { uid, start: day(13, 9), end: day(13, 10), rooms: [a, b] });
      await o.put(at, { uid, start: day(13, 13), end: day(13, 14, 45), rooms: [a, b] });
      expect((await o.rooms(at)).map((x) => x.partstat)).to.deep.equal(['ACCEPTED', 'DECLINED']);
      expect(await heldHours(o.sub, [a.id, b.id], '2027-04-13')).to.equal(1.75);
    });

    it('a room moved and a room added in one PUT, together past the quota: the added one DECLINED', async () => {
      const [a, b] = await twoRooms(2);
      const o = organizer();
      const uid = randomUUID();
      const at = o.path();
      await o.put(at, { uid, start: day(14, 9), end: day(14, 10), rooms: [a] });
      await o.put(at, { uid, start: day(15, 9), end: day(15, 10, 30), rooms: [a, b] });
      expect((await o.rooms(at)).map((x) => x.partstat)).to.deep.equal(['ACCEPTED', 'DECLINED']);
      expect(await heldHours(o.sub, [a.id, b.id], '2027-04-15')).to.equal(1.5);
    });

    it('a recurring event with two rooms, together past the quota: the second room’s series DECLINED 3.1 quota, nothing of it booked', async () => {
      const [a, b] = await twoRooms(2);
      const o = organizer();
      const uid = randomUUID();
      const at = o.path();
      const text = eventText({ uid, start: day(19, 9), end: day(19, 10, 30), organizer: `mailto:${o.sub}@example.com`, attendees: [roomAddress(a.id), roomAddress(b.id)], extra: ['RRULE:FREQ=WEEKLY;COUNT=2'] });
      expect((await putEvent(server, o.token, at, text)).status).to.equal(201);
      expect((await o.rooms(at)).map((x) => x.partstat)).to.deep.equal(['ACCEPTED', 'DECLINED']);
      expect((await inboxReplies(server, o.token, o.sub)).find((reply) => reply.attendee === roomAddress(b.id))!.requestStatus).to.match(/^3\.1;.*;quota$/);
      expect(await heldHours(o.sub, [b.id], '2027-04-')).to.equal(0);
    });

    it('a room swapped for another at the same times: the room leaving the event frees the quota the new one takes → ACCEPTED', async () => {
      const [a, b] = await twoRooms(2);
      const o = organizer();
      const uid = randomUUID();
      const at = o.path();
      await o.put(at, { uid, start: day(18, 9), end: day(18, 11), rooms: [a] });
      const left = (await o.rooms(at))[0]!.bookingId!;
      await o.put(at, { uid, start: day(18, 9), end: day(18, 11), rooms: [b] });
      expect((await o.rooms(at)).map((x) => [x.address, x.partstat])).to.deep.equal([[roomAddress(b.id), 'ACCEPTED']]);
      expect((await booking(left)).status).to.equal('cancelled');
      expect(await heldHours(o.sub, [a.id, b.id], '2027-04-18')).to.equal(2);
    });

    it('a single event made recurring at the same times: the room’s booking it replaces no longer counts → the series ACCEPTED', async () => {
      const [a] = await twoRooms(2);
      const o = organizer();
      const uid = randomUUID();
      const at = o.path();
      await o.put(at, { uid, start: day(20, 9), end: day(20, 11), rooms: [a] });
      const single = (await o.rooms(at))[0]!.bookingId!;
      const text = eventText({ uid, start: day(20, 9), end: day(20, 11), organizer: `mailto:${o.sub}@example.com`, attendees: [roomAddress(a.id)], extra: ['RRULE:FREQ=WEEKLY;COUNT=2'] });
      expect((await putEvent(server, o.token, at, text)).status).to.equal(204);
      expect((await o.rooms(at))[0]!.partstat).to.equal('ACCEPTED');
      expect((await booking(single)).status).to.equal('cancelled');
      expect(await heldHours(o.sub, [a.id], '2027-04-20')).to.equal(2);
    });

    it('in the event’s order, as REST commands one after the other: a room added before a room whose move frees the quota sees it at its old times (DECLINED); added after it, ACCEPTED', async () => {
      for (const [day_, order, partstats] of [
        [16, 'added first', ['DECLINED', 'ACCEPTED']],
        [17, 'moved first', ['ACCEPTED', 'ACCEPTED']],
      ] as const) {
        const [a, b] = await twoRooms(2);
        const o = organizer();
        const uid = randomUUID();
        const at = o.path();
        await o.put(at, { uid, start: day(day_, 9), end: day(day_, 10, 30), rooms: [b] });
        await o.put(at, { uid, start: day(day_, 13), end: day(day_, 14), rooms: order === 'added first' ? [a, b] : [b, a] });
        expect((await o.rooms(at)).map((x) => x.partstat), order).to.deep.equal(partstats);
        expect(await heldHours(o.sub, [a.id, b.id], `2027-04-${day_}`)).to.equal(order === 'added first' ? 1 : 2);
      }
    });
  });

  it('a move the quota does not allow at its new length → DECLINED 3.1 quota, its booking cancelled "declined: …"', async () => {
    const r = await room();
    await hoursQuota(2, [r]);
    const o = organizer();
    const rest = await server.request('POST', '/booking/v1/bookings', { body: { resourceType: 'zone', resourceId: r.zoneId, title: 'Other', startTime: day(7, 8), endTime: day(7, 9) }, token: o.token });
    expect(rest.status).to.equal(201);
    const uid = randomUUID();
    const at = o.path();
    await o.put(at, { uid, start: day(7, 10), end: day(7, 11), rooms: [r] });
    const id = (await o.rooms(at))[0]!.bookingId!;
    expect((await o.put(at, { uid, start: day(7, 13), end: day(7, 14, 30), rooms: [r] })).status).to.equal(204);
    expect((await o.rooms(at))[0]).to.include({ partstat: 'DECLINED', bookingId: null });
    const replies = (await inboxReplies(server, o.token, o.sub)).filter((reply) => reply.uid === uid);
    expect(replies.map((reply) => reply.requestStatus).at(-1)).to.match(/^3\.1;.*;quota$/);
    const cancelled = await booking(id);
    expect(cancelled.status).to.equal('cancelled');
    expect(cancelled.reason).to.match(/^declined: /);
  });

  it('moving to another day is judged on that day’s usage: refused when it is used up, accepted when it is free', async () => {
    const r = await room();
    await hoursQuota(2, [r]);
    const o = organizer();
    const rest = await server.request('POST', '/booking/v1/bookings', { body: { resourceType: 'zone', resourceId: r.zoneId, title: 'Full day', startTime: day(9, 8), endTime: day(9, 10) }, token: o.token });
    expect(rest.status).to.equal(201);
    const uid = randomUUID();
    const at = o.path();
    await o.put(at, { uid, start: day(8, 9), end: day(8, 11), rooms: [r] });
    expect((await o.rooms(at))[0]!.partstat).to.equal('ACCEPTED');
    await o.put(at, { uid, start: day(9, 13), end: day(9, 14), rooms: [r] });
    expect((await o.rooms(at))[0]!.partstat).to.equal('DECLINED');
    await o.put(at, { uid, start: day(10, 13), end: day(10, 15), rooms: [r] });
    expect((await o.rooms(at))[0]!.partstat).to.equal('ACCEPTED');
  });
});
