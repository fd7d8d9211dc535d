import { expect } from 'chai';
import { completeBooking, expirePendingBooking, issueReminder, markNoShow } from '../../../src/commands/booking/system-moves.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

const bookingFields = [
  'id', 'bookableResourceId', 'isSeriesParent', 'resourceId', 'resourceType', 'workspace', 'bookerProfileId', 'bookerEmail', 'createdBy', 'title', 'startTime', 'endTime', 'bufferBeforeMinutes', 'bufferAfterMinutes', 'units', 'status',
  'recurrenceRule', 'recurrenceParentId', 'exceptionOf', 'bundleId', 'calendarUid', 'confirmedBy', 'confirmedAt', 'cancelledBy', 'cancelledAt', 'onBehalfOf', 'reason',
  'checkedInAt', 'checkedOutAt', 'createdAt', 'updatedAt', 'archivedAt',
];

// The service's clock stands at Monday 2027-01-04 08:00Z unless a test moves it.
const monday = '2027-01-04T08:00:00Z';

describe('single bookings over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let guest: string;
  let admin: string;
  let counter = 0;
  /** A zone of its own per test: no test sees another's bookings. */
  const freshZone = async (extra: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `zone-${counter}`;
    return { zoneId, id: await registerZone(server, zoneId, extra) };
  };
  const create = (zoneId: string, start: string, end: string, token = alice, extra: Record<string, unknown> = {}) =>
    server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end, extra), token });
  const patch = (id: string, action: string, token: string, body?: unknown) =>
    server.request('PATCH', `/booking/v1/bookings/${id}${action ? `/${action}` : ''}`, { token, body });

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
    guest = server.token({ level: 'LV5', sub: 'guest' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
  });
  beforeEach(() => setClock(server, monday));
  after(() => server.stop());

  describe('creating', () => {
    it('answers 201 with the whole record, which reads back the same', async () => {
      const { zoneId } = await freshZone();
      const res = await create(zoneId, '2027-01-05T10:00:00+01:00', '2027-01-05T10:30:00+01:00');
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body)).to.have.members(bookingFields);
      expect(res.body).to.include({
        isSeriesParent: false,
        resourceType: 'zone',
        resourceId: zoneId,
        workspace: server.workspace,
        bookerProfileId: 'alice',
        bookerEmail: 'alice@example.com',
        title: 'Sync',
        startTime: '2027-01-05T09:00:00Z',
        endTime: '2027-01-05T09:30:00Z',
        status: 'confirmed',
        createdAt: monday,
      });
      const read = await server.request('GET', `/booking/v1/bookings/${res.body.id}`, { token: alice });
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(res.body);
    });

    it('is pending where the resource wants approval', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { autoConfirm: false } });
      const res = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect(res.status).to.equal(201);
      expect(res.body.status).to.equal('pending');
    });

    it('refuses bad times with 400: no offset, end not after start, start in the past', async () => {
      const { zoneId } = await freshZone();
      const noOffset = await create(zoneId, '2027-01-05T09:00:00', '2027-01-05T10:00:00Z');
      expect(noOffset.status).to.equal(400);
      expect(noOffset.body.statusCode).to.equal(400);
      for (const [start, end] of [
        ['2027-01-05T10:00:00Z', '2027-01-05T10:00:00Z'],
        ['2027-01-05T10:00:00Z', '2027-01-05T09:00:00Z'],
        ['2027-01-04T07:00:00Z', '2027-01-04T09:00:00Z'],
      ]) {
        const res = await create(zoneId, start!, end!);
        expect(res.status, `${start} – ${end}`).to.equal(400);
        expect(res.body).to.have.property('message');
      }
      expect((await create(zoneId, '2027-01-04T07:00:00Z', '2027-01-04T09:00:00Z')).body.message).to.equal('startTime is in the past');
    });

    it('answers 404 for a zone that is not registered in the token’s workspace', async () => {
      const res = await create('zone-nowhere', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect(res.status).to.equal(404);
      const { zoneId } = await freshZone();
      const otherWorkspace = server.token({ level: 'LV2', sub: 'stranger', workspace: '99999999-9999-4999-8999-999999999999' });
      expect((await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', otherWorkspace)).status).to.equal(404);
    });

    it('refuses guests with 403, before telling whether the resource exists', async () => {
      expect((await create('zone-nowhere', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', guest)).status).to.equal(403);
    });

    it('conflicts answer 409 listing every overlapping booking in UTC; back-to-back is fine', async () => {
      const { zoneId } = await freshZone();
      const first = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      const second = await create(zoneId, '2027-01-05T10:30:00+00:00', '2027-01-05T12:30:00+01:00', bob);
      expect([first.status, second.status]).to.deep.equal([201, 201]);
      const backToBack = await create(zoneId, '2027-01-05T10:00:00Z', '2027-01-05T10:30:00Z');
      expect(backToBack.status).to.equal(201);
      const res = await create(zoneId, '2027-01-05T09:30:00Z', '2027-01-05T11:00:00Z', bob);
      expect(res.status).to.equal(409);
      expect(res.body.conflicts).to.deep.equal([
        { bookingId: first.body.id, startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z' },
        { bookingId: backToBack.body.id, startTime: '2027-01-05T10:00:00Z', endTime: '2027-01-05T10:30:00Z' },
        { bookingId: second.body.id, startTime: '2027-01-05T10:30:00Z', endTime: '2027-01-05T11:30:00Z' },
      ]);
      // A cancelled booking frees its slot.
      expect((await patch(first.body.id, 'cancel', alice)).status).to.equal(200);
      expect((await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', bob)).status).to.equal(201);
    });
  });

  describe('policies (422 with the policy’s name)', () => {
    const expectPolicy = (res: { status: number; body: any }, policy: string) => {
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body).to.include({ statusCode: 422, policy });
    };

    it('isActive', async () => {
      const { zoneId, id } = await freshZone();
      expect((await server.request('PATCH', `/booking/v1/resources/${id}`, { body: { isActive: false } })).status).to.equal(200);
      expectPolicy(await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z'), 'isActive');
    });

    it('availability, in the resource’s zone', async () => {
      const { zoneId } = await freshZone({ availability: { timeZone: 'Europe/Berlin', hours: { tuesday: [{ start: '08:00', end: '18:00' }] } } });
      expect((await create(zoneId, '2027-01-05T07:00:00Z', '2027-01-05T08:00:00Z')).status).to.equal(201);
      expectPolicy(await create(zoneId, '2027-01-05T06:30:00Z', '2027-01-05T07:00:00Z'), 'availability');
      expectPolicy(await create(zoneId, '2027-01-05T16:30:00Z', '2027-01-05T17:30:00Z'), 'availability');
      expectPolicy(await create(zoneId, '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z'), 'availability');
    });

    it('maxDurationMinutes', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { maxDurationMinutes: 60 } });
      expectPolicy(await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:01:00Z'), 'maxDurationMinutes');
    });

    it('maxAdvanceDays', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { maxAdvanceDays: 7 } });
      expectPolicy(await create(zoneId, '2027-01-11T08:01:00Z', '2027-01-11T09:00:00Z'), 'maxAdvanceDays');
      expect((await create(zoneId, '2027-01-11T08:00:00Z', '2027-01-11T09:00:00Z')).status).to.equal(201);
    });

    it('minNoticeMinutes', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { minNoticeMinutes: 60 } });
      expectPolicy(await create(zoneId, '2027-01-04T08:30:00Z', '2027-01-04T09:30:00Z'), 'minNoticeMinutes');
    });

    it('maxBookingsPerUser counts the user’s active bookings on that resource', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { maxBookingsPerUser: 2 } });
      const first = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect((await create(zoneId, '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z')).status).to.equal(201);
      expectPolicy(await create(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z'), 'maxBookingsPerUser');
      expect((await create(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z', bob)).status).to.equal(201);
      await patch(first.body.id, 'cancel', alice);
      expect((await create(zoneId, '2027-01-05T12:00:00Z', '2027-01-05T13:00:00Z')).status).to.equal(201);
    });

    it('cancellationPolicy binds LV4/LV5 on confirmed bookings, not admins', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { cancellationPolicy: { minNoticeMinutes: 120 } } });
      const soon = await create(zoneId, '2027-01-04T09:00:00Z', '2027-01-04T10:00:00Z');
      expectPolicy(await patch(soon.body.id, 'cancel', alice), 'cancellationPolicy');
      expect((await patch(soon.body.id, 'cancel', admin)).status).to.equal(200);
      const later = await create(zoneId, '2027-01-04T10:00:00Z', '2027-01-04T11:00:00Z');
      expect((await patch(later.body.id, 'cancel', alice)).status).to.equal(200);
    });

    it('a policy refusal comes before a conflict', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { maxDurationMinutes: 60 } });
      await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expectPolicy(await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T11:00:00Z', bob), 'maxDurationMinutes');
    });
  });

  describe('rescheduling', () => {
    it('moves a booking, excluding itself from the conflict check', async () => {
      const { zoneId } = await freshZone();
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      const res = await patch(booking.body.id, '', alice, { startTime: '2027-01-05T09:30:00Z', endTime: '2027-01-05T10:30:00Z', title: 'Later' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ startTime: '2027-01-05T09:30:00Z', endTime: '2027-01-05T10:30:00Z', title: 'Later', status: 'confirmed' });
    });

    it('answers 409 with the bookings in the way', async () => {
      const { zoneId } = await freshZone();
      const mine = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      const theirs = await create(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z', bob);
      const res = await patch(mine.body.id, '', alice, { endTime: '2027-01-05T11:30:00Z' });
      expect(res.status).to.equal(409);
      expect(res.body.conflicts).to.deep.equal([{ bookingId: theirs.body.id, startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z' }]);
    });

    it('returns a confirmed booking to pending where the resource wants approval', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { autoConfirm: false } });
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect((await patch(booking.body.id, 'confirm', admin)).body.status).to.equal('confirmed');
      const res = await patch(booking.body.id, '', alice, { startTime: '2027-01-05T08:00:00Z' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'pending', confirmedBy: null, startTime: '2027-01-05T08:00:00Z' });
    });

    it('refuses bad times (400), policy (422), guests (403) and other users (404)', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { maxDurationMinutes: 120 } });
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect((await patch(booking.body.id, '', alice, { endTime: '2027-01-05T09:00:00Z' })).status).to.equal(400);
      expect((await patch(booking.body.id, '', alice, { startTime: '2027-01-05T09:00:00' })).status).to.equal(400);
      expect((await patch(booking.body.id, '', alice, { startTime: '2027-01-03T09:00:00Z' })).status).to.equal(400);
      expect((await patch(booking.body.id, '', alice, { endTime: '2027-01-05T12:00:00Z' })).body.policy).to.equal('maxDurationMinutes');
      expect((await patch(booking.body.id, '', guest, { title: 'x' })).status).to.equal(403);
      expect((await patch(booking.body.id, '', bob, { title: 'x' })).status).to.equal(404);
      expect((await patch(booking.body.id, '', admin, { title: 'By admin' })).status).to.equal(200);
    });
  });

  describe('lifecycle moves', () => {
    it('confirm: LV1–LV3 only, pending only', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { autoConfirm: false } });
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect((await patch(booking.body.id, 'confirm', alice)).status).to.equal(403);
      const res = await patch(booking.body.id, 'confirm', admin);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'confirmed', confirmedBy: 'admin', confirmedAt: monday });
      const again = await patch(booking.body.id, 'confirm', admin);
      expect(again.status).to.equal(409);
      expect(again.body).to.include({ statusCode: 409, reason: 'invalid_transition' });
    });

    it('cancel: the booker or an admin, with a reason; twice is an invalid move', async () => {
      const { zoneId } = await freshZone();
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect((await patch(booking.body.id, 'cancel', bob, { reason: 'mine now' })).status).to.equal(404);
      const res = await patch(booking.body.id, 'cancel', alice, { reason: 'Moved online' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'cancelled', cancelledBy: 'alice', cancelledAt: monday, reason: 'Moved online' });
      const twice = await patch(booking.body.id, 'cancel', alice);
      expect(twice.status).to.equal(409);
      expect(twice.body.reason).to.equal('invalid_transition');
      const byAdmin = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', bob);
      const noBody = await patch(byAdmin.body.id, 'cancel', admin);
      expect(noBody.status).to.equal(200);
      expect(noBody.body).to.include({ cancelledBy: 'admin', reason: null });
    });

    it('check-in: from 15 minutes before the start until the end, once; checkout completes', async () => {
      const { zoneId } = await freshZone();
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      const id = booking.body.id as string;
      setClock(server, '2027-01-05T08:44:59Z');
      const early = await patch(id, 'checkin', alice);
      expect(early.status).to.equal(409);
      expect(early.body).to.include({ statusCode: 409, reason: 'outside_checkin_window' });
      setClock(server, '2027-01-05T08:45:00Z');
      const res = await patch(id, 'checkin', alice);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'confirmed', checkedInAt: '2027-01-05T08:45:00Z' });
      expect((await patch(id, 'checkin', alice)).body.reason).to.equal('invalid_transition');
      expect((await patch(id, '', alice, { title: 'Too late' })).body.reason).to.equal('invalid_transition');
      setClock(server, '2027-01-05T09:40:00Z');
      const out = await patch(id, 'checkout', alice);
      expect(out.status).to.equal(200);
      expect(out.body).to.include({ status: 'completed', checkedOutAt: '2027-01-05T09:40:00Z' });
    });

    it('check-in after the end is outside the window', async () => {
      const { zoneId } = await freshZone();
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      setClock(server, '2027-01-05T10:00:00Z');
      expect((await patch(booking.body.id, 'checkin', alice)).body.reason).to.equal('outside_checkin_window');
    });

    it('every move out of completed, cancelled and no_show, and the others the table lacks, is 409 invalid_transition', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { autoConfirm: false } });
      const at = (hour: number) => `2027-01-05T${String(hour).padStart(2, '0')}:00:00Z`;
      const pending = (await create(zoneId, at(9), at(10))).body.id as string;
      const cancelled = (await create(zoneId, at(10), at(11))).body.id as string;
      await patch(cancelled, 'cancel', alice);
      const completed = (await create(zoneId, at(11), at(12))).body.id as string;
      await patch(completed, 'confirm', admin);
      await patch(completed, 'checkout', alice);
      const noShow = (await create(zoneId, at(12), at(13))).body.id as string;
      await patch(noShow, 'confirm', admin);
      setClock(server, '2027-01-05T12:15:00Z');
      await markNoShow(server.services, noShow);
      expect((await server.request('GET', `/booking/v1/bookings/${noShow}`, { token: alice })).body.status).to.equal('no_show');

      const refused: [string, string, unknown?][] = [
        [pending, 'checkin'],
        [pending, 'checkout'],
        ...[cancelled, completed, noShow].flatMap((id): [string, string, unknown?][] => [
          [id, 'confirm'],
          [id, 'cancel'],
          [id, 'checkin'],
          [id, 'checkout'],
          [id, '', { title: 'x' }],
        ]),
      ];
      for (const [id, action, body] of refused) {
        const res = await patch(id, action, admin, body);
        expect(res.status, `${action || 'reschedule'} of ${id}`).to.equal(409);
        expect(res.body.reason).to.equal('invalid_transition');
      }
    });
  });

  describe('system moves of the timer worker', () => {
    it('expire a pending booking at its start; a second firing changes nothing', async () => {
      const { zoneId } = await freshZone({ bookingPolicy: { autoConfirm: false } });
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      setClock(server, '2027-01-05T08:59:00Z');
      await expirePendingBooking(server.services, booking.body.id);
      expect((await server.request('GET', `/booking/v1/bookings/${booking.body.id}`)).body.status).to.equal('pending');
      setClock(server, '2027-01-05T09:00:00Z');
      await expirePendingBooking(server.services, booking.body.id);
      await expirePendingBooking(server.services, booking.body.id);
      const read = await server.request('GET', `/booking/v1/bookings/${booking.body.id}`);
      expect(read.body).to.include({ status: 'cancelled', cancelledBy: 'system', reason: 'not confirmed before start' });
      expect(await eventCount(booking.body.id)).to.equal(2);
    });

    it('complete a confirmed booking at its end, once', async () => {
      const { zoneId } = await freshZone();
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      setClock(server, '2027-01-05T10:00:00Z');
      await completeBooking(server.services, booking.body.id);
      await completeBooking(server.services, booking.body.id);
      expect((await server.request('GET', `/booking/v1/bookings/${booking.body.id}`)).body.status).to.equal('completed');
      expect(await eventCount(booking.body.id)).to.equal(2);
    });

    it('a reminder is issued once per start time', async () => {
      const { zoneId } = await freshZone();
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      setClock(server, '2027-01-05T08:45:00Z');
      await issueReminder(server.services, booking.body.id);
      await issueReminder(server.services, booking.body.id);
      expect(await eventCount(booking.body.id, 'BookingReminderIssued')).to.equal(1);
      await markNoShow(server.services, booking.body.id);
      await markNoShow(server.services, 'aaaaaaaa-0000-4000-8000-000000000000');
      expect(await eventCount(booking.body.id)).to.equal(2);
    });

    const eventCount = async (bookingId: string, type?: string) => {
      const rows = await server.database.db
        .selectFrom('events')
        .select(['event_type', 'data'])
        .where('stream_id', 'like', 'resource-%')
        .$if(type !== undefined, (q) => q.where('event_type', '=', type!))
        .execute();
      return rows.filter((r) => (r.data as { booking?: { id: string } }).booking?.id === bookingId).length;
    };
  });

  describe('reading', () => {
    it('LV4/LV5 get 404 for other users’ bookings; admins of another workspace too', async () => {
      const { zoneId } = await freshZone();
      const booking = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      const path = `/booking/v1/bookings/${booking.body.id}`;
      expect((await server.request('GET', path, { token: bob })).status).to.equal(404);
      expect((await server.request('GET', path, { token: guest })).status).to.equal(404);
      expect((await server.request('GET', path, { token: admin })).status).to.equal(200);
      expect((await server.request('GET', path, { token: server.token({ level: 'LV2', workspace: '99999999-9999-4999-8999-999999999999' }) })).status).to.equal(404);
      expect((await server.request('GET', path, { token: server.token({ level: 'LV1', workspace: null }) })).status).to.equal(200);
      expect((await server.request('GET', '/booking/v1/bookings/aaaaaaaa-0000-4000-8000-000000000000', { token: admin })).status).to.equal(404);
    });

    it('lists: LV4 only its own whatever the filter; admins all; filters, paging, defaults', async () => {
      const { zoneId } = await freshZone();
      for (let day = 10; day < 15; day++) await create(zoneId, `2027-01-${day}T09:00:00Z`, `2027-01-${day}T10:00:00Z`);
      await create(zoneId, '2027-01-15T09:00:00Z', '2027-01-15T10:00:00Z', bob);
      const list = (query: string, token = admin) => server.request('GET', `/booking/v1/bookings?resourceId=${zoneId}&${query}`, { token });

      const all = await list('');
      expect(all.status).to.equal(200);
      expect(all.body).to.include({ count: 6, total: 6, page: 1, pageCount: 1 });
      expect(all.body.data.map((b: any) => b.startTime)).to.deep.equal([10, 11, 12, 13, 14, 15].map((d) => `2027-01-${d}T09:00:00Z`));

      const bobs = await list('bookerProfileId=alice', bob);
      expect(bobs.body.total).to.equal(1);
      expect(bobs.body.data[0].bookerProfileId).to.equal('bob');
      expect((await list('', guest)).body.total).to.equal(0);

      const page = await list('limit=2&page=2');
      expect(page.body).to.include({ count: 2, total: 6, page: 2, pageCount: 3 });
      expect(page.body.data[0].startTime).to.equal('2027-01-12T09:00:00Z');
      expect((await list('from=2027-01-12T09:30:00%2B00:00&to=2027-01-14T09:00:00Z')).body.total).to.equal(2);
      expect((await list('status=cancelled')).body.total).to.equal(0);
      expect((await list('limit=101')).status).to.equal(400);
      expect((await list('workspace=99999999-9999-4999-8999-999999999999')).status).to.equal(400);
      const defaults = await server.request('GET', '/booking/v1/bookings', { token: admin });
      expect(defaults.body.page).to.equal(1);
      expect(defaults.body.count).to.be.at.most(20);
    });
  });

  describe('removing a resource', () => {
    it('cancels its bookings that have not started, with reason "resource removed"', async () => {
      const { zoneId, id } = await freshZone();
      const running = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      const upcoming = await create(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z', bob);
      setClock(server, '2027-01-05T09:30:00Z');
      expect((await server.request('DELETE', `/booking/v1/resources/${id}`, { token: admin })).status).to.equal(204);
      const read = (bookingId: string) => server.request('GET', `/booking/v1/bookings/${bookingId}`, { token: admin });
      expect((await read(upcoming.body.id)).body).to.include({ status: 'cancelled', reason: 'resource removed', cancelledBy: 'admin' });
      expect((await read(running.body.id)).body.status).to.equal('confirmed');
      expect((await create(zoneId, '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z')).status).to.equal(404);
    });

    it('a zone registered again takes bookings on its new resource', async () => {
      const { zoneId, id } = await freshZone();
      expect((await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z')).status).to.equal(201);
      expect((await server.request('DELETE', `/booking/v1/resources/${id}`, { token: admin })).status).to.equal(204);
      const again = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: zoneId }, token: admin });
      expect(again.status).to.equal(201);
      const res = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect(res.status).to.equal(201);
      const schedule = await server.request('GET', `/booking/v1/resources/${again.body.id}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-06T00:00:00Z`, { token: admin });
      expect(schedule.body.bookings.map((b: any) => b.id)).to.deep.equal([res.body.id]);
    });
  });
});
