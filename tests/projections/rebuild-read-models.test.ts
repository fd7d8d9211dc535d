import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { archiveBookings } from '../../src/commands/booking/archive-bookings.js';
import { completeBooking, expirePendingBooking, issueReminder, markNoShow } from '../../src/commands/booking/system-moves.js';
import type { DatabaseConfig } from '../../src/infra/config.js';
import { projectionsCheckpoint } from '../../src/infra/event-store/projection-progress.js';
import { isFinalInLog } from '../../src/infra/event-store/log-horizon.js';
import { createLogger } from '../../src/infra/logger.js';
import { rebuildReadModels } from '../../src/projections/rebuild-read-models.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createAdvisoryLock } from '../../src/workers/advisory-lock.js';
import type { ExclusiveLock } from '../../src/workers/exclusive-lock.js';
import { bookingBody, registerZone, setClock } from '../api/booking/booking-api.js';
import { catalogClient } from '../api/catalog/catalog-api.js';
import { deviceBody } from '../api/record/record-api.js';
import { postgresServer } from '../support/scratch-database.js';
import { snapshotOf } from '../support/read-model-snapshot.js';
import { runScript } from '../support/run-script.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('rebuilding the read models from the log', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
  });
  after(() => server.stop());

  const snapshot = () => snapshotOf(server.database.db);

  it('gives tables equal to the live ones after every kind of change', async () => {
    const admin = server.token({ level: 'LV2', sub: 'admin' });
    const alice = server.token({ level: 'LV4', sub: 'alice' });
    const room = await registerZone(server, 'rebuild-room', { bookingPolicy: { autoConfirm: false, maxAdvanceDays: 365 } });
    const desk = await registerZone(server, 'rebuild-desk');
    const gone = await registerZone(server, 'rebuild-gone');
    await server.request('PATCH', `/booking/v1/resources/${desk}`, { body: { capacity: 2, bookingPolicy: { gracePeriodMinutes: 5 } } });
    expect((await server.request('PATCH', '/device/v1/zones/rebuild-desk', { body: { name: 'Hot desk' } })).status).to.equal(200);

    const ids: string[] = [];
    for (let hour = 9; hour < 14; hour++) {
      const at = (m: string) => `2027-01-05T${String(hour).padStart(2, '0')}:${m}:00Z`;
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-room', at('00'), at('30')), token: alice });
      expect(res.status).to.equal(201);
      ids.push(res.body.id);
    }
    await server.request('PATCH', `/booking/v1/bookings/${ids[0]}/confirm`, { token: admin });
    await server.request('PATCH', `/booking/v1/bookings/${ids[1]}/cancel`, { token: alice, body: { reason: 'no' } });
    await server.request('PATCH', `/booking/v1/bookings/${ids[2]}`, { token: alice, body: { startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:45:00Z' } });
    await server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-desk', '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z') });
    await server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-gone', '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z') });
    const series = await server.request('POST', '/booking/v1/bookings/bulk', {
      body: { ...bookingBody('rebuild-desk', '2027-01-11T09:00:00Z', '2027-01-11T09:15:00Z'), recurrenceRule: 'FREQ=WEEKLY;COUNT=4' },
    });
    expect(series.status).to.equal(201);
    await server.request('PATCH', `/booking/v1/bookings/${series.body.occurrences[1].id}`, { body: { title: 'Moved' } });
    await server.request('DELETE', `/booking/v1/resources/${gone}`);
    expect((await server.request('POST', '/booking/v1/quotas', { body: { resourceIds: [desk], limit: 8, unit: 'hours', per: 'week' } })).status).to.equal(201);
    const dropped = await server.request('POST', '/booking/v1/quotas', { body: { limit: 20, unit: 'bookings', per: 'month' } });
    expect((await server.request('DELETE', `/booking/v1/quotas/${dropped.body.id}`)).status).to.equal(204);
    // A day of moves on five more bookings: reminded, checked in and out, completed with and without
    // check-in, a no-show after a new grace period (moving the no-show timers), one expired pending.
    const day = (time: string) => `2027-02-10T${time}:00Z`;
    const moved: string[] = [];
    for (const hour of ['09', '10', '11', '12', '13']) {
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-room', day(`${hour}:00`), day(`${hour}:30`)), token: alice });
      expect(res.status).to.equal(201);
      moved.push(res.body.id);
    }
    for (const id of moved.slice(0, 4)) expect((await server.request('PATCH', `/booking/v1/bookings/${id}/confirm`, { token: admin })).status).to.equal(200);
    expect((await server.request('PATCH', `/booking/v1/resources/${room}`, { body: { bookingPolicy: { gracePeriodMinutes: 10 } } })).status).to.equal(200);
    const at = async (time: string, move: () => Promise<unknown>) => {
      setClock(server, day(time));
      await move();
    };
    await at('08:50', () => issueReminder(server.services, moved[0]!));
    await at('09:01', () => server.request('PATCH', `/booking/v1/bookings/${moved[0]}/checkin`, { token: alice }));
    await at('09:10', () => server.request('PATCH', `/booking/v1/bookings/${moved[0]}/checkout`, { token: alice }));
    await at('10:01', () => server.request('PATCH', `/booking/v1/bookings/${moved[1]}/checkin`, { token: alice }));
    await at('10:30', () => completeBooking(server.services, moved[1]!));
    await at('11:30', () => completeBooking(server.services, moved[2]!));
    await at('12:15', () => markNoShow(server.services, moved[3]!));
    await at('13:00', () => expirePendingBooking(server.services, moved[4]!));
    const statuses = await server.database.db.selectFrom('bookings').select(['id', 'status', 'checked_in_at']).where('id', 'in', moved).execute();
    expect(moved.map((id) => statuses.find((b) => b.id === id)?.status)).to.deep.equal(['completed', 'completed', 'completed', 'no_show', 'cancelled']);
    expect(statuses.filter((b) => b.checked_in_at !== null)).to.have.length(2);
    // Retention moves the cancelled bookings (one by the removal) to the archive; the rest has not ended or is still active.
    setClock(server, '2027-03-01T00:00:00Z');
    expect(await archiveBookings(server.services, Temporal.Instant.from('2027-02-01T00:00:00Z'))).to.deep.equal({ archived: 2 });
    setClock(server, '2027-01-04T08:00:00Z');
    // Blackouts: one kept (cancelling a booking), one of the whole workspace, one deleted.
    const closing = { from: '2027-01-06T00:00:00Z', to: '2027-01-07T00:00:00Z', reason: 'Closed' };
    expect((await server.request('POST', '/booking/v1/blackouts', { body: { resourceIds: [desk], ...closing, cancelExisting: true } })).body.affected).to.have.length(1);
    expect((await server.request('POST', '/booking/v1/blackouts', { body: { from: '2027-05-01T00:00:00Z', to: '2027-05-02T00:00:00Z', reason: 'Holiday' } })).status).to.equal(201);
    const deleted = await server.request('POST', '/booking/v1/blackouts', { body: { resourceIds: [room], ...closing } });
    expect((await server.request('DELETE', `/booking/v1/blackouts/${deleted.body.id}`)).status).to.equal(204);

    const live = await snapshot();
    expect(live.bookings_archive).to.have.length(2);
    expect(live.resources).to.have.length(3);
    expect(live.quotas).to.have.length(1);
    expect(live.blackouts).to.have.length(2);
    expect(live.timers).to.not.be.empty;
    expect(live.bookings!.length).to.be.greaterThan(8);
    expect(live.timers!.length).to.be.greaterThan(5);
    expect(room).to.be.a('string');
    expect(live.resources!.map((r) => (r as { resource_name: string }).resource_name)).to.include('Hot desk');

    const { events } = await rebuildReadModels(server.database.db, server.services.config);
    expect(events).to.be.greaterThan(20);
    expect(await snapshot()).to.deep.equal(live);
    // Pages of a few events: a booking's events, a run's end, fall on every side of a page's end.
    for (const pageSize of [1, 3, 7]) {
      expect(await rebuildReadModels(server.database.db, server.services.config, { pageSize })).to.deep.equal({ events });
      expect(await snapshot(), `pages of ${pageSize}`).to.deep.equal(live);
    }
    // Bookings held back until closed, a hold full at once (new bookings go ahead, the oldest let go), none held; and the next page read ahead on the pool when there is one.
    const readAheadOn = server.services.config.database.kind === 'postgres' ? server.database.db : undefined;
    for (const [pageSize, holdLimit] of [[3, 2], [7, 1], [5, 0], [2_000, 4]] as const) {
      expect(await rebuildReadModels(server.database.db, server.services.config, { pageSize, holdLimit, readAheadOn })).to.deep.equal({ events });
      expect(await snapshot(), `pages of ${pageSize}, holding ${holdLimit} events`).to.deep.equal(live);
    }
  });

  it('rebuilds the device and catalog records too, keeping what stays out of events', async () => {
    const w = server.workspace;
    const lv1 = server.token({ level: 'LV1', sub: 'root' });
    const D = '/device/v1/devices';
    const Z = '/device/v1/zones';
    expect((await server.request('POST', Z, { body: { id: 'hq', name: 'HQ', workspace: w } })).status).to.equal(201);
    expect((await server.request('POST', Z, { body: { id: 'floor-1', name: 'Floor 1', parentZoneId: 'hq', workspace: w } })).status).to.equal(201);
    expect((await server.request('POST', Z, { body: { id: 'gone', name: 'Gone', workspace: w } })).status).to.equal(201);
    expect((await server.request('PATCH', `${Z}/floor-1`, { body: { name: 'First floor' } })).status).to.equal(200);
    expect((await server.request('DELETE', `${Z}/gone`)).status).to.equal(200);
    expect((await server.request('POST', D, { body: deviceBody('sensor', w) })).status).to.equal(201);
    expect((await server.request('POST', D, { body: deviceBody('mover', w) })).status).to.equal(201);
    expect((await server.request('POST', `${D}/sensor/apikey`)).status).to.equal(201);
    expect((await server.request('POST', `${D}/mover/apikey`)).status).to.equal(201);
    const target = randomUUID();
    expect((await server.request('POST', `${D}/mover/workspace`, { body: { workspace: { id: target } }, token: lv1 })).status).to.be.lessThan(300);

    const catalog = catalogClient(server);
    const publisher = await catalog.publisher('rebuild');
    const project = await catalog.project('notes', '1.0', publisher.id);
    const application = await catalog.application('notes', '1.0', project.id, { publisherId: publisher.id });
    await catalog.moveTo(application.id, 'RELEASE');
    expect((await catalog.call('PATCH', `/publishers/${publisher.id}`, { verified: true })).status).to.equal(200);
    await server.database.db.updateTable('publishers').set({ oauth_provider: 'github', oauth_subject: '42' }).where('id', '=', publisher.id).execute();
    await server.database.db.updateTable('applications').set({ package: Buffer.from('PK') }).where('id', '=', application.id).execute();

    const live = await snapshot();
    expect((live.zones as { id: string }[]).map((z) => z.id)).to.include.members(['hq', 'floor-1']).and.not.include('gone');
    expect(live.devices).to.have.length(2);
    expect((live.devices as { api_key_hash: string | null }[]).every((d) => d.api_key_hash !== null)).to.equal(true);
    expect(live.applications).to.have.length(1);
    await rebuildReadModels(server.database.db, server.services.config);
    expect(await snapshot()).to.deep.equal(live);
  });

  it('does not race creates running at the same time', async function () {
    if (!server.database.isServer) this.skip();
    await registerZone(server, 'rebuild-busy', { bookingPolicy: { maxAdvanceDays: 365 } });
    const creates = Array.from({ length: 40 }, (_, i) => {
      const start = new Date(Date.UTC(2027, 1, 1, 0, 30 * i)).toISOString();
      const end = new Date(Date.UTC(2027, 1, 1, 0, 30 * i + 30)).toISOString();
      return server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-busy', start, end) });
    });
    const [results] = await Promise.all([Promise.all(creates), rebuildReadModels(server.database.db, server.services.config)]);
    expect(results.every((r) => r.status === 201)).to.equal(true);
    const live = await snapshot();
    await rebuildReadModels(server.database.db, server.services.config);
    expect(await snapshot()).to.deep.equal(live);
  });
});

// The runner's lock is held by another session and the rebuild runs as its own process: a PostgreSQL server only.
(postgresServer ? describe : describe.skip)('rebuilding while the read models follow the log (PROJECTIONS=async)', function () {
  this.timeout(120_000);
  let server: TestServer | undefined;
  let serverClosed = false;
  let second: RunningServer | undefined;
  let runnerLock: ExclusiveLock | undefined;
  after(async () => {
    await runnerLock?.release();
    await second?.close();
    if (server && !serverClosed) await server.close();
    await server?.database.destroy();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${second!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server!.token({ level: 'LV2' })}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const runnerHealth = async () => (await call('GET', '/booking/v1/health')).body.info.workers.processors.projections;
  const lastPosition = async () => Number((await server!.database.db.selectFrom('events').select((eb) => eb.fn.max('global_position').as('last')).executeTakeFirstOrThrow()).last);

  it('leaves the runner at the position it rebuilt to: what the runner had not projected is projected once, by the rebuild', async () => {
    server = await startTestServer({ PROJECTIONS: 'async' });
    const { database, services } = server;
    const at = (day: number) => [`2030-03-${String(day).padStart(2, '0')}T09:00:00Z`, `2030-03-${String(day).padStart(2, '0')}T10:00:00Z`] as const;
    for (const zone of ['async-a', 'async-b', 'async-c']) await registerZone(server, zone, { bookingPolicy: { maxAdvanceDays: 3650 } });
    const early = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('async-c', ...at(1)) });
    expect(early.status).to.equal(201);

    // The runner's process stops and another session holds its lock: the runner of the next process stands by.
    await server.close();
    serverClosed = true;
    runnerLock = createAdvisoryLock(services.config.database as Extract<DatabaseConfig, { kind: 'postgres' }>, projectionsCheckpoint);
    expect(await runnerLock.acquire()).to.equal(true);
    second = await startServer({ ...services.config, projectionWaitMs: 1_000 }, createLogger('silent'));

    // Writes on three streams: each append is kept, its answer waits for the read models in vain.
    const late = await Promise.all([
      call('POST', '/booking/v1/bookings', bookingBody('async-a', ...at(2))),
      call('POST', '/booking/v1/bookings', bookingBody('async-b', ...at(3))),
      call('PATCH', `/booking/v1/bookings/${early.body.id}/cancel`, { reason: 'late' }),
    ]);
    expect(late.map((r) => r.status)).to.deep.equal([503, 503, 503]);
    expect((await runnerHealth()).lagEvents).to.equal(3);

    // The rebuild reads the log below the late-commit horizon: on a busy machine another of the
    // service's transactions (a worker's) may still hold it below the cancel for a moment.
    const lastIsFinal = async () =>
      (await sql<{ final: boolean }>`select ${isFinalInLog(sql`(select max(transaction_id) from events)`)} as final`.execute(database.db)).rows[0]!.final;
    for (let waited = 0; !(await lastIsFinal()) && waited < 10_000; waited += 50) await sleep(50);
    const run = await runScript('rebuild-read-models', [], { ...database.env, PROJECTIONS: 'async' });
    expect(run.code, run.stderr).to.equal(0);
    // The runner has not run since (it stands by): the rebuild moved its checkpoint, in the transaction of the tables.
    expect(await runnerHealth()).to.deep.equal({ position: await lastPosition(), lagEvents: 0, active: false });
    const starts = async (zone: string) => (await call('GET', `/booking/v1/bookings?resourceId=${zone}`)).body.data.map((b: { startTime: string }) => b.startTime);
    expect(await starts('async-a')).to.deep.equal([at(2)[0]]);
    expect(await starts('async-b')).to.deep.equal([at(3)[0]]);
    expect((await call('GET', `/booking/v1/bookings/${early.body.id}`)).body.status).to.equal('cancelled');

    // The runner takes over from there: later writes answer as usual, and nothing is applied twice.
    await runnerLock.release();
    const later = await call('POST', '/booking/v1/bookings', bookingBody('async-a', ...at(4)));
    expect(later.status).to.equal(201);
    expect((await call('PATCH', `/booking/v1/bookings/${later.body.id}/cancel`, { reason: 'again' })).status).to.equal(200);
    expect(await runnerHealth()).to.deep.equal({ position: await lastPosition(), lagEvents: 0, active: true });
    const live = await snapshotOf(database.db);
    await rebuildReadModels(database.db, { projections: 'async' });
    expect(await snapshotOf(database.db)).to.deep.equal(live);
  });
});
