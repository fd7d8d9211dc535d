import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { registerZone, setClock } from '../booking/booking-api.js';
import { davRequest } from './dav-requests.js';
import { eventPath, eventText, putEvent, roomAddress, storedEvent } from './invitation-requests.js';

/**
 * Contract §26 with §23: a room held by an invitation is an ordinary booking for the waitlist — a
 * REST user waits for its time, and whatever frees it through the event (a move, the room removed,
 * the event cancelled or deleted) promotes the waiting entry in the same step.
 */
describe('waitlists on rooms held by invitations (contract §26, §23)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let zones = 0;

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
    setClock(server, '2027-03-01T08:00:00Z');
  });
  after(() => server.stop());

  const start = '2027-03-02T09:00:00Z';
  const end = '2027-03-02T10:00:00Z';
  const waitlistBody = (zoneId: string) => ({ resourceType: 'zone', resourceId: zoneId, title: 'Waiting', startTime: start, endTime: end });

  /** How the event frees the room's time, and what becomes of the room's booking. */
  const freeings: [string, (path: string, uid: string, room: string, other: string) => Promise<number>, 'confirmed' | 'cancelled'][] = [
    ['the event moved to other times', async (path, uid, room) => (await putEvent(server, alice, path, eventText({ uid, start: '2027-03-02T14:00:00Z', end: '2027-03-02T15:00:00Z', attendees: [roomAddress(room)] }))).status, 'confirmed'],
    ['the room removed from the event', async (path, uid, _room, other) => (await putEvent(server, alice, path, eventText({ uid, start, end, attendees: [roomAddress(other)] }))).status, 'cancelled'],
    ['the event cancelled (STATUS:CANCELLED)', async (path, uid, room) => (await putEvent(server, alice, path, eventText({ uid, start, end, status: 'CANCELLED', attendees: [roomAddress(room)] }))).status, 'cancelled'],
    ['the object deleted', async (path) => (await davRequest(server, 'DELETE', path, { token: alice })).status, 'cancelled'],
  ];

  for (const [what, free, afterwards] of freeings) {
    it(`${what}: the REST user waiting for the room's time gets it in the same step`, async () => {
      zones += 1;
      const zoneId = `waited-room-${zones}`;
      const room = await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 365 } });
      const other = await registerZone(server, `${zoneId}-other`, { bookingPolicy: { maxAdvanceDays: 365 } });
      const uid = randomUUID();
      const path = eventPath('alice', `${uid}.ics`);
      expect((await putEvent(server, alice, path, eventText({ uid, start, end, attendees: [roomAddress(room)] }))).status).to.equal(201);
      const held = (await storedEvent(server, alice, path)).attendees[0]!.bookingId!;

      const joined = await server.request('POST', '/booking/v1/waitlist', { body: waitlistBody(zoneId), token: bob });
      expect(joined.status, JSON.stringify(joined.body)).to.equal(201);
      expect(joined.body).to.include({ status: 'waiting', position: 1 });

      expect(await free(path, uid, room, other)).to.equal(204);
      expect((await server.request('GET', `/booking/v1/bookings/${held}`, { token: alice })).body.status).to.equal(afterwards);
      const entry = (await server.request('GET', `/booking/v1/waitlist/${joined.body.id}`, { token: bob })).body;
      expect(entry.status).to.equal('fulfilled');
      const promoted = (await server.request('GET', `/booking/v1/bookings/${entry.bookingId}`, { token: bob })).body;
      expect(promoted).to.include({ status: 'confirmed', bookerProfileId: 'bob', startTime: start, calendarUid: null, createdBy: 'system' });
      // Once the freeing write has answered, the time is the waiter's: a direct create of it is refused.
      expect((await server.request('POST', '/booking/v1/bookings', { body: waitlistBody(zoneId), token: alice })).status).to.equal(409);
    });
  }

  it('a room free at the time is no reason to wait (409 slot_available); an invitation for a waited time is DECLINED 4.0 like any create', async () => {
    zones += 1;
    const zoneId = `waited-room-${zones}`;
    const room = await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 365 } });
    const free = await server.request('POST', '/booking/v1/waitlist', { body: waitlistBody(zoneId), token: bob });
    expect(free.status).to.equal(409);
    expect(free.body.reason).to.equal('slot_available');
    expect((await server.request('POST', '/booking/v1/bookings', { body: waitlistBody(zoneId), token: bob })).status).to.equal(201);
    expect((await server.request('POST', '/booking/v1/waitlist', { body: waitlistBody(zoneId), token: server.token({ level: 'LV4', sub: 'carol' }) })).status).to.equal(201);
    const path = eventPath('alice', `${randomUUID()}.ics`);
    expect((await putEvent(server, alice, path, eventText({ start, end, attendees: [roomAddress(room)] }))).status).to.equal(201);
    expect((await storedEvent(server, alice, path)).attendees[0]).to.include({ partstat: 'DECLINED', bookingId: null });
  });
});
