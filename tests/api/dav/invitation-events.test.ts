import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startWorkers, type RunningWorkers } from '../../../src/workers/start-workers.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { fastWorkerOptions, waitFor } from '../../workers/worker-test-kit.js';
import { registerZone, setClock } from '../booking/booking-api.js';
import { davRequest } from './dav-requests.js';
import { eventPath, eventText, putEvent, roomAddress, storedEvent } from './invitation-requests.js';

type Envelope = { event: string; data: { id: string; calendarUid?: string | null } };

/**
 * Contract §26 "Everything else holds": a booking made by an invitation carries `calendarUid` (the
 * event's UID) in its record and in every one of its events — history, the audit feed and the
 * webhooks (the Kafka value is the webhook's envelope, §8) — and a REST booking carries null.
 */
describe('calendarUid in the bookings an invitation makes and in their events (contract §26, §8, §13)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let workers: RunningWorkers;
  let receiver: Server;
  const received: Envelope[] = [];

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push(JSON.parse(body) as Envelope);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    server = await startTestServer({ WEBHOOK_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    workers = startWorkers(server.services, fastWorkerOptions);
    setClock(server, '2027-03-01T08:00:00Z');
  });
  after(async () => {
    await workers.stop();
    await server.stop();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('the invitation’s create, reschedule and cancel carry the event’s UID in the record, history, audit feed and webhooks; a REST booking null', async () => {
    const admin = server.token({ level: 'LV2', sub: 'admin' });
    const alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    const room = await registerZone(server, 'uid-room', { bookingPolicy: { maxAdvanceDays: 365 } });
    const uid = randomUUID();
    const path = eventPath('alice', `${uid}.ics`);
    const put = (start: string, end: string) => putEvent(server, alice, path, eventText({ uid, start, end, attendees: [roomAddress(room)] }));
    expect((await put('2027-03-02T09:00:00Z', '2027-03-02T10:00:00Z')).status).to.equal(201);
    const id = (await storedEvent(server, alice, path)).attendees[0]!.bookingId!;
    expect((await put('2027-03-02T11:00:00Z', '2027-03-02T12:00:00Z')).status).to.equal(204);
    expect((await davRequest(server, 'DELETE', path, { token: alice })).status).to.equal(204);
    const rest = await server.request('POST', '/booking/v1/bookings', { body: { resourceType: 'zone', resourceId: 'uid-room', title: 'REST', startTime: '2027-03-03T09:00:00Z', endTime: '2027-03-03T10:00:00Z' }, token: alice });
    expect(rest.status).to.equal(201);
    expect(rest.body.calendarUid).to.equal(null);

    expect((await server.request('GET', `/booking/v1/bookings/${id}`, { token: admin })).body).to.include({ calendarUid: uid, status: 'cancelled' });
    const history = await server.request('GET', `/booking/v1/bookings/${id}/history`, { token: admin });
    expect(history.body.events.map((e: { event: string; booking: { calendarUid: string } }) => [e.event, e.booking.calendarUid])).to.deep.equal([
      ['booking.create', uid],
      ['booking.reschedule', uid],
      ['booking.cancel', uid],
    ]);

    const expected = [
      ['booking.create', id, uid],
      ['booking.reschedule', id, uid],
      ['booking.cancel', id, uid],
      ['booking.create', rest.body.id, null],
    ];
    const ofBookings = (envelopes: Envelope[]) => envelopes.filter((e) => e.event.startsWith('booking.')).map((e) => [e.event, e.data.id, e.data.calendarUid]);
    const feed = await server.request('GET', '/booking/v1/events?limit=1000', { token: admin });
    expect(feed.status).to.equal(200);
    expect(ofBookings(feed.body.events)).to.deep.equal(expected);
    await waitFor(() => ofBookings(received).length >= expected.length, { what: 'the webhooks of the four booking events' });
    expect(ofBookings(received)).to.have.deep.members(expected);
  });
});
