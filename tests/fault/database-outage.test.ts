import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import { bookingEventTypes } from '../../src/domain/booking/booking-events.js';
import { callService } from '../support/call-service.js';
import { seedZone } from '../support/device-records.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { startTcpRelay, type TcpRelay } from '../support/tcp-relay.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { mintToken, platformKey } from '../support/test-keys.js';
import { startWebhookReceiver, type WebhookReceiver } from '../infra/webhook/webhook-receiver.js';
import { waitFor } from '../workers/worker-test-kit.js';

/**
 * Fault injection (contract §12): two API processes and a worker reach PostgreSQL through a relay
 * of the test's own while clients create, reschedule and cancel bookings. The relay cuts every
 * connection twice (and refuses new ones for a while), then the service's backends are
 * terminated on the server. Nothing may die, lose an acknowledged write, book a slot twice,
 * miss a timer or drop a webhook.
 */

const workspace = randomUUID();
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const zones = ['fault-a', 'fault-b', 'fault-c'];
const timerZone = 'fault-timer';
const outageMs = 3_000;
const hour = 3_600_000;
const dayStart = Math.ceil((Date.now() + 2 * 24 * hour) / (24 * hour)) * 24 * hour;

type Acknowledged = { creates: Map<string, string>; reschedules: { id: string; startTime: string; endTime: string }[]; cancels: Set<string> };

/** A slot on a small grid, so that concurrent clients collide often. */
function randomSlot(): { startTime: string; endTime: string } {
  const start = dayStart + Math.floor(Math.random() * 16) * hour;
  const length = (1 + Math.floor(Math.random() * 2)) * hour;
  return { startTime: new Date(start).toISOString(), endTime: new Date(start + length).toISOString() };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

describe('database outages under load (PostgreSQL only: processes share the server)', () => {
  let database: TestDatabase;
  let relay: TcpRelay;
  let receiver: WebhookReceiver;
  const apis: ServiceProcess[] = [];
  let startupStarted = 0;
  let startupMs = 0;
  let worker: { child: ChildProcess; output: () => string; exited: Promise<number | null> } | undefined;

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    this.timeout(120_000);
    startupStarted = Date.now();
    database = await createTestDatabase();
    relay = await startTcpRelay({ host: database.config!.host, port: database.config!.port });
    receiver = await startWebhookReceiver(secret);
    for (const zone of [...zones, timerZone]) await seedZone(database.db, workspace, zone);
    const env = {
      ...database.env,
      DB_HOST: '127.0.0.1',
      DB_PORT: String(relay.port),
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      WEBHOOK_ENDPOINT: receiver.url,
      WEBHOOK_SECRET: secret,
      REMINDER_MINUTES: '0',
      DATA_DIR: `/tmp/booking-fault-${process.pid}`,
      // One client token sends far more than a minute's default allowance; limits are not what this run is about.
      RATE_LIMIT_PER_MINUTE: '0',
      // Info: the API processes announce their port; on a busy machine start-up can outlast a fixed-port health wait.
      LOG_LEVEL: 'info',
    };
    // All three start at once: starting them one by one takes most of this test's time.
    const apisStarted = Promise.all(
      [0, 1].map(async () => {
        const api = await startServiceProcess(env, ['--role', 'api']);
        apis.push(api);
      }),
    );
    apisStarted.catch(() => undefined);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'worker'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-64_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    worker = { child, output: () => output, exited: new Promise((resolve) => child.once('exit', resolve)) };
    await waitFor(() => /workers started/.test(output) || child.exitCode !== null, { timeoutMs: 110_000, what: 'the worker process' });
    expect(child.exitCode, output).to.equal(null);
    await apisStarted;
    startupMs = Date.now() - startupStarted;
  });

  after(async function () {
    this.timeout(30_000);
    await Promise.all(apis.map((api) => api.stop()));
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    await receiver?.close();
    await relay?.close();
    await database?.destroy();
  });

  it('keeps every process alive, loses no acknowledged write, books no slot twice, fires late timers and delivers every webhook', async function () {
    this.timeout(150_000);
    const token = mintToken({ workspace, level: 'LV2' });
    const call = (method: string, path: string, body?: unknown) => callService(pick(apis).url, token, method, path, body);
    for (const zone of [...zones, timerZone]) {
      const policy = zone === timerZone ? { bookingPolicy: { autoConfirm: false } } : {};
      const res = await call('POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: zone, ...policy });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }

    // Clients: create, reschedule and cancel at random until told to stop.
    const acknowledged: Acknowledged = { creates: new Map(), reschedules: [], cancels: new Set() };
    const outcomes = new Map<string, number>();
    const count = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    let loadRunning = true;
    const client = async () => {
      while (loadRunning) {
        const mine = [...acknowledged.creates.keys()].filter((id) => !acknowledged.cancels.has(id));
        const roll = Math.random();
        let status: number;
        if (roll < 0.5 || mine.length === 0) {
          const res = await call('POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: pick(zones), title: 'Fault', ...randomSlot() });
          count(`create ${(status = res.status)}`);
          if (res.status === 201) acknowledged.creates.set(res.body.id, res.body.resourceId);
        } else if (roll < 0.8) {
          const id = pick(mine);
          const slot = randomSlot();
          const res = await call('PATCH', `/booking/v1/bookings/${id}`, slot);
          count(`reschedule ${(status = res.status)}`);
          if (res.status === 200) acknowledged.reschedules.push({ id, ...slot });
        } else {
          const id = pick(mine);
          const res = await call('PATCH', `/booking/v1/bookings/${id}/cancel`, {});
          count(`cancel ${(status = res.status)}`);
          if (res.status === 200) acknowledged.cancels.add(id);
        }
        // A client backs off while the service answers 503, as a real one would.
        if (status === 503 || status === 0) await sleep(100);
      }
    };
    const loadStarted = Date.now();
    const load = Promise.all(Array.from({ length: 6 }, client));

    const healthy = (api: ServiceProcess) => fetch(`${api.url}/booking/v1/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    /** Milliseconds until every API process answers its health check with 2xx again. */
    const recovery = async (since: number) => {
      await Promise.all(apis.map((api) => waitFor(() => healthy(api), { timeoutMs: 20_000, what: `${api.url} to recover` })));
      return Date.now() - since;
    };
    const outages: { kind: string; closed: number; lengthMs: number; recoveryMs: number }[] = [];
    const relayCut = async () => {
      const started = Date.now();
      const closed = await relay.cutAndRefuse();
      await sleep(outageMs);
      await relay.accept();
      const back = Date.now();
      outages.push({ kind: 'relay cut + refuse', closed, lengthMs: back - started, recoveryMs: await recovery(back) });
    };

    await sleep(2_000);
    await relayCut();
    await sleep(2_000);
    // A pending booking due (to expire, and to be reminded of) while the database is away.
    const timerStart = new Date(Date.now() + 2_500);
    const pending = await call('POST', '/booking/v1/bookings', {
      resourceType: 'zone',
      resourceId: timerZone,
      title: 'Expires in the dark',
      startTime: timerStart.toISOString(),
      endTime: new Date(timerStart.getTime() + hour).toISOString(),
    });
    expect(pending.status, JSON.stringify(pending.body)).to.equal(201);
    expect(pending.body.status).to.equal('pending');
    expect(Date.now(), 'the pending booking must be created before its start, for its timer to fall into the outage').to.be.below(timerStart.getTime());
    await relayCut();
    const secondOutageEnd = Date.now();
    await sleep(2_000);
    const ports = relay.upstreamPorts();
    const terminatedAt = Date.now();
    const { rows: backends } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where datname = current_database() and client_port = any(${ports}::int[])`.execute(database.db);
    const pids = backends.map((b) => b.pid);
    const { rows: terminated } = await sql<{ pid: number }>`select pid from unnest(${pids}::int[]) pid where pg_terminate_backend(pid)`.execute(database.db);
    outages.push({ kind: 'pg_terminate_backend', closed: terminated.length, lengthMs: 0, recoveryMs: await recovery(terminatedAt) });
    await sleep(2_000);
    loadRunning = false;
    await load;
    const loadMs = Date.now() - loadStarted;

    // Every process lives and answers.
    for (const api of apis) {
      expect(api.child.exitCode, api.output()).to.equal(null);
      expect((await call('GET', '/booking/v1/bookings?limit=1')).status).to.equal(200);
    }
    expect(worker!.child.exitCode, worker!.output()).to.equal(null);

    // The late timer fires after the outage it fell into.
    const expired = await waitFor(
      async () => {
        const row = await database.db.selectFrom('bookings').select(['status']).where('id', '=', pending.body.id).executeTakeFirst();
        return row?.status === 'cancelled' ? row : undefined;
      },
      { timeoutMs: 40_000, what: 'the pending booking to expire' },
    );
    expect(expired.status).to.equal('cancelled');
    const events = await database.db
      .selectFrom('events')
      .select(['event_id as id', 'event_type as type', 'data', 'recorded_at'])
      .orderBy('global_position')
      .execute();
    const bookingIdOf = (e: { data: unknown }) => (e.data as { booking?: { id?: string } }).booking?.id;
    const expiry = events.find((e) => e.type === 'BookingCancelled' && bookingIdOf(e) === pending.body.id)!;

    // No two active bookings overlap.
    const { rows: overlaps } = await sql<{ a: string; b: string }>`
      select a.id as a, b.id as b from bookings a join bookings b
        on a.bookable_resource_id = b.bookable_resource_id and a.id < b.id
       and tstzrange(a.start_time, a.end_time) && tstzrange(b.start_time, b.end_time)
      where a.status in ('pending', 'confirmed') and b.status in ('pending', 'confirmed')`.execute(database.db);

    // Every acknowledged write is in the read model and in the log.
    const rows = await database.db.selectFrom('bookings').select(['id', 'status', 'start_time']).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const logged = (type: string, id: string) => events.some((e) => e.type === type && bookingIdOf(e) === id);
    const lostCreates = [...acknowledged.creates.keys()].filter((id) => !byId.has(id) || !logged('BookingCreated', id));
    const lostCancels = [...acknowledged.cancels].filter((id) => byId.get(id)?.status !== 'cancelled' || !logged('BookingCancelled', id));
    // A reschedule to the times a booking already has is acknowledged without an event.
    const bookingIn = (e: { data: unknown }) => (e.data as { booking?: { startTime: string; endTime: string } }).booking;
    const lostReschedules = acknowledged.reschedules.filter(
      ({ id, startTime, endTime }) =>
        !events.some(
          (e) =>
            bookingIdOf(e) === id && Date.parse(bookingIn(e)!.startTime) === Date.parse(startTime) && Date.parse(bookingIn(e)!.endTime) === Date.parse(endTime),
        ),
    );

    // Every booking event of the log reaches the receiver (which de-duplicates on the id).
    const published = new Set(events.filter((e) => bookingEventTypes.has(e.type)).map((e) => e.id));
    const webhookWait = Date.now();
    await waitFor(() => [...published].every((id) => receiver.received.some((r) => r.id === id)), {
      timeoutMs: 60_000,
      what: `webhooks for ${published.size} events (received ${new Set(receiver.received.map((r) => r.id)).size})`,
    }).catch((error: unknown) => {
      console.log(worker!.output().slice(-4_000));
      throw error;
    });
    const uniqueReceived = new Set(receiver.received.map((r) => r.id)).size;

    const operations = [...outcomes.values()].reduce((a, b) => a + b, 0);
    console.log(
      JSON.stringify(
        {
          startupMs,
          loadMs,
          operations,
          outcomes: Object.fromEntries([...outcomes].sort()),
          acknowledged: { creates: acknowledged.creates.size, reschedules: acknowledged.reschedules.length, cancels: acknowledged.cancels.size },
          outages,
          overlaps: overlaps.length,
          lostWrites: lostCreates.length + lostCancels.length + lostReschedules.length,
          timerFiredAfterOutageMs: expiry.recorded_at.getTime() - secondOutageEnd,
          webhooks: { events: published.size, delivered: uniqueReceived, duplicates: receiver.received.length - uniqueReceived, lastArrivedAfterMs: Date.now() - webhookWait },
        },
        null,
        2,
      ),
    );

    expect(expiry.recorded_at.getTime()).to.be.greaterThan(secondOutageEnd);
    expect(overlaps).to.deep.equal([]);
    expect({ lostCreates, lostCancels, lostReschedules }).to.deep.equal({ lostCreates: [], lostCancels: [], lostReschedules: [] });
    for (const outage of outages) expect(outage.recoveryMs, outage.kind).to.be.at.most(5_000);
    expect([...outcomes.keys()].filter((k) => / 500$/.test(k))).to.deep.equal([]);
    expect(operations).to.be.greaterThan(50);
    for (const api of apis) expect(api.child.exitCode).to.equal(null);
    expect(worker!.child.exitCode).to.equal(null);
  });
});
