import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { workerOptionsFor } from '../../../src/workers/worker-options.js';
import { startRetentionLoop } from '../../../src/workers/retention/start-retention-loop.js';
import { runScript } from '../../support/run-script.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { waitFor } from '../../workers/worker-test-kit.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

/** npm run archive against the server's database, as its own process: exit code and output. */
const runArchive = (server: TestServer, args: string[]) => runScript('archive', args, { ...process.env, ...server.database.env, LOG_LEVEL: 'silent' });

describe('retention: archiving ended bookings (contract §13)', function () {
  this.timeout(120_000);
  let server: TestServer;
  afterEach(() => server?.stop());

  /** Creates a booking on `zone` at the given time (clock set before it); answers its id. */
  async function book(zone: string, start: string, end: string): Promise<string> {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zone, start, end) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  }
  const cancel = async (id: string) => expect((await server.request('PATCH', `/booking/v1/bookings/${id}/cancel`, { body: {} })).status).to.equal(200);
  const listIds = async (query = '') => ((await server.request('GET', `/booking/v1/bookings?limit=100${query}`)).body.data as { id: string }[]).map((b) => b.id);

  it('npm run archive moves ended bookings out of lists, schedules and slots; GET, history and archived=true still answer them', async function () {
    if (!process.env.DB_HOST) this.skip(); // the script is a second process: it needs the database server
    server = await startTestServer();
    const room = await registerZone(server, 'ret-room', { bookingPolicy: { maxAdvanceDays: 3650 } });
    // The past: two bookings cancelled, one left pending (the process manager's to finish).
    setClock(server, '2024-01-10T08:00:00Z');
    const old1 = await book('ret-room', '2024-01-10T10:00:00Z', '2024-01-10T11:00:00Z');
    const old2 = await book('ret-room', '2024-01-10T12:00:00Z', '2024-01-10T13:00:00Z');
    const pendingPast = await book('ret-room', '2024-01-11T10:00:00Z', '2024-01-11T11:00:00Z');
    await cancel(old1);
    await cancel(old2);
    // Today: a live booking and a cancelled one that has not ended yet.
    server.services.now = () => Temporal.Now.instant();
    const tomorrow = Temporal.Now.instant().add({ hours: 24 }).round({ smallestUnit: 'hour', roundingMode: 'floor' });
    const live = await book('ret-room', tomorrow.toString(), tomorrow.add({ hours: 1 }).toString());
    const cancelledFuture = await book('ret-room', tomorrow.add({ hours: 2 }).toString(), tomorrow.add({ hours: 3 }).toString());
    await cancel(cancelledFuture);

    const all = [old1, old2, pendingPast, live, cancelledFuture];
    expect(await listIds()).to.have.members(all);
    const oldSchedule = (await server.request('GET', `/booking/v1/resources/${room}/schedule?from=2024-01-10T00:00:00Z&to=2024-01-11T00:00:00Z&status=cancelled`)).body;
    expect(oldSchedule.bookings.map((b: { id: string }) => b.id)).to.have.members([old1, old2]);

    const beforeArchive = new Date().toISOString();
    const first = await runArchive(server, ['--before', '2025-01-01T00:00:00Z']);
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stdout).to.contain('archived 2 bookings');
    expect(first.stderr).to.contain('archiving');

    expect(await listIds()).to.have.members([pendingPast, live, cancelledFuture]);
    expect(await listIds('&status=cancelled')).to.have.members([cancelledFuture]);
    const archived = (await server.request('GET', '/booking/v1/bookings?archived=true')).body;
    expect(archived.total).to.equal(2);
    expect(archived.data.map((b: { id: string }) => b.id)).to.have.members([old1, old2]);
    expect(archived.data.every((b: { archivedAt: string | null; status: string }) => b.archivedAt !== null && b.status === 'cancelled')).to.equal(true);
    const schedule = (await server.request('GET', `/booking/v1/resources/${room}/schedule?from=2024-01-10T00:00:00Z&to=2024-01-11T00:00:00Z&status=cancelled`)).body;
    expect(schedule.bookings).to.deep.equal([]);
    const asOf = (instant: string) =>
      server.request('GET', `/booking/v1/resources/${room}/schedule?from=2024-01-10T00:00:00Z&to=2024-01-11T00:00:00Z&status=cancelled&asOf=${encodeURIComponent(instant)}`);
    expect((await asOf(beforeArchive)).body.bookings.map((b: { id: string }) => b.id)).to.have.members([old1, old2]);
    expect((await asOf(new Date().toISOString())).body.bookings).to.deep.equal([]);

    const got = await server.request('GET', `/booking/v1/bookings/${old1}`);
    expect(got.status).to.equal(200);
    expect(got.body.status).to.equal('cancelled');
    expect(Date.parse(got.body.archivedAt)).to.be.closeTo(Date.now(), 120_000);
    expect((await server.request('GET', `/booking/v1/bookings/${live}`)).body.archivedAt).to.equal(null);
    const history = (await server.request('GET', `/booking/v1/bookings/${old1}/history`)).body;
    expect(history.events.map((e: { event: string }) => e.event)).to.deep.equal(['booking.create', 'booking.cancel', 'booking.archive']);
    expect(history.events.at(-1).by).to.equal('system');
    expect(history.events.at(-1).changes).to.have.keys(['archivedAt']);
    expect(history.events.at(-1).booking.archivedAt).to.equal(got.body.archivedAt);
    // An archived booking takes no more moves.
    expect((await server.request('PATCH', `/booking/v1/bookings/${old1}/cancel`, { body: {} })).status).to.equal(404);
    // Not published: the audit feed of published events never shows it.
    const feed = (await server.request('GET', '/booking/v1/events?limit=1000', { token: server.token({ level: 'LV2' }) })).body;
    expect(feed.events.map((e: { event: string }) => e.event)).to.not.include('booking.archive');

    const again = await runArchive(server, ['--before', '2025-01-01T00:00:00Z']);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.contain('archived 0 bookings');
    expect((await server.request('GET', '/booking/v1/bookings?archived=true')).body.total).to.equal(2);

    // A --before in the future archives only what has ended by now: the cancelled booking of tomorrow stays.
    const future = await runArchive(server, ['--before', '2100-01-01T00:00:00Z']);
    expect(future.code, future.stderr).to.equal(0);
    expect(future.stdout).to.contain('archived 0 bookings');
    expect(await listIds()).to.have.members([pendingPast, live, cancelledFuture]);

    const bad = await runArchive(server, ['--before', 'yesterday']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain('--before must be an ISO 8601 instant');
  });

  it('the worker archives bookings ended more than RETENTION_DAYS ago, and RETENTION_DAYS=0 archives nothing', async () => {
    for (const days of ['0', '30']) {
      if (days !== '0') await server.stop();
      server = await startTestServer({ RETENTION_DAYS: days });
      await registerZone(server, 'ret-desk');
      setClock(server, '2026-01-05T08:00:00Z');
      const old = await book('ret-desk', '2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z');
      const recent = await book('ret-desk', '2026-02-10T09:00:00Z', '2026-02-10T10:00:00Z');
      await cancel(old);
      await cancel(recent);
      // 40 days after the first ended, 4 days after the second.
      setClock(server, '2026-02-14T10:00:00Z');
      const loop = startRetentionLoop(server.services, workerOptionsFor(server.services.config, { standbyRetryMs: 50 }));
      const deadline = Date.now() + 20_000;
      // With RETENTION_DAYS=0 there is nothing to wait for: give the loop a moment to do wrong.
      await new Promise((r) => setTimeout(r, 500));
      while (days !== '0' && (await listIds()).includes(old) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await loop.stop();
      const expected = days === '0' ? [] : [old];
      expect((await listIds('&archived=true')), `RETENTION_DAYS=${days}`).to.deep.equal(expected);
      expect(await listIds()).to.have.members(days === '0' ? [old, recent] : [recent]);
    }
  });

  it('the worker archives daily at 03:00 UTC, catching up once at start when the last run is older than the latest 03:00', async () => {
    server = await startTestServer({ RETENTION_DAYS: '30' });
    await registerZone(server, 'ret-room');
    setClock(server, '2026-01-05T08:00:00Z');
    const old = await book('ret-room', '2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z');
    await cancel(old);
    setClock(server, '2026-02-14T10:00:00Z');
    const lastRun = () => server.database.db.selectFrom('scheduled_runs').select('last_run_at').where('name', '=', 'retention').executeTakeFirst();
    const startLoop = () => startRetentionLoop(server.services, workerOptionsFor(server.services.config, { standbyRetryMs: 50 }));

    // Today's run is done (after 03:00): a worker starting now leaves it at that.
    await server.database.db.insertInto('scheduled_runs').values({ name: 'retention', last_run_at: new Date('2026-02-14T03:00:05Z') }).execute();
    const waiting = startLoop();
    // Nothing to wait for: give the loop a moment to do wrong.
    await new Promise((r) => setTimeout(r, 500));
    await waiting.stop();
    expect(await listIds()).to.include(old);
    expect((await lastRun())!.last_run_at.toISOString()).to.equal('2026-02-14T03:00:05.000Z');

    // The last run is older than a day: the worker catches up at start, and records it.
    await server.database.db.updateTable('scheduled_runs').set({ last_run_at: new Date('2026-02-13T02:00:00Z') }).execute();
    const catchingUp = startLoop();
    await waitFor(async () => (await lastRun())!.last_run_at.toISOString() === '2026-02-14T10:00:00.000Z', { timeoutMs: 20_000, what: 'the catch-up run' });
    await catchingUp.stop();
    expect(await listIds('&archived=true')).to.deep.equal([old]);
  });
});
