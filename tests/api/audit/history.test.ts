import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { completeBooking } from '../../../src/commands/booking/system-moves.js';
import { chainHash, genesisHash } from '../../../src/infra/event-store/hash-chain.js';
import { bookingBody, registerZone, setClock } from '../booking/booking-api.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

describe('booking and resource history over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: string;
  let alice: string;
  let bob: string;
  let groupAdmin: string;
  let otherGroupAdmin: string;
  let resourceId: string;
  let bookingId: string;

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    admin = server.token({ level: 'LV2', sub: 'admin' });
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob' });
    groupAdmin = server.token({ level: 'LV3', sub: 'g-admin', groups: ['g-1'] });
    otherGroupAdmin = server.token({ level: 'LV3', sub: 'h-admin', groups: ['g-2'] });
    resourceId = await registerZone(server, 'history-room', { groupId: 'g-1', bookingPolicy: { autoConfirm: false } });
    const created = await server.request('POST', '/booking/v1/bookings', {
      body: bookingBody('history-room', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z'),
      token: alice,
    });
    expect(created.status).to.equal(201);
    bookingId = created.body.id;
    setClock(server, '2027-01-04T09:00:00Z');
    const moved = await server.request('PATCH', `/booking/v1/bookings/${bookingId}`, {
      token: alice,
      body: { startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z', title: 'Moved' },
    });
    expect(moved.status).to.equal(200);
    expect((await server.request('PATCH', `/booking/v1/bookings/${bookingId}/confirm`, { token: admin })).status).to.equal(200);
    // Another booking on the same stream must not appear in this booking's history.
    await server.request('POST', '/booking/v1/bookings', { body: bookingBody('history-room', '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z'), token: bob });
    setClock(server, '2027-01-05T12:00:00Z');
  });
  after(() => server.stop());

  describe('GET /bookings/{id}/history', () => {
    it('lists every event of the booking oldest first, with actor, changes, record and hash', async () => {
      const res = await server.request('GET', `/booking/v1/bookings/${bookingId}/history`, { token: alice });
      expect(res.status).to.equal(200);
      expect(res.body.bookingId).to.equal(bookingId);
      const events = res.body.events as any[];
      expect(events.map((e) => [e.event, e.by, e.at])).to.deep.equal([
        ['booking.create', 'alice', '2027-01-04T08:00:00Z'],
        ['booking.reschedule', 'alice', '2027-01-04T09:00:00Z'],
        ['booking.confirm', 'admin', '2027-01-04T09:00:00Z'],
      ]);
      expect(events.map((e) => e.revision)).to.deep.equal([1, 2, 3]);
      expect(events[0].position).to.be.lessThan(events[1].position);
      expect(events[0].changes.status).to.deep.equal({ from: null, to: 'pending' });
      expect(events[2].changes).to.deep.include({ status: { from: 'pending', to: 'confirmed' }, confirmedBy: { from: null, to: 'admin' } });
      expect(events[1].changes).to.deep.include({
        startTime: { from: '2027-01-05T09:00:00Z', to: '2027-01-05T11:00:00Z' },
        endTime: { from: '2027-01-05T10:00:00Z', to: '2027-01-05T12:00:00Z' },
        title: { from: 'Sync', to: 'Moved' },
      });
      expect(events[1].changes).not.to.have.property('bookerProfileId');
      const current = await server.request('GET', `/booking/v1/bookings/${bookingId}`, { token: alice });
      expect(events[2].booking).to.deep.equal(current.body);
      for (const e of events) expect(e.hash).to.match(/^[0-9a-f]{64}$/);
    });

    it('names events that are not published today too (automatic completion)', async () => {
      setClock(server, '2027-01-05T12:00:00Z');
      await completeBooking(server.services, bookingId);
      const res = await server.request('GET', `/booking/v1/bookings/${bookingId}/history`, { token: admin });
      const last = res.body.events.at(-1);
      expect([last.event, last.by]).to.deep.equal(['booking.complete', 'system']);
      expect(last.changes.status).to.deep.equal({ from: 'confirmed', to: 'completed' });
    });

    it('answers 404 to whoever may not read the booking, and for an unknown booking', async () => {
      expect((await server.request('GET', `/booking/v1/bookings/${bookingId}/history`, { token: bob })).status).to.equal(404);
      const otherWorkspace = server.token({ level: 'LV2', workspace: randomUUID() });
      expect((await server.request('GET', `/booking/v1/bookings/${bookingId}/history`, { token: otherWorkspace })).status).to.equal(404);
      const unknown = await server.request('GET', `/booking/v1/bookings/${randomUUID()}/history`, { token: admin });
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.include({ statusCode: 404 });
      expect((await server.request('GET', '/booking/v1/bookings/not-a-uuid/history', { token: admin })).status).to.equal(400);
    });
  });

  describe('GET /resources/{id}/history', () => {
    it('pages through the whole stream whose hashes a client can recompute', async () => {
      const seen: any[] = [];
      let after: number | null = null;
      do {
        const query: string = after === null ? '?limit=2' : `?limit=2&after=${after}`;
        const res = await server.request('GET', `/booking/v1/resources/${resourceId}/history${query}`, { token: groupAdmin });
        expect(res.status).to.equal(200);
        expect(res.body.events.length).to.be.at.most(2);
        seen.push(...res.body.events);
        after = res.body.next;
      } while (after !== null);
      expect(seen.map((e) => e.revision)).to.deep.equal(seen.map((_, i) => i));
      expect(seen.map((e) => e.event)).to.deep.equal([
        'resource.register', 'booking.create', 'booking.reschedule', 'booking.confirm', 'booking.create', 'booking.complete',
      ]);
      expect(seen[0].by).to.equal('user-1');
      let previous = genesisHash;
      for (const e of seen) {
        previous = chainHash(previous, { type: e.type, data: e.data, revision: e.revision });
        expect(e.hash).to.equal(previous);
      }
    });

    it('names each resource event as the published stream does: a PATCH of isActive is a deactivation or an activation', async () => {
      const desk = await registerZone(server, 'history-desk');
      for (const change of [{ isActive: false }, { isActive: true }, { capacity: 2 }]) {
        expect((await server.request('PATCH', `/booking/v1/resources/${desk}`, { token: admin, body: change })).status).to.equal(200);
      }
      const res = await server.request('GET', `/booking/v1/resources/${desk}/history`, { token: admin });
      expect(res.body.events.map((e: { event: string }) => e.event)).to.deep.equal(['resource.register', 'resource.deactivate', 'resource.activate', 'resource.update']);
    });

    it('takes after and limit within bounds only', async () => {
      for (const query of ['limit=0', 'limit=1001', 'after=-1', 'after=x']) {
        const res = await server.request('GET', `/booking/v1/resources/${resourceId}/history?${query}`, { token: admin });
        expect(res.status, query).to.equal(400);
      }
      const end = await server.request('GET', `/booking/v1/resources/${resourceId}/history?after=5`, { token: admin });
      expect(end.body).to.deep.equal({ resourceId, events: [], next: null, blackouts: [] });
    });

    it('is for LV1–LV3 (LV3 in its groups): 403 for others, 404 in another workspace', async () => {
      expect((await server.request('GET', `/booking/v1/resources/${resourceId}/history`, { token: alice })).status).to.equal(403);
      expect((await server.request('GET', `/booking/v1/resources/${resourceId}/history`, { token: otherGroupAdmin })).status).to.equal(403);
      const lv1 = server.token({ level: 'LV1', workspace: randomUUID() });
      expect((await server.request('GET', `/booking/v1/resources/${resourceId}/history`, { token: lv1 })).status).to.equal(200);
      const otherWorkspace = server.token({ level: 'LV2', workspace: randomUUID() });
      expect((await server.request('GET', `/booking/v1/resources/${resourceId}/history`, { token: otherWorkspace })).status).to.equal(404);
    });
  });
});
