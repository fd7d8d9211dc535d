import { expect } from 'chai';
import { createServices, type RunningServices } from '../../../src/create-services.js';
import { createLogger } from '../../../src/infra/logger.js';
import { claimDueTimers } from '../../../src/workers/timer/claim-due-timers.js';
import { fireDueTimers } from '../../../src/workers/timer/fire-due-timers.js';
import { startWorkers } from '../../../src/workers/start-workers.js';
import { bookingBody, registerZone, setClock } from '../../api/booking/booking-api.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingEventsOf, bookingEventTypesOf, fastWorkerOptions, timersOf, waitFor } from '../worker-test-kit.js';

const firing = { batchSize: 100, leaseMs: 60_000, retryMs: 1_000 };

describe('timers: reminder, no-show, completion and pending expiry', () => {
  let server: TestServer;
  let day = 0;
  /** Each test books on a day of its own, so that moving the clock never reaches back. */
  let date: string;
  const at = (time: string) => setClock(server, `${date}T${time}Z`);
  const fire = () => fireDueTimers(server.services, firing);
  const typesOf = (id: string) => bookingEventTypesOf(server.services, id);
  const statusOf = async (id: string) => (await server.request('GET', `/booking/v1/bookings/${id}`)).body.status as string;

  async function book(zoneId: string, start = '09:00', end = '10:00'): Promise<string> {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, `${date}T${start}:00Z`, `${date}T${end}:00Z`) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  }

  before(async () => {
    server = await startTestServer();
    await registerZone(server, 'zone-timers');
    await registerZone(server, 'zone-approval', { bookingPolicy: { autoConfirm: false } });
  });
  after(() => server.stop());
  beforeEach(() => {
    day += 1;
    date = `2030-01-${String(day).padStart(2, '0')}`;
    at('08:00:00');
  });

  it('emits booking.reminder REMINDER_MINUTES before the start, once', async () => {
    const id = await book('zone-timers');
    at('08:44:59');
    await fire();
    expect(await typesOf(id)).to.deep.equal(['BookingCreated']);
    at('08:45:00');
    await fire();
    at('08:50:00');
    await fire();
    expect(await typesOf(id)).to.deep.equal(['BookingCreated', 'BookingReminderIssued']);
    expect((await timersOf(server.services.db, id)).map((t) => t.kind)).to.not.include('reminder');
  });

  it('marks a confirmed booking without check-in no_show gracePeriodMinutes after the start, once', async () => {
    const id = await book('zone-timers');
    at('09:14:59');
    await fire();
    expect(await statusOf(id)).to.equal('confirmed');
    at('09:15:00');
    await fire();
    expect(await statusOf(id)).to.equal('no_show');
    at('10:30:00');
    await fire();
    const noShows = (await bookingEventsOf(server.services, id)).filter((e) => e.type === 'BookingMarkedNoShow');
    expect(noShows).to.have.length(1);
    expect(noShows[0]!.data).to.include({ gracePeriodExpiredAt: `${date}T09:15:00Z`, by: 'system' });
    expect(await timersOf(server.services.db, id)).to.deep.equal([]);
  });

  it('completes a checked-in booking at its end, once, and never marks it no_show', async () => {
    const id = await book('zone-timers');
    at('08:50:00');
    expect((await server.request('PATCH', `/booking/v1/bookings/${id}/checkin`)).status).to.equal(200);
    expect((await timersOf(server.services.db, id)).map((t) => t.kind)).to.deep.equal(['complete']);
    at('09:59:59');
    await fire();
    expect(await statusOf(id)).to.equal('confirmed');
    at('10:00:00');
    await fire();
    at('10:05:00');
    await fire();
    expect(await statusOf(id)).to.equal('completed');
    expect(await typesOf(id)).to.deep.equal(['BookingCreated', 'BookingCheckedIn', 'BookingCompleted']);
  });

  it('cancels a booking still pending at its start (by system, reason "not confirmed before start")', async () => {
    const id = await book('zone-approval');
    expect(await statusOf(id)).to.equal('pending');
    at('08:59:59');
    await fire();
    expect(await statusOf(id)).to.equal('pending');
    at('09:00:00');
    await fire();
    const read = await server.request('GET', `/booking/v1/bookings/${id}`);
    expect(read.body).to.include({ status: 'cancelled', cancelledBy: 'system', reason: 'not confirmed before start' });
    expect(await timersOf(server.services.db, id)).to.deep.equal([]);
  });

  it('drops the expiry on confirmation and plans the no-show instead', async () => {
    const id = await book('zone-approval');
    expect((await timersOf(server.services.db, id)).map((t) => t.kind)).to.deep.equal(['expire_pending', 'reminder']);
    at('08:10:00');
    expect((await server.request('PATCH', `/booking/v1/bookings/${id}/confirm`)).status).to.equal(200);
    expect(await timersOf(server.services.db, id)).to.deep.equal([
      { kind: 'no_show', dueAt: `${date}T09:15:00.000Z` },
      { kind: 'reminder', dueAt: `${date}T09:00:00.000Z` },
    ]);
    at('09:00:00');
    await fire();
    expect(await statusOf(id)).to.equal('confirmed');
  });

  it('moves the timers with a reschedule', async () => {
    const id = await book('zone-timers');
    at('08:30:00');
    const moved = await server.request('PATCH', `/booking/v1/bookings/${id}`, { body: { startTime: `${date}T11:00:00Z`, endTime: `${date}T12:00:00Z` } });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    at('09:20:00');
    await fire();
    expect(await typesOf(id)).to.deep.equal(['BookingCreated', 'BookingRescheduled']);
    at('10:45:00');
    await fire();
    at('11:15:00');
    await fire();
    expect(await typesOf(id)).to.deep.equal(['BookingCreated', 'BookingRescheduled', 'BookingReminderIssued', 'BookingMarkedNoShow']);
  });

  it('moves the no-show timers when the grace period of the resource changes', async () => {
    const resourceId = await registerZone(server, `zone-grace-${day}`);
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(`zone-grace-${day}`, `${date}T09:00:00Z`, `${date}T10:00:00Z`) });
    const patched = await server.request('PATCH', `/booking/v1/resources/${resourceId}`, { body: { bookingPolicy: { gracePeriodMinutes: 30 } } });
    expect(patched.status).to.equal(200);
    expect(await timersOf(server.services.db, res.body.id)).to.deep.include({ kind: 'no_show', dueAt: `${date}T09:30:00.000Z` });
    at('09:15:00');
    await fire();
    expect(await statusOf(res.body.id)).to.equal('confirmed');
    at('09:30:00');
    await fire();
    expect(await statusOf(res.body.id)).to.equal('no_show');
  });

  it('drops every timer of a cancelled booking', async () => {
    const id = await book('zone-timers');
    expect(await timersOf(server.services.db, id)).to.have.length(2);
    expect((await server.request('PATCH', `/booking/v1/bookings/${id}/cancel`, { body: {} })).status).to.equal(200);
    expect(await timersOf(server.services.db, id)).to.deep.equal([]);
    at('12:00:00');
    await fire();
    expect(await typesOf(id)).to.deep.equal(['BookingCreated', 'BookingCancelled']);
  });

  it('keeps a claimed timer from other workers until its lease ends, then fires it once', async () => {
    const id = await book('zone-timers');
    at('09:15:00');
    const claimOptions = { now: new Date(`${date}T09:15:00Z`), wallNow: new Date(), leaseMs: 150, reminderMinutes: 15, limit: 100 };
    const crashed = await claimDueTimers(server.services.db, claimOptions);
    expect(crashed.filter((t) => t.booking_id === id).map((t) => t.kind).sort()).to.deep.equal(['no_show', 'reminder']);
    await fire();
    expect(await statusOf(id)).to.equal('confirmed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await fire();
    await fire();
    expect(await typesOf(id)).to.deep.equal(['BookingCreated', 'BookingMarkedNoShow']);
  });

  it('fires at the right time from the running worker, and late timers at once after a restart', async () => {
    const id = await book('zone-timers');
    let workers = startWorkers(server.services, fastWorkerOptions);
    try {
      at('08:44:00');
      workers.wake();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await typesOf(id)).to.deep.equal(['BookingCreated']);
      await workers.stop();
      // Down while the reminder fell due: it goes out as soon as the worker is back.
      at('08:50:00');
      workers = startWorkers(server.services, fastWorkerOptions);
      await waitFor(async () => (await typesOf(id)).includes('BookingReminderIssued'), { what: 'the late reminder' });
      await workers.stop();
      at('09:40:00');
      workers = startWorkers(server.services, fastWorkerOptions);
      await waitFor(async () => (await statusOf(id)) === 'no_show', { what: 'the late no-show' });
      await workers.stop();
      workers = startWorkers(server.services, fastWorkerOptions);
      at('11:00:00');
      workers.wake();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await typesOf(id)).to.deep.equal(['BookingCreated', 'BookingReminderIssued', 'BookingMarkedNoShow']);
    } finally {
      await workers.stop();
    }
  });

  describe('two workers (PostgreSQL only: several connections)', () => {
    let other: RunningServices | undefined;
    before(async function () {
      if (!server.database.isServer) this.skip(); // needs several connections: PostgreSQL (DB_HOST)
      other = await createServices(server.services.config, createLogger('silent'));
    });
    after(() => other?.close());

    it('never claim or fire one timer twice', async () => {
      const ids: string[] = [];
      const hh = (hour: number) => String(hour).padStart(2, '0');
      for (let hour = 9; hour < 17; hour++) {
        ids.push(await book('zone-timers', `${hh(hour)}:00`, `${hh(hour)}:30`), await book('zone-timers', `${hh(hour)}:30`, `${hh(hour + 1)}:00`));
      }
      // Claims racing from two connection pools share the due timers and never overlap.
      const now = new Date(`${date}T18:00:00Z`);
      const due = await server.services.db.selectFrom('timers').select((eb) => eb.fn.countAll<number>().as('n')).where('due_at', '<=', new Date(now.getTime() + 15 * 60_000)).executeTakeFirstOrThrow();
      const claimOptions = { now, wallNow: new Date(), leaseMs: 300, reminderMinutes: 15, limit: 5 };
      const claims = await Promise.all([0, 1, 2, 3].map((i) => claimDueTimers(i % 2 ? other!.db : server.services.db, claimOptions)));
      const claimed = claims.flat().map((t) => `${t.booking_id}/${t.kind}`);
      expect(new Set(claimed).size).to.equal(claimed.length);
      expect(claimed).to.have.length(Math.min(Number(due.n), 20));
      await new Promise((resolve) => setTimeout(resolve, 350));

      at('18:00:00');
      other!.now = server.services.now;
      const small = { ...firing, batchSize: 3 };
      const drain = async (services: RunningServices) => {
        while ((await fireDueTimers(services, small)) > 0);
      };
      await Promise.all([drain(server.services), drain(other!), drain(server.services), drain(other!)]);
      for (const id of ids) {
        const types = await typesOf(id);
        expect(types.filter((t) => t === 'BookingMarkedNoShow'), id).to.have.length(1);
        expect(types.filter((t) => t === 'BookingCompleted'), id).to.have.length(0);
      }
    });
  });
});
