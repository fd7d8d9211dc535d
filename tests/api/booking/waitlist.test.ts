import { expect } from 'chai';
import { toEventEnvelope } from '../../../src/domain/event-envelope.js';
import { assertPublishedEvent } from '../../support/published-event-schemas.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

// Contract §23. The service's clock stands at Monday 2027-01-04 08:00Z.
const monday = '2027-01-04T08:00:00Z';
const nine = '2027-01-05T09:00:00Z';
const ten = '2027-01-05T10:00:00Z';

describe('waitlists over HTTP (contract §23)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let carol: string;
  let counter = 0;
  const freshRoom = async (bookingPolicy: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `waitlist-room-${counter}`;
    return { zoneId, id: await registerZone(server, zoneId, { bookingPolicy }) };
  };
  const join = (token: string, body: Record<string, unknown>) => server.request('POST', '/booking/v1/waitlist', { body, token });
  const takenRoom = async () => {
    const room = await freshRoom();
    const booked = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(room.zoneId, nine, ten) });
    expect(booked.status).to.equal(201);
    return { ...room, bookingId: booked.body.id as string };
  };

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
    carol = server.token({ level: 'LV4', sub: 'carol', email: 'carol@example.com' });
  });
  beforeEach(() => setClock(server, monday));
  after(() => server.stop());

  it('joins a taken slot: 201 waiting with its position among the overlapping earlier waiters', async () => {
    const { zoneId } = await takenRoom();
    const first = await join(alice, bookingBody(zoneId, nine, ten));
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body).to.include({ status: 'waiting', position: 1, units: 1, bookerProfileId: 'alice', createdBy: 'alice', startTime: nine, endTime: ten, title: 'Sync', bookingId: null });
    const tooMany = await join(bob, bookingBody(zoneId, '2027-01-05T09:30:00Z', ten, { units: 2 }));
    expect(tooMany.status).to.equal(422);
    expect(tooMany.body).to.include({ policy: 'units' });
    const second = await join(bob, bookingBody(zoneId, '2027-01-05T09:30:00Z', ten));
    expect(second.body).to.include({ status: 'waiting', position: 2, units: 1 });
    const read = await server.request('GET', `/booking/v1/waitlist/${second.body.id}`, { token: bob });
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal(second.body);
  });

  it('a free slot answers 409 slot_available; another refusal is that refusal; nothing is stored', async () => {
    const { zoneId } = await freshRoom({ maxDurationMinutes: 60 });
    const free = await join(alice, bookingBody(zoneId, nine, ten));
    expect(free.status).to.equal(409);
    expect(free.body.reason).to.equal('slot_available');
    const tooLong = await join(alice, bookingBody(zoneId, nine, '2027-01-05T11:00:00Z'));
    expect(tooLong.status).to.equal(422);
    expect(tooLong.body.policy).to.equal('maxDurationMinutes');
    expect((await join(alice, bookingBody('no-such-zone', nine, ten))).status).to.equal(404);
    expect((await join(alice, bookingBody(zoneId, ten, nine))).status).to.equal(400);
    expect((await join(alice, bookingBody(zoneId, nine, ten, { units: 0 }))).status).to.equal(400);
    const listed = await server.request('GET', `/booking/v1/waitlist?resourceType=zone&resourceId=${zoneId}`);
    expect(listed.body.total).to.equal(0);
  });

  it('on behalf as a create: LV4 naming another → 403, LV5 → 403, LV2 for another user → 201, promoted as that admin\'s create for the user', async () => {
    const { zoneId, bookingId } = await takenRoom();
    expect((await join(alice, bookingBody(zoneId, nine, ten, { bookerProfileId: 'bob' }))).status).to.equal(403);
    expect((await join(server.token({ level: 'LV5', sub: 'guest' }), bookingBody(zoneId, nine, ten))).status).to.equal(403);
    const onBehalf = await join(server.token({ level: 'LV2', sub: 'admin' }), bookingBody(zoneId, nine, ten, { bookerProfileId: 'bob', bookerEmail: 'bob@example.com' }));
    expect(onBehalf.status).to.equal(201);
    expect(onBehalf.body).to.include({ bookerProfileId: 'bob', createdBy: 'admin', bookerEmail: 'bob@example.com' });
    // The joining principal's level and groups are the service's own: no answer tells them.
    expect(onBehalf.body).to.not.have.property('joinedAs');
    await server.request('PATCH', `/booking/v1/bookings/${bookingId}/cancel`, { body: {} });
    const fulfilled = (await server.request('GET', `/booking/v1/waitlist/${onBehalf.body.id}`, { token: bob })).body;
    expect(fulfilled).to.include({ status: 'fulfilled' }).and.not.have.property('joinedAs');
    const promoted = (await server.request('GET', `/booking/v1/bookings/${fulfilled.bookingId}`, { token: bob })).body;
    expect(promoted).to.include({ bookerProfileId: 'bob', bookerEmail: 'bob@example.com', createdBy: 'system' });
  });

  it('leaves: the booker or LV1–LV3 close it cancelled (position null); another user gets 404; the list shows LV4 its own', async () => {
    const { zoneId } = await takenRoom();
    const mine = (await join(alice, bookingBody(zoneId, nine, ten))).body;
    const bobs = (await join(bob, bookingBody(zoneId, nine, ten))).body;
    expect(bobs.position).to.equal(2);
    expect((await server.request('GET', `/booking/v1/waitlist/${mine.id}`, { token: bob })).status).to.equal(404);
    expect((await server.request('DELETE', `/booking/v1/waitlist/${mine.id}`, { token: bob })).status).to.equal(404);
    const aliceSees = await server.request('GET', `/booking/v1/waitlist?resourceId=${zoneId}`, { token: alice });
    expect(aliceSees.body.data.map((e: { id: string }) => e.id)).to.deep.equal([mine.id]);
    const left = await server.request('DELETE', `/booking/v1/waitlist/${mine.id}`, { token: alice });
    expect(left.status).to.equal(200);
    expect(left.body).to.include({ id: mine.id, status: 'cancelled', position: null });
    expect((await server.request('DELETE', `/booking/v1/waitlist/${mine.id}`, { token: alice })).status).to.equal(409);
    // Bob moves up once the earlier entry is closed.
    expect((await server.request('GET', `/booking/v1/waitlist/${bobs.id}`, { token: bob })).body.position).to.equal(1);
    const admin = await server.request('DELETE', `/booking/v1/waitlist/${bobs.id}`);
    expect(admin.body).to.include({ status: 'cancelled' });
    const all = await server.request('GET', `/booking/v1/waitlist?resourceType=zone&resourceId=${zoneId}&status=cancelled`);
    expect(all.body).to.include({ total: 2, page: 1 });
  });

  it('the resource history shows the entries as waitlist.join and waitlist.close, published as AsyncAPI describes them', async () => {
    const { zoneId, id } = await takenRoom();
    const entry = (await join(alice, bookingBody(zoneId, nine, ten))).body;
    await server.request('DELETE', `/booking/v1/waitlist/${entry.id}`, { token: alice });
    const history = await server.request('GET', `/booking/v1/resources/${id}/history`);
    expect(history.status).to.equal(200);
    const names = JSON.stringify(history.body);
    expect(names).to.contain('waitlist.join').and.to.contain('waitlist.close');
    const rows = await server.database.db.selectFrom('events').selectAll().where('event_type', 'in', ['WaitlistJoined', 'WaitlistFulfilled', 'WaitlistClosed']).execute();
    const envelopes = rows.map((row) => toEventEnvelope({ id: row.event_id, globalPosition: row.global_position, type: row.event_type, data: row.data })!);
    expect(envelopes.map((e) => e.event)).to.include.members(['waitlist.join', 'waitlist.close']);
    envelopes.forEach((e) => assertPublishedEvent(e));
  });

  it('a cancel promotes the first fitting waiter in the same request: a direct create right after it gets 409', async () => {
    const { zoneId, bookingId } = await takenRoom();
    const first = (await join(alice, bookingBody(zoneId, nine, ten))).body;
    const second = (await join(bob, bookingBody(zoneId, nine, ten))).body;
    const cancelled = await server.request('PATCH', `/booking/v1/bookings/${bookingId}/cancel`, { body: {} });
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body).to.include({ id: bookingId, status: 'cancelled' });
    const direct = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, nine, ten), token: bob });
    expect(direct.status).to.equal(409);
    const fulfilled = (await server.request('GET', `/booking/v1/waitlist/${first.id}`, { token: alice })).body;
    expect(fulfilled).to.include({ status: 'fulfilled', position: null });
    const promoted = (await server.request('GET', `/booking/v1/bookings/${fulfilled.bookingId}`, { token: alice })).body;
    expect(promoted).to.include({ bookerProfileId: 'alice', createdBy: 'system', status: 'confirmed', startTime: nine, endTime: ten });
    expect((await server.request('GET', `/booking/v1/waitlist/${second.id}`, { token: bob })).body).to.include({ status: 'waiting', position: 1 });
    // The promoted booking's cancel hands the slot to the next waiter.
    await server.request('PATCH', `/booking/v1/bookings/${fulfilled.bookingId}/cancel`, { body: {}, token: alice });
    expect((await server.request('GET', `/booking/v1/waitlist/${second.id}`, { token: bob })).body).to.include({ status: 'fulfilled' });
  });

  it('a bundle’s cancel and move promote the waiters of each resource they free, in the same request; a pool’s waiter asks for units', async () => {
    const room = await freshRoom();
    const kit = await freshRoom();
    const items = [{ resourceType: 'zone', resourceId: room.zoneId }, { resourceType: 'zone', resourceId: kit.zoneId }];
    const bundle = await server.request('POST', '/booking/v1/bundles', { body: { title: 'Board', startTime: nine, endTime: ten, items } });
    expect(bundle.status).to.equal(201);
    const onRoom = (await join(alice, bookingBody(room.zoneId, nine, ten))).body;
    const onKit = (await join(bob, bookingBody(kit.zoneId, '2027-01-05T09:30:00Z', ten))).body;
    const moved = await server.request('PATCH', `/booking/v1/bundles/${bundle.body.id}`, { body: { startTime: '2027-01-05T09:30:00Z', endTime: '2027-01-05T10:30:00Z' } });
    expect(moved.status).to.equal(200);
    // The move frees 09:00–09:30 only: neither waiter fits yet.
    expect((await server.request('GET', `/booking/v1/waitlist/${onRoom.id}`, { token: alice })).body).to.include({ status: 'waiting' });
    const cancelled = await server.request('PATCH', `/booking/v1/bundles/${bundle.body.id}/cancel`, { body: {} });
    expect(cancelled.status).to.equal(200);
    for (const [entry, token] of [[onRoom, alice], [onKit, bob]] as const) {
      expect((await server.request('GET', `/booking/v1/waitlist/${entry.id}`, { token })).body, 'bundle waiter').to.include({ status: 'fulfilled' });
    }
    const poolZone = `waitlist-pool-${++counter}`;
    await registerZone(server, poolZone, { units: 3 });
    const twoUnits = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(poolZone, nine, ten, { units: 2 }) });
    await server.request('POST', '/booking/v1/bookings', { body: bookingBody(poolZone, nine, ten) });
    const waiter = await join(alice, bookingBody(poolZone, nine, ten, { units: 2 }));
    expect(waiter.status, JSON.stringify(waiter.body)).to.equal(201);
    const freeing = await server.request('PATCH', `/booking/v1/bookings/${twoUnits.body.id}/cancel`, { body: {} });
    expect(freeing.status, JSON.stringify(freeing.body)).to.equal(200);
    const fulfilled = (await server.request('GET', `/booking/v1/waitlist/${waiter.body.id}`, { token: alice })).body;
    expect(fulfilled).to.include({ status: 'fulfilled', units: 2 });
    expect((await server.request('GET', `/booking/v1/bookings/${fulfilled.bookingId}`, { token: alice })).body).to.include({ units: 2 });
  });

  it('a cancel tries each waiter with the count of its own booker: one over maxBookingsPerUser is closed refused, the next fitting one promoted', async () => {
    const room = await freshRoom({ maxBookingsPerUser: 1 });
    const booked = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(room.zoneId, nine, ten) });
    const overLimit = (await join(alice, bookingBody(room.zoneId, nine, ten))).body;
    const held = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(room.zoneId, '2027-01-05T13:00:00Z', '2027-01-05T14:00:00Z'), token: alice });
    expect(held.status).to.equal(201);
    const fitting = (await join(bob, bookingBody(room.zoneId, '2027-01-05T09:30:00Z', ten))).body;
    const behind = (await join(carol, bookingBody(room.zoneId, nine, ten))).body;
    const cancelled = await server.request('PATCH', `/booking/v1/bookings/${booked.body.id}/cancel`, { body: {} });
    expect(cancelled.status).to.equal(200);
    expect((await server.request('GET', `/booking/v1/waitlist/${overLimit.id}`, { token: alice })).body).to.include({ status: 'refused', policy: 'maxBookingsPerUser' });
    const fulfilled = (await server.request('GET', `/booking/v1/waitlist/${fitting.id}`, { token: bob })).body;
    expect(fulfilled.status).to.equal('fulfilled');
    const promoted = (await server.request('GET', `/booking/v1/bookings/${fulfilled.bookingId}`, { token: bob })).body;
    expect(promoted).to.include({ bookerProfileId: 'bob', createdBy: 'system', startTime: '2027-01-05T09:30:00Z', endTime: ten });
    expect((await server.request('GET', `/booking/v1/waitlist/${behind.id}`, { token: carol })).body).to.include({ status: 'waiting', position: 1 });
  });

  it('each waiter is tried with its own window, buffers included, and its own quota usage', async () => {
    const room = await freshRoom({ bufferAfterMinutes: 30 });
    const quota = await server.request('POST', '/booking/v1/quotas', { body: { limit: 1, unit: 'bookings', per: 'day', resourceIds: [room.id] } });
    expect(quota.status).to.equal(201);
    const at = (hhmm: string) => `2027-01-05T${hhmm}:00Z`;
    const dave = server.token({ level: 'LV4', sub: 'dave', email: 'dave@example.com' });
    const booked = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(room.zoneId, nine, ten) });
    const overQuota = (await join(alice, bookingBody(room.zoneId, nine, ten))).body;
    expect((await server.request('POST', '/booking/v1/bookings', { body: bookingBody(room.zoneId, at('13:00'), at('14:00')), token: alice })).status).to.equal(201);
    expect((await server.request('POST', '/booking/v1/bookings', { body: bookingBody(room.zoneId, at('11:00'), at('11:30')), token: carol })).status).to.equal(201);
    // Its 30 minutes after would reach carol's booking at 11:00.
    const bufferedOut = (await join(bob, bookingBody(room.zoneId, at('09:30'), at('10:40')))).body;
    const fitting = (await join(dave, bookingBody(room.zoneId, nine, at('09:45')))).body;
    expect((await server.request('PATCH', `/booking/v1/bookings/${booked.body.id}/cancel`, { body: {} })).status).to.equal(200);
    expect((await server.request('GET', `/booking/v1/waitlist/${overQuota.id}`, { token: alice })).body).to.include({ status: 'refused', policy: 'quota' });
    expect((await server.request('GET', `/booking/v1/waitlist/${bufferedOut.id}`, { token: bob })).body).to.include({ status: 'waiting' });
    expect((await server.request('GET', `/booking/v1/waitlist/${fitting.id}`, { token: dave })).body).to.include({ status: 'fulfilled' });
    await server.request('DELETE', `/booking/v1/quotas/${quota.body.id}`);
  });

  it('a reschedule and a series cancel promote too; a waiter refused by a policy at promotion is closed refused', async () => {
    const { zoneId, bookingId } = await takenRoom();
    const waiting = (await join(alice, bookingBody(zoneId, nine, ten))).body;
    const moved = await server.request('PATCH', `/booking/v1/bookings/${bookingId}`, { body: { startTime: '2027-01-05T13:00:00Z', endTime: '2027-01-05T14:00:00Z' } });
    expect(moved.status).to.equal(200);
    expect(moved.body).to.include({ id: bookingId, startTime: '2027-01-05T13:00:00Z' });
    expect((await server.request('GET', `/booking/v1/waitlist/${waiting.id}`, { token: alice })).body.status).to.equal('fulfilled');

    const room = await freshRoom();
    const series = await server.request('POST', '/booking/v1/bookings/bulk', { body: { ...bookingBody(room.zoneId, nine, ten), recurrenceRule: 'FREQ=WEEKLY;COUNT=2' } });
    expect(series.status, JSON.stringify(series.body)).to.equal(201);
    const waiter = (await join(bob, bookingBody(room.zoneId, nine, ten))).body;
    const refused = (await join(alice, bookingBody(room.zoneId, '2027-01-12T09:00:00Z', ten.replace('05', '12')))).body;
    await server.request('PATCH', `/booking/v1/resources/${room.id}`, { body: { bookingPolicy: { maxAdvanceDays: 5 } } });
    const cancel = await server.request('PATCH', `/booking/v1/bookings/series/${series.body.parent.id}/cancel`, { body: {} });
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    expect((await server.request('GET', `/booking/v1/waitlist/${waiter.id}`, { token: bob })).body.status).to.equal('fulfilled');
    const closed = (await server.request('GET', `/booking/v1/waitlist/${refused.id}`, { token: alice })).body;
    expect(closed).to.include({ status: 'refused', policy: 'maxAdvanceDays', position: null });
  });
});
