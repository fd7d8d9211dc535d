import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import { callService, type Answer } from '../support/call-service.js';
import { seedZone } from '../support/device-records.js';
import { postgresRestart } from '../support/postgres-restart.js';
import type { ServiceProcess } from '../support/service-process.js';
import type { TcpRelay } from '../support/tcp-relay.js';
import { startRelayedProcesses, type RelayedProcesses } from '../support/relayed-processes.js';
import type { TestDatabase } from '../support/test-database.js';
import { mintToken } from '../support/test-keys.js';
import { waitFor } from '../workers/worker-test-kit.js';

/**
 * Fault injection for the waitlists (contract §23): two API processes reach PostgreSQL through a
 * relay while owners book and cancel one-hour slots, direct creators try the same slots, and
 * waiters join the taken ones; the database goes away mid-run (a server restart in CI or with
 * FAULT_RESTART_POSTGRES=1, else a relay cut and the termination of the service's backends).
 * The checker replays each resource's stream append by append: after every append, each entry
 * still waiting is blocked by an active booking that is not one promoted in that append for a
 * later entry (a freed slot that fits a waiter went to the first such waiter, never to a direct
 * create); every acknowledged join and cancel is in the read model and the log; no 500.
 */

const workspace = randomUUID();
const hour = 3_600_000;
const day = 24 * hour;
const dayStart = Math.ceil((Date.now() + 2 * day) / day) * day;
const slots = 8;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const iso = (ms: number) => new Date(ms).toISOString();

type Held = { id: string; status: string; startTime: string; endTime: string };
type Entry = { id: string; status: string; startTime: string; endTime: string; bookingId: string | null };
const overlaps = (a: { startTime: string; endTime: string }, b: { startTime: string; endTime: string }) =>
  Date.parse(a.startTime) < Date.parse(b.endTime) && Date.parse(b.startTime) < Date.parse(a.endTime);

describe('waitlists under database outages (PostgreSQL only: processes share the server)', () => {
  let rig: RelayedProcesses;
  let database: TestDatabase;
  let relay: TcpRelay;
  let apis: ServiceProcess[] = [];

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    this.timeout(120_000);
    rig = await startRelayedProcesses('waitlist-fault', { args: ['--role', 'api'], env: { RATE_LIMIT_PER_MINUTE: '0' } });
    ({ database, relay, processes: apis } = rig);
  });

  after(async function () {
    this.timeout(30_000);
    await rig?.stop();
  });

  it('hands every freed slot that fits a waiter to the first such waiter and loses no entry, with the database cut mid-run', async function () {
    this.timeout(90_000);
    const call = (token: string, method: string, path: string, body?: unknown) => callService(pick(apis).url, token, method, path, body);
    const admin = mintToken({ workspace, level: 'LV2', sub: 'waitlist-admin' });
    const zones: string[] = [];
    for (let i = 0; i < 3; i++) {
      const zone = `waitlist-fault-${i}`;
      await seedZone(database.db, workspace, zone);
      const res = await call(admin, 'POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: zone });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      zones.push(zone);
    }
    const slot = () => {
      const start = dayStart + Math.floor(Math.random() * slots) * hour;
      return { resourceType: 'zone', resourceId: pick(zones), title: 'Slot', startTime: iso(start), endTime: iso(start + hour) };
    };

    const outcomes = new Map<string, number>();
    const fiveHundreds: { what: string; body: unknown }[] = [];
    const record = (what: string, res: Answer) => {
      outcomes.set(`${what} ${res.status}`, (outcomes.get(`${what} ${res.status}`) ?? 0) + 1);
      if (res.status >= 500 && res.status !== 503) fiveHundreds.push({ what, body: res.body });
    };
    const acknowledgedJoins = new Set<string>();
    const acknowledgedCancels = new Set<string>();
    let running = true;

    // Owners book and cancel, creators only book (direct creates racing the waiters), waiters join.
    const owner = async (sub: string) => {
      const token = mintToken({ workspace, level: 'LV4', sub });
      const own: string[] = [];
      while (running) {
        let res: Answer;
        if (own.length > 0 && Math.random() < 0.5) {
          const id = own.splice(Math.floor(Math.random() * own.length), 1)[0]!;
          res = await call(token, 'PATCH', `/booking/v1/bookings/${id}/cancel`, {});
          record('cancel', res);
          if (res.status === 200) acknowledgedCancels.add(id);
        } else {
          res = await call(token, 'POST', '/booking/v1/bookings', slot());
          record('create', res);
          if (res.status === 201) own.push(res.body.id);
        }
        if (res.status === 503 || res.status === 0) await sleep(100);
      }
    };
    const waiter = async (sub: string) => {
      const token = mintToken({ workspace, level: 'LV4', sub });
      while (running) {
        const res = await call(token, 'POST', '/booking/v1/waitlist', slot());
        record('join', res);
        if (res.status === 201) acknowledgedJoins.add(res.body.id);
        await sleep(res.status === 503 || res.status === 0 ? 100 : 30);
      }
    };
    const loadStarted = Date.now();
    const load = Promise.all([...['o1', 'o2', 'o3', 'o4'].map(owner), ...['w1', 'w2', 'w3'].map(waiter)]);

    const healthy = (api: ServiceProcess) => fetch(`${api.url}/booking/v1/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    const recovery = async (since: number) => {
      await Promise.all(apis.map((api) => waitFor(() => healthy(api), { timeoutMs: 30_000, what: `${api.url} to recover` })));
      return Date.now() - since;
    };
    const outages: { kind: string; closed?: number; recoveryMs: number }[] = [];
    await sleep(4_000);
    const server = await postgresRestart();
    if (server) {
      const started = Date.now();
      await server.restart();
      outages.push({ kind: `pg_ctlcluster ${server.cluster} restart`, recoveryMs: await recovery(started) });
    } else {
      const started = Date.now();
      const closed = await relay.cutAndRefuse();
      await sleep(3_000);
      await relay.accept();
      outages.push({ kind: 'relay cut + refuse', closed, recoveryMs: await recovery(started) });
      await sleep(2_000);
      const ports = relay.upstreamPorts();
      const terminatedAt = Date.now();
      const { rows: backends } = await sql<{ pid: number }>`
        select pid from pg_stat_activity where datname = current_database() and client_port = any(${ports}::int[])`.execute(database.db);
      const { rows: terminated } = await sql<{ pid: number }>`select pid from unnest(${backends.map((b) => b.pid)}::int[]) pid where pg_terminate_backend(pid)`.execute(
        database.db,
      );
      outages.push({ kind: 'pg_terminate_backend', closed: terminated.length, recoveryMs: await recovery(terminatedAt) });
    }
    await sleep(4_000);
    running = false;
    await load;
    const loadMs = Date.now() - loadStarted;

    // Replay each resource stream append by append (one transaction each).
    const events = await database.db
      .selectFrom('events')
      .select(['stream_id', 'stream_revision', 'transaction_id', 'event_type as type', 'data'])
      .where('stream_id', 'like', 'resource-%')
      .orderBy('stream_id')
      .orderBy('stream_revision')
      .execute();
    const violations: { stream: string; revision: number; entry: string; why: string }[] = [];
    let promotions = 0;
    let freeings = 0;
    const streams = new Map<string, typeof events>();
    for (const e of events) streams.set(e.stream_id, [...(streams.get(e.stream_id) ?? []), e]);
    for (const [stream, streamEvents] of streams) {
      const bookings = new Map<string, Held>();
      const waiting = new Map<string, Entry>();
      for (let i = 0; i < streamEvents.length; ) {
        const append = streamEvents.filter((e, j) => j >= i && e.transaction_id === streamEvents[i]!.transaction_id);
        i += append.length;
        const promotedFor = new Map<string, string>();
        for (const e of append) {
          const data = e.data as { booking?: Held; entry?: Entry };
          if (data.booking) bookings.set(data.booking.id, data.booking);
          if (e.type === 'BookingCancelled') freeings += 1;
          if (data.entry) {
            if (data.entry.status === 'waiting') waiting.set(data.entry.id, data.entry);
            else waiting.delete(data.entry.id);
            if (data.entry.status === 'fulfilled') {
              promotions += 1;
              promotedFor.set(data.entry.bookingId!, data.entry.id);
            }
          }
        }
        const order = [...waiting.keys()];
        const joinedBefore = (a: string, b: string) => order.indexOf(a) < order.indexOf(b) || !waiting.has(b);
        for (const entry of waiting.values()) {
          const blockers = [...bookings.values()].filter((b) => ['pending', 'confirmed'].includes(b.status) && overlaps(b, entry));
          if (blockers.length === 0) violations.push({ stream, revision: append[0]!.stream_revision, entry: entry.id, why: 'waiting on a free slot' });
          // Blocked only by bookings promoted in this append for entries made after it: FIFO broken.
          else if (blockers.every((b) => promotedFor.has(b.id) && !joinedBefore(promotedFor.get(b.id)!, entry.id)))
            violations.push({ stream, revision: append[0]!.stream_revision, entry: entry.id, why: 'passed over by a later entry' });
        }
      }
    }

    const stored = new Set((await database.db.selectFrom('waitlist_entries').select('id').execute()).map((r) => r.id));
    const lostJoins = [...acknowledgedJoins].filter((id) => !stored.has(id) || !events.some((e) => e.type === 'WaitlistJoined' && (e.data as { entry: Entry }).entry.id === id));
    const cancelled = new Set((await database.db.selectFrom('bookings').select('id').where('status', '=', 'cancelled').execute()).map((r) => r.id));
    const lostCancels = [...acknowledgedCancels].filter((id) => !cancelled.has(id));

    console.log(
      JSON.stringify(
        {
          loadMs,
          outcomes: Object.fromEntries([...outcomes].sort()),
          outages,
          freeings,
          promotions,
          entries: stored.size,
          violations: violations.length,
          lostWrites: lostJoins.length + lostCancels.length,
          fiveHundreds: fiveHundreds.length,
        },
        null,
        2,
      ),
    );
    expect(violations.slice(0, 5)).to.deep.equal([]);
    expect({ lostJoins, lostCancels }).to.deep.equal({ lostJoins: [], lostCancels: [] });
    expect(fiveHundreds, JSON.stringify(fiveHundreds.slice(0, 3))).to.deep.equal([]);
    for (const outage of outages) expect(outage.recoveryMs, outage.kind).to.be.at.most(outage.kind.startsWith('pg_ctlcluster') ? 20_000 : 8_000);
    // The run exercised the queue: waiters joined and were promoted.
    expect(acknowledgedJoins.size).to.be.greaterThan(3);
    expect(promotions).to.be.greaterThan(0);
    for (const api of apis) expect(api.child.exitCode, api.output()).to.equal(null);
  });
});
