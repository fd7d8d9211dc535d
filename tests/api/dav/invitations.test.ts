import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { registerZone, setClock } from '../booking/booking-api.js';
import { C, D, child, davRequest } from './dav-requests.js';
import { eventPath, eventText, inboxReplies, putEvent, roomAddress, storedEvent, type EventParts } from './invitation-requests.js';

describe('rooms that answer invitations (contract §26)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let alice: string;
  let admin: string;
  let zones = 0;

  /** A room of its own for each test, so that no test sees another's bookings. */
  const freshRoom = async (extra: Record<string, unknown> = {}) => {
    zones += 1;
    const zoneId = `inv-room-${zones}`;
    return { zoneId, id: await registerZone(server, zoneId, { ...extra, bookingPolicy: { maxAdvanceDays: 365, ...((extra.bookingPolicy as object) ?? {}) } }) };
  };
  const name = () => `${randomUUID()}.ics`;
  const hour = (day: number, h: number) => `2027-03-${String(day).padStart(2, '0')}T${String(h).padStart(2, '0')}:00:00Z`;
  const put = (path: string, parts: EventParts, headers: Record<string, string> = {}, token = alice) => putEvent(server, token, path, eventText(parts), headers);
  const booking = async (id: string) => (await server.request('GET', `/booking/v1/bookings/${id}`, { token: admin })).body;
  const bookingsOf = async (resourceId: string) =>
    (await server.database.db.selectFrom('bookings').select(['id', 'status', 'start_time', 'end_time']).where('bookable_resource_id', '=', resourceId).execute()).map((b) => ({
      ...b,
      start_time: new Date(b.start_time as unknown as string).toISOString(),
    }));
  const eventCount = async () => Number((await server.database.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
    setClock(server, '2027-03-01T08:00:00Z');
  });
  after(() => server.stop());

  describe('a free room', () => {
    it('accepts: PARTSTAT=ACCEPTED with its booking id, a booking of the organizer with the event’s UID, a REPLY 2.0 in the inbox', async () => {
      const room = await freshRoom();
      const uid = randomUUID();
      const path = eventPath('alice', name());
      const res = await put(path, { uid, start: hour(2, 9), end: hour(2, 10), summary: 'Quarterly planning', attendees: [roomAddress(room.id), 'mailto:bob@example.com'] });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('schedule-tag')).to.match(/^".+"$/);
      expect(res.headers.get('etag')).to.equal(null);
      const stored = await storedEvent(server, alice, path);
      const attendee = stored.attendees.find((a) => a.address === roomAddress(room.id))!;
      expect(attendee).to.include({ partstat: 'ACCEPTED', scheduleStatus: '1.2' });
      expect(attendee.bookingId).to.be.a('string');
      const made = await booking(attendee.bookingId!);
      expect(made).to.include({ status: 'confirmed', calendarUid: uid, bookerProfileId: 'alice', title: 'Quarterly planning', bookableResourceId: room.id, units: 1 });
      expect(made.startTime).to.equal('2027-03-02T09:00:00Z');
      const replies = (await inboxReplies(server, alice, 'alice')).filter((r) => r.uid === uid);
      expect(replies).to.have.length(1);
      expect(replies[0]).to.include({ attendee: roomAddress(room.id), partstat: 'ACCEPTED' });
      expect(replies[0]!.requestStatus).to.match(/^2\.0/);
    });

    it('declines the same room in another event at an overlapping time with 4.0, booking nothing', async () => {
      const room = await freshRoom();
      expect((await put(eventPath('alice', name()), { start: hour(3, 9), end: hour(3, 10), attendees: [roomAddress(room.id)] })).status).to.equal(201);
      const uid = randomUUID();
      const path = eventPath('alice', name());
      expect((await put(path, { uid, start: '2027-03-03T09:30:00Z', end: hour(3, 11), attendees: [roomAddress(room.id)] })).status).to.equal(201);
      const attendee = (await storedEvent(server, alice, path)).attendees[0]!;
      expect(attendee).to.include({ partstat: 'DECLINED', bookingId: null });
      const reply = (await inboxReplies(server, alice, 'alice')).find((r) => r.uid === uid)!;
      expect(reply.partstat).to.equal('DECLINED');
      expect(reply.requestStatus).to.match(/^4\.0;.*;conflict$/);
      expect(await bookingsOf(room.id)).to.have.length(1);
    });
  });

  describe('each refusal REST gives, as the room’s answer', () => {
    const declinedWith = async (room: string, parts: Omit<EventParts, 'attendees'>, token = alice) => {
      const uid = randomUUID();
      const path = eventPath(token === alice ? 'alice' : 'guest', name());
      const res = await put(path, { ...parts, uid, attendees: [roomAddress(room)] }, {}, token);
      expect(res.status, res.text).to.equal(201);
      const attendee = (await storedEvent(server, token, path)).attendees[0]!;
      expect(attendee.bookingId).to.equal(null);
      const reply = (await inboxReplies(server, token, token === alice ? 'alice' : 'guest')).find((r) => r.uid === uid);
      return { attendee, reply };
    };

    it('a pool without a free unit → 4.0 …;units', async () => {
      const pool = await freshRoom({ units: 2 });
      for (const _ of [1, 2]) expect((await put(eventPath('alice', name()), { start: hour(4, 9), end: hour(4, 10), attendees: [roomAddress(pool.id)] })).status).to.equal(201);
      const { attendee, reply } = await declinedWith(pool.id, { start: hour(4, 9), end: hour(4, 10) });
      expect(attendee.partstat).to.equal('DECLINED');
      expect(reply!.requestStatus).to.match(/^4\.0;.*;units$/);
      expect(await bookingsOf(pool.id)).to.have.length(2);
    });

    it('a policy (422) → 3.1 naming it: maxDurationMinutes, blackout, quota', async () => {
      const short = await freshRoom({ bookingPolicy: { maxDurationMinutes: 30 } });
      expect((await declinedWith(short.id, { start: hour(5, 9), end: hour(5, 10) })).reply!.requestStatus).to.match(/^3\.1;.*;maxDurationMinutes$/);

      const closed = await freshRoom();
      const blackout = await server.request('POST', '/booking/v1/blackouts', { body: { resourceIds: [closed.id], from: hour(6, 0), to: hour(7, 0), reason: 'Repair' }, token: admin });
      expect(blackout.status, JSON.stringify(blackout.body)).to.equal(201);
      expect((await declinedWith(closed.id, { start: hour(6, 9), end: hour(6, 10) })).reply!.requestStatus).to.match(/^3\.1;.*;blackout$/);

      const limited = await freshRoom();
      const quota = await server.request('POST', '/booking/v1/quotas', { body: { resourceIds: [limited.id], limit: 1, unit: 'bookings', per: 'week' }, token: admin });
      expect(quota.status, JSON.stringify(quota.body)).to.equal(201);
      expect((await put(eventPath('alice', name()), { start: hour(8, 9), end: hour(8, 10), attendees: [roomAddress(limited.id)] })).status).to.equal(201);
      expect((await declinedWith(limited.id, { start: hour(9, 9), end: hour(9, 10) })).reply!.requestStatus).to.match(/^3\.1;.*;quota$/);
      expect(await bookingsOf(limited.id)).to.have.length(1);
    });

    it('a caller who may not book (a guest, 403) → 3.8; an unknown room → 3.7', async () => {
      const room = await freshRoom();
      const guest = server.token({ level: 'LV5', sub: 'guest', email: 'guest@example.com' });
      const path = eventPath('guest', name());
      expect((await put(path, { organizer: 'mailto:guest@example.com', start: hour(10, 9), end: hour(10, 10), attendees: [roomAddress(room.id)] }, {}, guest)).status).to.equal(201);
      expect((await storedEvent(server, guest, path)).attendees[0]).to.include({ partstat: 'DECLINED', scheduleStatus: '3.8' });
      const unknown = randomUUID();
      const other = eventPath('alice', name());
      expect((await put(other, { start: hour(10, 9), end: hour(10, 10), attendees: [roomAddress(unknown)] })).status).to.equal(201);
      expect((await storedEvent(server, alice, other)).attendees[0]).to.include({ partstat: 'DECLINED', scheduleStatus: '3.7' });
      expect(await bookingsOf(room.id)).to.have.length(0);
    });

    it('a room that asks for approval → TENTATIVE with a pending booking', async () => {
      const room = await freshRoom({ bookingPolicy: { autoConfirm: false, approvers: ['carol'] } });
      const path = eventPath('alice', name());
      expect((await put(path, { start: hour(11, 9), end: hour(11, 10), attendees: [roomAddress(room.id)] })).status).to.equal(201);
      const attendee = (await storedEvent(server, alice, path)).attendees[0]!;
      expect(attendee.partstat).to.equal('TENTATIVE');
      expect((await booking(attendee.bookingId!)).status).to.equal('pending');
    });
  });

  it('decides several rooms of one event each on its own: a free one accepts while a busy one declines', async () => {
    const [free, busy] = [await freshRoom(), await freshRoom()];
    await put(eventPath('alice', name()), { start: hour(23, 9), end: hour(23, 10), attendees: [roomAddress(busy.id)] });
    const path = eventPath('alice', name());
    expect((await put(path, { start: hour(23, 9), end: hour(23, 10), attendees: [roomAddress(free.id), `urn:uuid:${busy.id}`] })).status).to.equal(201);
    const [a, b] = (await storedEvent(server, alice, path)).attendees.filter((x) => x.scheduleStatus !== '5.3');
    expect(a).to.include({ partstat: 'ACCEPTED' });
    expect(b).to.include({ partstat: 'DECLINED', bookingId: null });
    expect(await bookingsOf(free.id)).to.have.length(1);
    expect(await bookingsOf(busy.id)).to.have.length(1);
  });

  describe('changes', () => {
    it('the same text twice appends nothing the second time, and answers the same Schedule-Tag', async () => {
      const room = await freshRoom();
      const path = eventPath('alice', name());
      const parts = { uid: randomUUID(), start: hour(12, 9), end: hour(12, 10), attendees: [roomAddress(room.id)] };
      const first = await put(path, parts);
      const before = await eventCount();
      const second = await put(path, parts);
      expect(second.status).to.equal(204);
      expect(second.headers.get('schedule-tag')).to.equal(first.headers.get('schedule-tag'));
      expect(await eventCount()).to.equal(before);
    });

    it('If-Match of an older ETag → 412 and nothing changes; If-None-Match: * on an existing object → 412', async () => {
      const room = await freshRoom();
      const path = eventPath('alice', name());
      const uid = randomUUID();
      await put(path, { uid, start: hour(13, 9), end: hour(13, 10), attendees: [roomAddress(room.id)] });
      const old = (await storedEvent(server, alice, path)).etag!;
      expect((await put(path, { uid, start: hour(13, 11), end: hour(13, 12), attendees: [roomAddress(room.id)] }, { 'if-match': old })).status).to.equal(204);
      const stale = await put(path, { uid, start: hour(13, 14), end: hour(13, 15), attendees: [roomAddress(room.id)] }, { 'if-match': old });
      expect(stale.status).to.equal(412);
      expect((await put(path, { uid, start: hour(13, 14), end: hour(13, 15), attendees: [roomAddress(room.id)] }, { 'if-none-match': '*' })).status).to.equal(412);
      expect((await bookingsOf(room.id)).map((b) => b.start_time)).to.deep.equal(['2027-03-13T11:00:00.000Z']);
    });

    it('new times reschedule the room’s booking; a REST reschedule of it → 409 calendar_managed', async () => {
      const room = await freshRoom();
      const path = eventPath('alice', name());
      const uid = randomUUID();
      await put(path, { uid, start: hour(14, 9), end: hour(14, 10), attendees: [roomAddress(room.id)] });
      const id = (await storedEvent(server, alice, path)).attendees[0]!.bookingId!;
      expect((await put(path, { uid, start: hour(14, 15), end: hour(14, 16), summary: 'Moved', attendees: [roomAddress(room.id)] })).status).to.equal(204);
      const stored = (await storedEvent(server, alice, path)).attendees[0]!;
      expect(stored).to.include({ partstat: 'ACCEPTED', bookingId: id });
      expect(await booking(id)).to.include({ startTime: '2027-03-14T15:00:00Z', title: 'Moved', status: 'confirmed' });
      const rest = await server.request('PATCH', `/booking/v1/bookings/${id}`, { body: { startTime: hour(14, 17), endTime: hour(14, 18) }, token: alice });
      expect(rest.status).to.equal(409);
      expect(rest.body.reason).to.equal('calendar_managed');
    });

    it('new times the room refuses → DECLINED and its booking cancelled with reason "declined: …"', async () => {
      const room = await freshRoom();
      const path = eventPath('alice', name());
      const uid = randomUUID();
      await put(path, { uid, start: hour(15, 9), end: hour(15, 10), attendees: [roomAddress(room.id)] });
      const id = (await storedEvent(server, alice, path)).attendees[0]!.bookingId!;
      await put(eventPath('alice', name()), { start: hour(15, 12), end: hour(15, 13), attendees: [roomAddress(room.id)] });
      expect((await put(path, { uid, start: hour(15, 12), end: hour(15, 13), attendees: [roomAddress(room.id)] })).status).to.equal(204);
      expect((await storedEvent(server, alice, path)).attendees[0]).to.include({ partstat: 'DECLINED', bookingId: null });
      const cancelled = await booking(id);
      expect(cancelled.status).to.equal('cancelled');
      expect(cancelled.reason).to.match(/^declined: /);
    });

    it('a room removed from the event, the event cancelled, the object deleted: its booking cancelled', async () => {
      const [a, b, c] = [await freshRoom(), await freshRoom(), await freshRoom()];
      const path = eventPath('alice', name());
      const uid = randomUUID();
      await put(path, { uid, start: hour(16, 9), end: hour(16, 10), attendees: [roomAddress(a.id), roomAddress(b.id), roomAddress(c.id)] });
      const ids = (await storedEvent(server, alice, path)).attendees.map((x) => x.bookingId!);
      expect(ids.every((id) => typeof id === 'string')).to.equal(true);
      expect((await put(path, { uid, start: hour(16, 9), end: hour(16, 10), attendees: [roomAddress(a.id), roomAddress(b.id)] })).status).to.equal(204);
      expect((await booking(ids[2]!)).status).to.equal('cancelled');
      expect((await booking(ids[0]!)).status).to.equal('confirmed');
      expect((await put(path, { uid, start: hour(16, 9), end: hour(16, 10), status: 'CANCELLED', attendees: [roomAddress(a.id), roomAddress(b.id)] })).status).to.equal(204);
      expect((await booking(ids[0]!)).status).to.equal('cancelled');
      expect((await booking(ids[1]!)).status).to.equal('cancelled');

      const other = eventPath('alice', name());
      await put(other, { start: hour(17, 9), end: hour(17, 10), attendees: [roomAddress(a.id)] });
      const kept = (await storedEvent(server, alice, other)).attendees[0]!.bookingId!;
      const deleted = await davRequest(server, 'DELETE', other, { token: alice });
      expect(deleted.status).to.equal(204);
      expect((await booking(kept)).status).to.equal('cancelled');
      expect((await storedEvent(server, alice, other)).status).to.equal(404);
      expect((await davRequest(server, 'DELETE', other, { token: alice })).status).to.equal(404);
    });

    it('a new event already cancelled books nothing, and its room shows DECLINED whatever PARTSTAT the client wrote', async () => {
      const room = await freshRoom();
      const path = eventPath('alice', name());
      const uid = randomUUID();
      const text = eventText({ uid, start: hour(19, 9), end: hour(19, 10), status: 'CANCELLED', attendees: [] }).replace(
        'STATUS:CANCELLED',
        `STATUS:CANCELLED\r\nATTENDEE;CUTYPE=ROOM;PARTSTAT=ACCEPTED;X-BOOKING-ID=${randomUUID()}:${roomAddress(room.id)}`,
      );
      expect((await putEvent(server, alice, path, text)).status).to.equal(201);
      expect((await storedEvent(server, alice, path)).attendees).to.deep.include({ address: roomAddress(room.id), partstat: 'DECLINED', scheduleStatus: '1.2', bookingId: null });
      expect(await server.database.db.selectFrom('bookings').select('id').where('calendar_uid', '=', uid).execute()).to.deep.equal([]);
    });

    it('DELETE of a REPLY removes it from the inbox', async () => {
      const room = await freshRoom();
      const uid = randomUUID();
      await put(eventPath('alice', name()), { uid, start: hour(18, 9), end: hour(18, 10), attendees: [roomAddress(room.id)] });
      const reply = (await inboxReplies(server, alice, 'alice')).find((r) => r.uid === uid)!;
      expect((await davRequest(server, 'DELETE', reply.href, { token: alice })).status).to.equal(204);
      expect((await inboxReplies(server, alice, 'alice')).find((r) => r.uid === uid)).to.equal(undefined);
      expect((await davRequest(server, 'DELETE', reply.href, { token: alice })).status).to.equal(404);
    });
  });

  describe('refusals of the write', () => {
    it('bad iCalendar → 403 with the CalDAV precondition, and nothing booked', async () => {
      const room = await freshRoom();
      const base = { start: hour(19, 9), end: hour(19, 10), attendees: [roomAddress(room.id)] };
      const cases: [string, string][] = [
        ['not iCalendar at all', 'valid-calendar-data'],
        [eventText(base).replace('BEGIN:VEVENT', 'BEGIN:VTODO').replace('END:VEVENT', 'END:VTODO'), 'supported-calendar-component'],
        [eventText({ ...base, end: hour(19, 8) }), 'valid-calendar-object-resource'],
        [eventText(base).replace('VERSION:2.0', 'VERSION:2.0\r\nMETHOD:REQUEST'), 'valid-calendar-object-resource'],
        [eventText({ ...base, extra: ['RDATE:20270326T090000Z'] }), 'valid-calendar-object-resource'],
        [eventText({ ...base, attendees: Array.from({ length: 101 }, (_, i) => `mailto:p${i}@example.com`) }), 'max-attendees-per-instance'],
      ];
      for (const [text, name_] of cases) {
        const res = await putEvent(server, alice, eventPath('alice', name()), text);
        expect(res.status, text).to.equal(403);
        expect(child(res.root, C, name_), res.text).to.not.equal(undefined);
      }
      expect(await bookingsOf(room.id)).to.have.length(0);
    });

    it('two UIDs in one object, DTEND equal to DTSTART, a DURATION of zero, 10,000 room attendees → 403 with the precondition; no booking, no event appended', async () => {
      const room = await freshRoom();
      const base = { start: hour(19, 9), end: hour(19, 10), attendees: [roomAddress(room.id)] };
      const second = eventText({ ...base, start: hour(19, 11), end: hour(19, 12) });
      const vevent = (text: string) => text.slice(text.indexOf('BEGIN:VEVENT'), text.indexOf('END:VCALENDAR'));
      const crowd = Array.from({ length: 9_999 }, () => `ATTENDEE;CUTYPE=ROOM:${roomAddress(randomUUID())}`);
      const cases: [string, string, string][] = [
        ['two UIDs', eventText(base).replace('END:VCALENDAR', `${vevent(second)}END:VCALENDAR`), 'valid-calendar-object-resource'],
        ['DTEND equal to DTSTART', eventText({ ...base, end: base.start }), 'valid-calendar-object-resource'],
        ['DURATION of zero', eventText(base).replace(/DTEND:[^\r]*/, 'DURATION:PT0S'), 'valid-calendar-object-resource'],
        ['10,000 room attendees', eventText({ ...base, extra: crowd }), 'max-attendees-per-instance'],
      ];
      const events = await eventCount();
      for (const [what, text, precondition] of cases) {
        const res = await putEvent(server, alice, eventPath('alice', name()), text);
        expect(res.status, what).to.equal(403);
        expect(child(res.root, C, precondition), `${what}: ${res.text}`).to.not.equal(undefined);
      }
      expect(await bookingsOf(room.id)).to.have.length(0);
      expect(await eventCount()).to.equal(events);
    });

    it('an ORGANIZER that is not the caller → 403 valid-organizer; a UID under another name → 403 no-uid-conflict', async () => {
      const room = await freshRoom();
      const wrong = await put(eventPath('alice', name()), { organizer: 'mailto:mallory@example.com', start: hour(20, 9), end: hour(20, 10), attendees: [roomAddress(room.id)] });
      expect(wrong.status).to.equal(403);
      expect(child(wrong.root, C, 'valid-organizer')).to.not.equal(undefined);
      const uid = randomUUID();
      expect((await put(eventPath('alice', name()), { uid, start: hour(20, 9), end: hour(20, 10), attendees: [roomAddress(room.id)] })).status).to.equal(201);
      const twice = await put(eventPath('alice', name()), { uid, start: hour(20, 11), end: hour(20, 12), attendees: [roomAddress(room.id)] });
      expect(twice.status).to.equal(403);
      expect(child(twice.root, C, 'no-uid-conflict')).to.not.equal(undefined);
      expect(await bookingsOf(room.id)).to.have.length(1);
    });

    it('another user’s calendar → 403 need-privileges; other writes stay 403; a wrong media type → 400', async () => {
      const room = await freshRoom();
      const parts = { start: hour(21, 9), end: hour(21, 10), attendees: [roomAddress(room.id)] };
      const foreign = await put(eventPath('bob', name()), parts);
      expect(foreign.status).to.equal(403);
      expect(child(foreign.root, D, 'need-privileges')).to.not.equal(undefined);
      expect((await put(`/dav/calendars/resources/${room.id}/bookings/${name()}`, parts)).status).to.equal(403);
      expect((await put(`/dav/calendars/users/alice/inbox/${name()}`, parts)).status).to.equal(403);
      expect((await davRequest(server, 'MKCALENDAR', '/dav/calendars/users/alice/bookings/', { token: alice })).status).to.equal(403);
      const xml = await davRequest(server, 'PUT', eventPath('alice', name()), { token: alice, body: eventText(parts) });
      expect(xml.status).to.equal(400);
      expect(await bookingsOf(room.id)).to.have.length(0);
    });
  });

  describe('under concurrency', () => {
    it('one UID PUT under eight names at once: one object holds it, the others answer 403 no-uid-conflict (never 500), one booking', async () => {
      const room = await freshRoom();
      const uid = randomUUID();
      const paths = Array.from({ length: 8 }, () => eventPath('alice', name()));
      const text = eventText({ uid, start: hour(25, 9), end: hour(25, 10), attendees: [roomAddress(room.id)] });
      const answers = await Promise.all(paths.map((path) => putEvent(server, alice, path, text)));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 403, 403, 403, 403, 403, 403, 403]);
      for (const refused of answers.filter((a) => a.status === 403)) expect(refused.text).to.include('no-uid-conflict');
      const rows = await server.database.db.selectFrom('bookings').select('id').where('calendar_uid', '=', uid).execute();
      expect(rows).to.have.length(1);
    });

    it('20 organizers inviting one room for one hour at once: exactly one ACCEPTED, 19 DECLINED with 4.0, one booking', async () => {
      const room = await freshRoom();
      const organizers = Array.from({ length: 20 }, (_, i) => `solo${i}`);
      const tokens = organizers.map((sub) => server.token({ level: 'LV4', sub, email: `${sub}@example.com` }));
      const paths = organizers.map((sub) => eventPath(sub, name()));
      const answers = await Promise.all(
        organizers.map((sub, i) => putEvent(server, tokens[i]!, paths[i]!, eventText({ organizer: `mailto:${sub}@example.com`, start: hour(24, 9), end: hour(24, 10), attendees: [roomAddress(room.id)] }))),
      );
      expect(answers.map((a) => a.status)).to.deep.equal(organizers.map(() => 201));
      const partstats = await Promise.all(organizers.map(async (_, i) => (await storedEvent(server, tokens[i]!, paths[i]!)).attendees[0]!.partstat));
      expect(partstats.filter((p) => p === 'ACCEPTED')).to.have.length(1);
      expect(partstats.filter((p) => p === 'DECLINED')).to.have.length(19);
      expect((await bookingsOf(room.id)).filter((b) => b.status === 'confirmed')).to.have.length(1);
    });

    it('20 organizers inviting one room for one hour, mixed with REST creates: one holds it, every other is declined with 4.0, and the records agree', async () => {
      const room = await freshRoom();
      const organizers = Array.from({ length: 20 }, (_, i) => `org${i}`);
      const tokens = organizers.map((sub) => server.token({ level: 'LV4', sub, email: `${sub}@example.com` }));
      const paths = organizers.map((sub) => eventPath(sub, name()));
      const uids = organizers.map(() => randomUUID());
      const puts = organizers.map((sub, i) =>
        putEvent(server, tokens[i]!, paths[i]!, eventText({ uid: uids[i], organizer: `mailto:${sub}@example.com`, start: hour(22, 9), end: hour(22, 10), attendees: [roomAddress(room.id)] })),
      );
      const rests = Array.from({ length: 5 }, () =>
        server.request('POST', '/booking/v1/bookings', { body: { resourceType: 'zone', resourceId: room.zoneId, title: 'REST', startTime: hour(22, 9), endTime: hour(22, 10) }, token: alice }),
      );
      const [putAnswers, restAnswers] = await Promise.all([Promise.all(puts), Promise.all(rests)]);
      expect(putAnswers.map((a) => a.status)).to.deep.equal(organizers.map(() => 201));
      expect(restAnswers.every((a) => a.status === 201 || a.status === 409)).to.equal(true);
      const held = await bookingsOf(room.id);
      expect(held.filter((b) => b.status === 'confirmed')).to.have.length(1);
      const stored = await Promise.all(organizers.map((_, i) => storedEvent(server, tokens[i]!, paths[i]!)));
      const accepted = stored.filter((s) => s.attendees[0]!.partstat === 'ACCEPTED');
      const restWon = restAnswers.filter((a) => a.status === 201).length;
      expect(accepted.length + restWon).to.equal(1);
      if (accepted.length === 1) expect(accepted[0]!.attendees[0]!.bookingId).to.equal(held[0]!.id);
      for (const [i, s] of stored.entries()) {
        const replies = (await inboxReplies(server, tokens[i]!, organizers[i]!)).filter((r) => r.uid === uids[i]);
        expect(replies).to.have.length(1);
        expect(replies[0]!.partstat).to.equal(s.attendees[0]!.partstat);
        if (s.attendees[0]!.partstat === 'DECLINED') expect(replies[0]!.requestStatus).to.match(/^4\.0;.*;conflict$/);
      }
    });
  });
});
