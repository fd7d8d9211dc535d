import { expect } from 'chai';
import { startWorkers, type RunningWorkers } from '../../../src/workers/start-workers.js';
import { bookingBody, registerZone, setClock } from '../../api/booking/booking-api.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { fastWorkerOptions, waitFor } from '../worker-test-kit.js';

// Contract §23: expiry within 20 s, freeings from outside the resource's stream (a blackout removed, a
// booking freed on a resource sharing one through parts) within 5 s.
const monday = '2027-01-04T08:00:00Z';
const nine = '2027-01-05T09:00:00Z';
const ten = '2027-01-05T10:00:00Z';

describe('waitlist expiry and promotions through the process manager', function () {
  this.timeout(60_000);
  let server: TestServer;
  let workers: RunningWorkers;
  let alice: string;
  let counter = 0;
  const takenRoom = async () => {
    counter += 1;
    const zoneId = `waitlist-worker-room-${counter}`;
    const id = await registerZone(server, zoneId);
    const booked = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, nine, ten) });
    expect(booked.status).to.equal(201);
    return { zoneId, id, bookingId: booked.body.id as string };
  };
  const join = async (zoneId: string) => {
    const res = await server.request('POST', '/booking/v1/waitlist', { body: bookingBody(zoneId, nine, ten), token: alice });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const statusOf = async (id: string) => (await server.request('GET', `/booking/v1/waitlist/${id}`, { token: alice })).body.status as string;

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    setClock(server, monday);
    workers = startWorkers(server.services, fastWorkerOptions);
  });
  after(async () => {
    await workers.stop();
    await server.stop();
  });

  it('closes an entry expired once its start has passed, within 20 s', async () => {
    const { zoneId } = await takenRoom();
    const entry = await join(zoneId);
    setClock(server, '2027-01-05T09:00:01Z');
    const started = Date.now();
    await waitFor(async () => (await statusOf(entry)) === 'expired', { timeoutMs: 20_000, what: 'the expiry' });
    expect(Date.now() - started).to.be.below(20_000);
    setClock(server, monday);
  });

  it('a booking freed on a whole promotes its part\'s waiter, and one freed on a part its whole\'s, within 5 s (contract §22)', async () => {
    counter += 1;
    const [east, west] = [await registerZone(server, `waitlist-east-${counter}`), await registerZone(server, `waitlist-west-${counter}`)];
    await registerZone(server, `waitlist-hall-${counter}`, { parts: [east, west] });
    const hallBooking = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(`waitlist-hall-${counter}`, nine, ten) });
    expect(hallBooking.status, JSON.stringify(hallBooking.body)).to.equal(201);
    const eastWaiter = await join(`waitlist-east-${counter}`);
    expect((await server.request('PATCH', `/booking/v1/bookings/${hallBooking.body.id}/cancel`, { body: {} })).status).to.equal(200);
    let started = Date.now();
    await waitFor(async () => (await statusOf(eastWaiter)) === 'fulfilled', { timeoutMs: 5_000, what: 'the part\'s promotion' });
    expect(Date.now() - started).to.be.below(5_000);

    // The east half is alice's now; the hall waits for it.
    const hallWaiter = await join(`waitlist-hall-${counter}`);
    const eastEntry = (await server.request('GET', `/booking/v1/waitlist/${eastWaiter}`, { token: alice })).body;
    expect((await server.request('PATCH', `/booking/v1/bookings/${eastEntry.bookingId}/cancel`, { token: alice, body: {} })).status).to.equal(200);
    started = Date.now();
    await waitFor(async () => (await statusOf(hallWaiter)) === 'fulfilled', { timeoutMs: 5_000, what: 'the whole\'s promotion' });
    expect(Date.now() - started).to.be.below(5_000);
  });

  it('a blackout frees nothing; its removal promotes the waiter within 5 s', async () => {
    const { zoneId, id } = await takenRoom();
    const entry = await join(zoneId);
    const blackout = await server.request('POST', '/booking/v1/blackouts', { body: { reason: 'Repairs', resourceIds: [id], from: nine, to: ten, cancelExisting: true } });
    expect(blackout.status, JSON.stringify(blackout.body)).to.equal(201);
    expect(await statusOf(entry)).to.equal('waiting');
    expect((await server.request('DELETE', `/booking/v1/blackouts/${blackout.body.id}`)).status).to.be.oneOf([200, 204]);
    const started = Date.now();
    await waitFor(async () => (await statusOf(entry)) === 'fulfilled', { timeoutMs: 5_000, what: 'the promotion' });
    expect(Date.now() - started).to.be.below(5_000);
  });
});
