import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { toEventEnvelope } from '../../../src/domain/event-envelope.js';
import { seedZone } from '../../support/device-records.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

// Contract §24. The service's clock stands at Monday 2027-01-04 08:00Z.
const monday = '2027-01-04T08:00:00Z';

describe('approvers, delegations and deadlines over HTTP (contract §24)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let alice: string;
  let carol: string;
  let dave: string;
  let erin: string;
  let counter = 0;
  const freshRoom = async (bookingPolicy: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `approval-room-${counter}`;
    return { zoneId, id: await registerZone(server, zoneId, { bookingPolicy: { autoConfirm: false, approvers: ['carol'], ...bookingPolicy } }) };
  };
  const book = async (zoneId: string, start = '2027-01-05T09:00:00Z', end = '2027-01-05T10:00:00Z') => {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end), token: alice });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.status).to.equal('pending');
    return res.body.id as string;
  };
  const eventOf = async (type: string, bookingId: string) => {
    const rows = await server.database.db.selectFrom('events').selectAll().where('event_type', '=', type).execute();
    const row = rows.find((r) => (r.data.booking as { id: string }).id === bookingId)!;
    return toEventEnvelope({ id: row.event_id, globalPosition: row.global_position, type: row.event_type, data: row.data })!;
  };
  const delegate = (token: string, body: Record<string, unknown>) => server.request('POST', '/booking/v1/approval-delegations', { body, token });
  const delegationCount = async () => (await server.database.db.selectFrom('approval_delegations').select('id').execute()).length;

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    carol = server.token({ level: 'LV4', sub: 'carol', email: 'carol@example.com' });
    dave = server.token({ level: 'LV5', sub: 'dave', email: 'dave@example.com' });
    erin = server.token({ level: 'LV4', sub: 'erin', email: 'erin@example.com' });
  });
  beforeEach(() => setClock(server, monday));
  after(() => server.stop());

  it('refuses approvers that are not a list of strings, and negative minutes (400), on registration and PATCH', async () => {
    for (const bookingPolicy of [{ approvers: 'carol' }, { approvers: [1] }, { approvers: [''] }, { approvalDeadlineMinutes: -1 }, { approvalReminderMinutes: -5 }, { approvalDeadlineMinutes: 1.5 }]) {
      const res = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: `bad-${counter++}`, bookingPolicy } });
      expect(res.status, JSON.stringify(bookingPolicy)).to.equal(400);
    }
    const { id } = await freshRoom();
    const patched = await server.request('PATCH', `/booking/v1/resources/${id}`, { body: { bookingPolicy: { approvalReminderMinutes: -1 } } });
    expect(patched.status).to.equal(400);
    const read = await server.request('GET', `/booking/v1/resources/${id}`);
    expect(read.body.bookingPolicy).to.include({ approvalDeadlineMinutes: null, approvalReminderMinutes: null });
    expect(read.body.bookingPolicy.approvers).to.deep.equal(['carol']);
  });

  it('an approver (LV4) confirms and declines the pending bookings of its resource and nothing else; booking.create names the approvers', async () => {
    const { zoneId } = await freshRoom();
    const first = await book(zoneId);
    expect((await eventOf('BookingCreated', first)).data.approvers).to.deep.equal(['carol']);
    const confirmed = await server.request('PATCH', `/booking/v1/bookings/${first}/confirm`, { token: carol });
    expect(confirmed.status).to.equal(200);
    expect(confirmed.body).to.include({ status: 'confirmed', confirmedBy: 'carol' });
    // A confirmed booking is no longer the approver's to decline: it was decided already.
    const late = await server.request('PATCH', `/booking/v1/bookings/${first}/cancel`, { token: carol, body: {} });
    expect(late.status).to.equal(409);
    expect(late.body.reason).to.equal('invalid_transition');
    expect((await server.request('GET', `/booking/v1/bookings/${first}`)).body.status).to.equal('confirmed');
    const second = await book(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z');
    const declined = await server.request('PATCH', `/booking/v1/bookings/${second}/cancel`, { token: carol, body: { reason: 'room is needed' } });
    expect(declined.status).to.equal(200);
    expect(declined.body).to.include({ status: 'cancelled', cancelledBy: 'carol', reason: 'room is needed' });
  });

  it('a pending series names the approvers on each occurrence, not on its parent', async () => {
    const { zoneId } = await freshRoom();
    const body = { ...bookingBody(zoneId, '2027-01-11T09:00:00Z', '2027-01-11T10:00:00Z'), recurrenceRule: 'FREQ=WEEKLY;COUNT=2' };
    const res = await server.request('POST', '/booking/v1/bookings/bulk', { body, token: alice });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect((await eventOf('BookingCreated', res.body.parent.id)).data).not.to.have.property('approvers');
    for (const occurrence of res.body.occurrences) expect((await eventOf('BookingCreated', occurrence.id)).data.approvers).to.deep.equal(['carol']);
  });

  it('an approver deciding outside its resources → 403, nothing changed', async () => {
    const { zoneId } = await freshRoom({ approvers: ['someone-else'] });
    const id = await book(zoneId);
    expect((await server.request('PATCH', `/booking/v1/bookings/${id}/confirm`, { token: carol })).status).to.equal(403);
    expect((await server.request('GET', `/booking/v1/bookings/${id}`)).body.status).to.equal('pending');
  });

  it('GET /approvals: the pending bookings the caller may decide, oldest first, in the envelope', async () => {
    const mine = await freshRoom({ approvers: ['approver-x'] });
    const other = await freshRoom({ approvers: ['approver-y'] });
    // Made first, though it starts later: oldest first is by creation.
    const older = await book(mine.zoneId, '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z');
    setClock(server, '2027-01-04T08:01:00Z');
    await book(other.zoneId);
    setClock(server, '2027-01-04T08:02:00Z');
    const newer = await book(mine.zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
    const x = server.token({ level: 'LV4', sub: 'approver-x' });
    const res = await server.request('GET', '/booking/v1/approvals?limit=10', { token: x });
    expect(res.status).to.equal(200);
    expect(res.body.data.map((b: { id: string }) => b.id)).to.deep.equal([older, newer]);
    expect(res.body).to.include({ count: 2, total: 2, page: 1, pageCount: 1 });
    expect((await server.request('GET', '/booking/v1/approvals', { token: erin })).body.data).to.deep.equal([]);
  });

  it('delegations: refusals store nothing; a delegate decides inside the window onBehalfOf the approver; DELETE ends it', async () => {
    const { zoneId } = await freshRoom();
    const before = await delegationCount();
    expect((await delegate(carol, { delegateProfileId: 'dave', from: '2027-01-04T00:00:00Z', to: '2027-01-04T00:00:00Z' })).status).to.equal(400);
    expect((await delegate(erin, { delegateProfileId: 'dave', from: '2027-01-04T00:00:00Z', to: '2027-01-09T00:00:00Z' })).status).to.equal(403);
    expect((await delegate(carol, { delegateProfileId: 42, from: '2027-01-04T00:00:00Z', to: '2027-01-09T00:00:00Z' })).status).to.equal(400);
    expect(await delegationCount()).to.equal(before);

    const created = await delegate(carol, { delegateProfileId: 'dave', from: '2027-01-04T00:00:00Z', to: '2027-01-09T00:00:00Z' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ approverProfileId: 'carol', delegateProfileId: 'dave', from: '2027-01-04T00:00:00Z', to: '2027-01-09T00:00:00Z' });
    // A delegate cannot delegate further.
    expect((await delegate(dave, { delegateProfileId: 'erin', from: '2027-01-04T00:00:00Z', to: '2027-01-09T00:00:00Z' })).status).to.equal(403);
    expect(await delegationCount()).to.equal(before + 1);

    const id = await book(zoneId);
    expect((await eventOf('BookingCreated', id)).data.approvers).to.deep.equal(['carol', 'dave']);
    expect((await server.request('GET', '/booking/v1/approvals', { token: dave })).body.data.map((b: { id: string }) => b.id)).to.include(id);
    const confirmed = await server.request('PATCH', `/booking/v1/bookings/${id}/confirm`, { token: dave });
    expect(confirmed.status).to.equal(200);
    expect(confirmed.body).to.include({ confirmedBy: 'dave' });
    expect((await eventOf('BookingConfirmed', id)).data).to.include({ confirmedBy: 'dave', onBehalfOf: 'carol' });

    for (const token of [carol, dave]) {
      const listed = await server.request('GET', '/booking/v1/approval-delegations', { token });
      expect(listed.body.data.map((d: { id: string }) => d.id)).to.include(created.body.id);
    }
    expect((await server.request('GET', '/booking/v1/approval-delegations', { token: erin })).body.data).to.deep.equal([]);
    expect((await server.request('DELETE', `/booking/v1/approval-delegations/${created.body.id}`, { token: erin })).status).to.equal(404);
    expect((await server.request('DELETE', `/booking/v1/approval-delegations/${created.body.id}`, { token: carol })).status).to.equal(204);
    const later = await book(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z');
    expect((await server.request('PATCH', `/booking/v1/bookings/${later}/confirm`, { token: dave })).status).to.equal(403);
  });

  describe('the record names the approver a delegate acted for (contract §24, onBehalfOf)', () => {
    let delegationId: string;
    beforeEach(async () => {
      const created = await delegate(carol, { delegateProfileId: 'dave', from: '2027-01-04T00:00:00Z', to: '2027-01-09T00:00:00Z' });
      expect(created.status).to.equal(201);
      delegationId = created.body.id;
    });
    afterEach(async () => {
      await server.request('DELETE', `/booking/v1/approval-delegations/${delegationId}`, { token: carol });
    });
    const read = async (id: string) => (await server.request('GET', `/booking/v1/bookings/${id}`)).body;

    it('a delegate confirms or declines: the answer, the read record and the schedule carry onBehalfOf; the approver\'s own decision carries null', async () => {
      const { zoneId, id: resourceId } = await freshRoom();
      const byDelegate = await book(zoneId);
      expect((await read(byDelegate)).onBehalfOf).to.equal(null);
      const confirmed = await server.request('PATCH', `/booking/v1/bookings/${byDelegate}/confirm`, { token: dave });
      expect(confirmed.status).to.equal(200);
      expect(confirmed.body).to.include({ confirmedBy: 'dave', onBehalfOf: 'carol' });
      expect(await read(byDelegate)).to.include({ status: 'confirmed', confirmedBy: 'dave', onBehalfOf: 'carol' });
      const schedule = await server.request('GET', `/booking/v1/resources/${resourceId}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-06T00:00:00Z`);
      expect(schedule.status, JSON.stringify(schedule.body)).to.equal(200);
      expect(schedule.body.bookings.find((b: { id: string }) => b.id === byDelegate)).to.include({ onBehalfOf: 'carol' });

      const declinedByDelegate = await book(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z');
      const declined = await server.request('PATCH', `/booking/v1/bookings/${declinedByDelegate}/cancel`, { token: dave, body: { reason: 'no' } });
      expect(declined.status).to.equal(200);
      expect(await read(declinedByDelegate)).to.include({ status: 'cancelled', cancelledBy: 'dave', onBehalfOf: 'carol' });
      expect((await eventOf('BookingCancelled', declinedByDelegate)).data).to.include({ cancelledBy: 'dave', onBehalfOf: 'carol' });

      const byApprover = await book(zoneId, '2027-01-05T13:00:00Z', '2027-01-05T14:00:00Z');
      expect((await server.request('PATCH', `/booking/v1/bookings/${byApprover}/confirm`, { token: carol })).body).to.include({ confirmedBy: 'carol', onBehalfOf: null });
      expect((await read(byApprover)).onBehalfOf).to.equal(null);
    });

    it('the last decision names it: the booker cancelling what a delegate confirmed leaves null', async () => {
      const { zoneId } = await freshRoom();
      const id = await book(zoneId);
      expect((await server.request('PATCH', `/booking/v1/bookings/${id}/confirm`, { token: dave })).status).to.equal(200);
      const cancelled = await server.request('PATCH', `/booking/v1/bookings/${id}/cancel`, { token: alice, body: {} });
      expect(cancelled.status).to.equal(200);
      expect(await read(id)).to.include({ status: 'cancelled', cancelledBy: 'alice', confirmedBy: 'dave', onBehalfOf: null });
    });

    it('a decision on a booking no longer pending: 409 invalid_transition to the delegate, the approver and LV3 alike, nothing changed', async () => {
      const { zoneId } = await freshRoom();
      const lv3 = server.token({ level: 'LV3', sub: 'gina' });
      const confirmedFirst = await book(zoneId);
      expect((await server.request('PATCH', `/booking/v1/bookings/${confirmedFirst}/confirm`, { token: carol })).status).to.equal(200);
      const declinedFirst = await book(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z');
      expect((await server.request('PATCH', `/booking/v1/bookings/${declinedFirst}/cancel`, { token: carol, body: {} })).status).to.equal(200);
      const moves = [
        ...[dave, carol, lv3].map((token) => ({ token, move: 'confirm', body: undefined })),
        ...[dave, carol].map((token) => ({ token, move: 'cancel', body: { reason: 'too late' } })),
      ];
      for (const id of [confirmedFirst, declinedFirst]) {
        const before = await read(id);
        for (const { token, move, body } of moves) {
          const res = await server.request('PATCH', `/booking/v1/bookings/${id}/${move}`, { token, body });
          expect(res.status, `${move} of a ${before.status} booking: ${JSON.stringify(res.body)}`).to.equal(409);
          expect(res.body.reason).to.equal('invalid_transition');
        }
        expect(await read(id)).to.deep.equal(before);
      }
    });
  });

  it('a booking of another workspace answers 404 to every move, even to an approver its resource names', async () => {
    const other = randomUUID();
    const otherAdmin = server.token({ level: 'LV2', sub: 'other-admin', workspace: other });
    await seedZone(server.database.db, other, 'approval-room-elsewhere');
    const registered = await server.request('POST', '/booking/v1/resources', {
      token: otherAdmin,
      body: { resourceType: 'zone', resourceId: 'approval-room-elsewhere', bookingPolicy: { autoConfirm: false, approvers: ['carol', 'erin'] } },
    });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
    const booker = server.token({ level: 'LV4', sub: 'alice', workspace: other });
    const pending = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('approval-room-elsewhere', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z'), token: booker });
    expect(pending.status, JSON.stringify(pending.body)).to.equal(201);
    const id = pending.body.id as string;
    const lv3 = server.token({ level: 'LV3', sub: 'gina' });
    for (const token of [carol, erin, dave, lv3]) {
      for (const [move, body] of [['confirm', undefined], ['cancel', { reason: 'no' }], ['checkin', undefined]] as const) {
        const res = await server.request('PATCH', `/booking/v1/bookings/${id}/${move}`, { token, body });
        expect(res.status, `${move}: ${JSON.stringify(res.body)}`).to.equal(404);
      }
    }
    expect((await server.request('GET', `/booking/v1/bookings/${id}`, { token: otherAdmin })).body.status).to.equal('pending');
  });

  it('a from or to that is no instant (an impossible date, year zero, an offset beyond ±24 h) → 400 naming the field, nothing stored', async () => {
    await freshRoom();
    const before = await delegationCount();
    for (const bad of ['2026-02-30T10:00:00Z', '0000-00-00T00:00:00Z', '2027-01-05T10:00:00+25:00']) {
      for (const field of ['from', 'to'] as const) {
        const body = { delegateProfileId: 'dave', from: '2027-01-04T00:00:00Z', to: '2027-01-09T00:00:00Z', [field]: bad };
        const res = await delegate(carol, body);
        expect(res.status, `${field} = ${bad}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(JSON.stringify(res.body), `${field} = ${bad}`).to.include(`/body/${field}`);
      }
    }
    expect(await delegationCount()).to.equal(before);
  });

  it('outside its window a delegation gives no right', async () => {
    const { zoneId } = await freshRoom();
    const created = await delegate(carol, { delegateProfileId: 'dave', from: '2027-01-06T00:00:00Z', to: '2027-01-07T00:00:00Z' });
    expect(created.status).to.equal(201);
    const id = await book(zoneId);
    expect((await server.request('PATCH', `/booking/v1/bookings/${id}/confirm`, { token: dave })).status).to.equal(403);
    await server.request('DELETE', `/booking/v1/approval-delegations/${created.body.id}`, { token: carol });
  });

  it('approvalDeadlineMinutes: the expiry timer is due that many minutes before the start', async () => {
    const room = await freshRoom({ approvalDeadlineMinutes: 120 });
    const { zoneId } = room;
    const id = await book(zoneId);
    const timer = await server.database.db.selectFrom('timers').selectAll().where('booking_id', '=', id).where('kind', '=', 'expire_pending').executeTakeFirstOrThrow();
    expect(timer.due_at.toISOString()).to.equal('2027-01-05T07:00:00.000Z');
    // A new deadline moves the timers of the pending bookings.
    const patched = await server.request('PATCH', `/booking/v1/resources/${room.id}`, { body: { bookingPolicy: { approvalDeadlineMinutes: 30 } } });
    expect(patched.status).to.equal(200);
    const moved = await server.database.db.selectFrom('timers').selectAll().where('booking_id', '=', id).where('kind', '=', 'expire_pending').executeTakeFirstOrThrow();
    expect(moved.due_at.toISOString()).to.equal('2027-01-05T08:30:00.000Z');
  });
});
