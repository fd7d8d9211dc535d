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
 * Fault injection for the rules across resources (contract §17): two API processes reach
 * PostgreSQL through a relay while a quota client (one LV4 booker firing creates on many resources
 * at once, over both processes) and a blackout client (admins creating blackouts, with and without
 * cancelExisting, and deleting some, over times that concurrent creates target) run. The database
 * goes away mid-run: a real server restart in CI or with FAULT_RESTART_POSTGRES=1
 * (tests/support/postgres-restart.ts; other engineers share the server locally), else a relay cut
 * and the termination of the service's backends.
 * The checker: no quota period of the booker over its limit, no active booking inside a blackout
 * it did not precede, every acknowledged write in the read model, no 500.
 */

const workspace = randomUUID();
const hour = 3_600_000;
const day = 24 * hour;
const dayStart = Math.ceil((Date.now() + 2 * day) / day) * day;
const quotaDays = 10;
const countLimit = 5;
const hourLimit = 3;
const booker = 'quota-booker';

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const iso = (ms: number) => new Date(ms).toISOString();

type Registration = { zone: string; id: string };
type AcknowledgedBlackout = {
  id: string;
  resourceIds: string[];
  from: number;
  to: number;
  cancelExisting: boolean;
  affected: string[];
  /** Client clock once the answer came: the blackout had committed. */
  answeredAt: number;
  /** Client clock when its first delete was sent that was not refused (it could not have been deleted before). */
  deleteSentAt?: number;
  deleted?: boolean;
};

describe('quotas and blackouts under database outages (PostgreSQL only: processes share the server)', () => {
  let rig: RelayedProcesses;
  let database: TestDatabase;
  let relay: TcpRelay;
  let apis: ServiceProcess[] = [];

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    this.timeout(120_000);
    rig = await startRelayedProcesses('rules-fault', { args: ['--role', 'api'], env: { RATE_LIMIT_PER_MINUTE: '0' } });
    ({ database, relay, processes: apis } = rig);
  });

  after(async function () {
    this.timeout(30_000);
    await rig?.stop();
  });

  it('keeps every quota period within its limit and no booking inside a blackout it did not precede, with the database restarted mid-run', async function () {
    this.timeout(150_000);
    const call = (token: string, method: string, path: string, body?: unknown, api = pick(apis)) => callService(api.url, token, method, path, body);
    const admin = mintToken({ workspace, level: 'LV2', sub: 'rules-admin' });
    const bookerToken = mintToken({ workspace, level: 'LV4', sub: booker });

    // Quota zones (bookings counted per day), hour-quota zones (hours per day), blackout zones.
    const register = async (prefix: string, n: number): Promise<Registration[]> => {
      const out: Registration[] = [];
      for (let i = 0; i < n; i++) {
        const zone = `${prefix}-${i}`;
        await seedZone(database.db, workspace, zone);
        const res = await call(admin, 'POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: zone });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        out.push({ zone, id: res.body.id });
      }
      return out;
    };
    const countZones = await register('quota-count', 8);
    const hourZones = await register('quota-hours', 6);
    const blackoutZones = await register('blackout', 6);
    const countQuota = await call(admin, 'POST', '/booking/v1/quotas', { limit: countLimit, unit: 'bookings', per: 'day', resourceIds: countZones.map((r) => r.id) });
    const hourQuota = await call(admin, 'POST', '/booking/v1/quotas', { limit: hourLimit, unit: 'hours', per: 'day', resourceIds: hourZones.map((r) => r.id) });
    expect([countQuota.status, hourQuota.status], JSON.stringify([countQuota.body, hourQuota.body])).to.deep.equal([201, 201]);
    const quotas = [
      { id: countQuota.body.id as string, unit: 'bookings', limit: countLimit, resources: countZones.map((r) => r.id) },
      { id: hourQuota.body.id as string, unit: 'hours', limit: hourLimit, resources: hourZones.map((r) => r.id) },
    ];

    let loadStarted = Date.now();
    const outcomes = new Map<string, number>();
    const count = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    const fiveHundreds: { what: string; body: unknown }[] = [];
    const record = (what: string, res: Answer) => {
      count(`${what} ${res.status}`);
      if (res.status >= 500 && res.status !== 503) fiveHundreds.push({ what, body: res.body });
    };
    /** Booking id → the client clock when its 201 came (its append had committed by then). */
    const acknowledgedCreates = new Map<string, number>();
    const acknowledgedCancels = new Set<string>();
    const blackouts: AcknowledgedBlackout[] = [];
    let running = true;

    // Quota client: bursts of the booker's concurrent creates on many resources, over both processes.
    // The targeted day moves on every 1.5 seconds (a fresh quota period through the outage), and
    // the booker cancels some of its bookings of that day, so that the creates race for the room.
    const bookerBookings = new Map<string, number>();
    const currentDay = () => Math.min(quotaDays - 1, Math.floor((Date.now() - loadStarted) / 1_500));
    const quotaClient = async () => {
      while (running) {
        const targetDay = currentDay();
        const burst = Array.from({ length: 8 }, async (_, i) => {
          const mine = [...bookerBookings].filter(([, d]) => d === targetDay).map(([id]) => id);
          if (i === 0 && mine.length && Math.random() < 0.5) {
            const id = pick(mine);
            const res = await call(bookerToken, 'PATCH', `/booking/v1/bookings/${id}/cancel`, {}, apis[i % 2]);
            record('quota cancel', res);
            if (res.status === 200) {
              bookerBookings.delete(id);
              acknowledgedCancels.add(id);
            }
            return res.status;
          }
          const hours = Math.random() < 0.5;
          const zone = pick(hours ? hourZones : countZones);
          const start = dayStart + targetDay * day + Math.floor(Math.random() * 48) * 15 * 60_000;
          const length = (hours ? 1 + Math.floor(Math.random() * 4) : 1) * 30 * 60_000;
          const body = { resourceType: 'zone', resourceId: zone.zone, title: 'Quota', startTime: iso(start), endTime: iso(start + length) };
          const res = await call(bookerToken, 'POST', '/booking/v1/bookings', body, apis[i % 2]);
          record(`quota create`, res);
          if (res.status === 201) {
            acknowledgedCreates.set(res.body.id, Date.now());
            bookerBookings.set(res.body.id, targetDay);
          }
          return res.status;
        });
        const statuses = await Promise.all(burst);
        if (statuses.some((s) => s === 503 || s === 0)) await sleep(100);
      }
    };

    // Blackout windows on a grid of the day after the quota days, so that creates and blackouts collide.
    const blackoutDay = dayStart + quotaDays * day;
    // Half-hour slots; the bookers cancel some of their bookings, so that slots free up and creates
    // keep landing while blackouts are being created over them.
    const gridSlot = (slots: number) => {
      const start = blackoutDay + Math.floor(Math.random() * 16) * 30 * 60_000;
      return { start, end: start + slots * 30 * 60_000 };
    };
    const bookerOfBlackoutZones = ['b-user-1', 'b-user-2', 'b-user-3', 'b-user-4', 'b-user-5', 'b-user-6'].map((sub) => mintToken({ workspace, level: 'LV2', sub }));
    const blackoutBooker = async (token: string) => {
      const own: string[] = [];
      while (running) {
        let res: Answer;
        if (own.length > 2 && Math.random() < 0.3) {
          const id = own.splice(Math.floor(Math.random() * own.length), 1)[0]!;
          res = await call(token, 'PATCH', `/booking/v1/bookings/${id}/cancel`, {});
          record('blackout-zone cancel', res);
          if (res.status === 200) acknowledgedCancels.add(id);
        } else {
          const zone = pick(blackoutZones);
          const { start, end } = gridSlot(1);
          res = await call(token, 'POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: zone.zone, title: 'Meet', startTime: iso(start), endTime: iso(end) });
          record('blackout-zone create', res);
          if (res.status === 201) {
            acknowledgedCreates.set(res.body.id, Date.now());
            own.push(res.body.id);
          }
        }
        if (res.status === 503 || res.status === 0) await sleep(100);
      }
    };
    const blackoutAdmin = async () => {
      while (running) {
        const live = blackouts.filter((b) => b.deleteSentAt === undefined);
        if (live.length > 2 && Math.random() < 0.35) {
          const target = pick(live);
          target.deleteSentAt = Date.now();
          const res = await call(admin, 'DELETE', `/booking/v1/blackouts/${target.id}`);
          record('blackout delete', res);
          if (res.status === 204) target.deleted = true;
          // A 503 or no answer leaves it unknown: the delete may have committed (a later one then
          // answers 404), so the blackout is not known to stand after this send. A refusal leaves it standing.
          else if (res.status !== 503 && res.status !== 0) delete target.deleteSentAt;
        } else {
          const covered = blackoutZones.filter(() => Math.random() < 0.5);
          const resourceIds = (covered.length ? covered : [pick(blackoutZones)]).map((r) => r.id);
          const { start, end } = gridSlot(1 + Math.floor(Math.random() * 3));
          const cancelExisting = Math.random() < 0.5;
          const res = await call(admin, 'POST', '/booking/v1/blackouts', { resourceIds, from: iso(start), to: iso(end), reason: 'Closed', cancelExisting });
          record(`blackout create${cancelExisting ? ' cancelExisting' : ''}`, res);
          if (res.status === 201) blackouts.push({ id: res.body.id, resourceIds, from: start, to: end, cancelExisting, affected: res.body.affected, answeredAt: Date.now() });
        }
        await sleep(20);
      }
    };

    loadStarted = Date.now();
    const load = Promise.all([quotaClient(), quotaClient(), ...bookerOfBlackoutZones.map(blackoutBooker), blackoutAdmin(), blackoutAdmin(), blackoutAdmin()]);

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
      await sleep(3_000);
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
    for (const api of apis) expect(api.child.exitCode, api.output()).to.equal(null);

    // The state and the log, read once everything has settled.
    const bookings = await database.db
      .selectFrom('bookings')
      .select(['id', 'status', 'start_time', 'end_time', 'bookable_resource_id', 'booker_profile_id'])
      .execute();
    const byId = new Map(bookings.map((b) => [b.id, b]));
    const events = await database.db.selectFrom('events').select(['global_position', 'stream_id', 'event_type as type', 'data', 'recorded_at']).orderBy('global_position').execute();
    const storedBlackouts = await database.db.selectFrom('blackouts').select(['id']).execute();
    const storedBlackoutIds = new Set(storedBlackouts.map((b) => b.id));

    // Quota: per quota and UTC day (the quotas' time zone), the booker's counting bookings never pass the limit.
    const counting = new Set(['pending', 'confirmed', 'completed', 'no_show']);
    const quotaPeriods: { quota: string; day: string; used: number; limit: number }[] = [];
    for (const quota of quotas) {
      for (let d = 0; d < quotaDays; d++) {
        const from = dayStart + d * day;
        const used = bookings
          .filter((b) => b.booker_profile_id === booker && counting.has(b.status) && quota.resources.includes(b.bookable_resource_id))
          .filter((b) => b.start_time.getTime() >= from && b.start_time.getTime() < from + day)
          .reduce((sum, b) => sum + (quota.unit === 'hours' ? (b.end_time.getTime() - b.start_time.getTime()) / hour : 1), 0);
        quotaPeriods.push({ quota: quota.unit, day: iso(from).slice(0, 10), used, limit: quota.limit });
      }
    }
    const overruns = quotaPeriods.filter((p) => p.used > p.limit);

    // Blackouts. (1) Every active booking overlapping a standing blackout on a covered resource was
    // there before it: it is in `affected`, and the blackout did not cancel existing bookings.
    // (2) No booking was given times inside a blackout by an event recorded after the blackout
    // had committed (answered) and before its delete was sent.
    const overlapsWindow = (b: { start: number; end: number }, blackout: AcknowledgedBlackout) => b.start < blackout.to && blackout.from < b.end;
    const active = new Set(['pending', 'confirmed']);
    const insideBlackout: { blackout: string; booking: string; why: string; events: unknown[] }[] = [];
    const eventsOf = (bookingId: string) =>
      events
        .filter((e) => (e.data as { booking?: { id?: string } }).booking?.id === bookingId)
        .map((e) => ({ position: e.global_position, type: e.type, recordedAt: e.recorded_at, booking: (e.data as { booking: unknown }).booking }));
    for (const blackout of blackouts) {
      const standing = storedBlackoutIds.has(blackout.id);
      for (const booking of bookings) {
        if (!blackout.resourceIds.includes(booking.bookable_resource_id)) continue;
        if (!overlapsWindow({ start: booking.start_time.getTime(), end: booking.end_time.getTime() }, blackout)) continue;
        if (standing && active.has(booking.status) && (!blackout.affected.includes(booking.id) || blackout.cancelExisting)) {
          insideBlackout.push({ blackout: blackout.id, booking: booking.id, why: blackout.cancelExisting ? 'active after cancelExisting' : 'active, not in affected', events: eventsOf(booking.id) });
        }
      }
      for (const id of blackout.affected) {
        if (blackout.cancelExisting && byId.get(id)?.status !== 'cancelled') {
          insideBlackout.push({ blackout: blackout.id, booking: id, why: `affected by cancelExisting but ${byId.get(id)?.status}`, events: eventsOf(id) });
        }
      }
      // The append's guard ran no earlier than the event's transaction began (recorded_at) and the
      // decision's clock (updatedAt), and no later than the client got its 201 (unknown otherwise):
      // only a guard certainly run while the blackout stood counts.
      const until = blackout.deleteSentAt ?? Number.POSITIVE_INFINITY;
      for (const e of events) {
        const given = (e.data as { booking?: { id: string; startTime: string; endTime: string; status: string; updatedAt: string } }).booking;
        if (!given || !active.has(given.status) || !['BookingCreated', 'BookingRescheduled'].includes(e.type)) continue;
        const resourceId = byId.get(given.id)?.bookable_resource_id;
        if (!resourceId || !blackout.resourceIds.includes(resourceId)) continue;
        const guardedFrom = Math.max(e.recorded_at.getTime(), Date.parse(given.updatedAt));
        const guardedBy = (e.type === 'BookingCreated' ? acknowledgedCreates.get(given.id) : undefined) ?? Number.POSITIVE_INFINITY;
        if (guardedFrom > blackout.answeredAt && (until === Number.POSITIVE_INFINITY || guardedBy < until) && overlapsWindow({ start: Date.parse(given.startTime), end: Date.parse(given.endTime) }, blackout)) {
          insideBlackout.push({ blackout: blackout.id, booking: given.id, why: `${e.type} recorded while the blackout stood`, events: eventsOf(given.id) });
        }
      }
    }

    // Every acknowledged write is in the read model and the log.
    const lostCreates = [...acknowledgedCreates.keys()].filter((id) => !byId.has(id) || !events.some((e) => e.type === 'BookingCreated' && (e.data as any).booking?.id === id));
    const lostCancels = [...acknowledgedCancels].filter((id) => byId.get(id)?.status !== 'cancelled');
    const lostBlackouts = blackouts.filter((b) => b.deleteSentAt === undefined && !storedBlackoutIds.has(b.id)).map((b) => b.id);
    const lostDeletes = blackouts.filter((b) => b.deleted && storedBlackoutIds.has(b.id)).map((b) => b.id);

    const operations = [...outcomes.values()].reduce((a, b) => a + b, 0);
    console.log(
      JSON.stringify(
        {
          loadMs,
          operations,
          outcomes: Object.fromEntries([...outcomes].sort()),
          outages,
          quotaPeriods: Object.fromEntries(
            quotas.map((q) => [`${q.limit} ${q.unit} a day`, quotaPeriods.filter((p) => p.quota === q.unit).map((p) => `${p.day.slice(5)}: ${p.used}`).join(', ')]),
          ),
          overruns: overruns.length,
          blackouts: {
            acknowledged: blackouts.length,
            cancelExisting: blackouts.filter((b) => b.cancelExisting).length,
            deleted: blackouts.filter((b) => b.deleted).length,
            affected: blackouts.reduce((n, b) => n + b.affected.length, 0),
          },
          bookingsInsideBlackouts: insideBlackout.length,
          lostWrites: lostCreates.length + lostCancels.length + lostBlackouts.length + lostDeletes.length,
          fiveHundreds: fiveHundreds.length,
        },
        null,
        2,
      ),
    );
    if (insideBlackout.length) {
      const blackoutEvents = (id: string) =>
        events
          .filter((e) => (e.data as { blackout?: { id?: string }; blackoutId?: string }).blackout?.id === id || (e.data as { blackoutId?: string }).blackoutId === id)
          .map((e) => ({ position: e.global_position, type: e.type, recordedAt: e.recorded_at, data: e.data }));
      const detail = insideBlackout.slice(0, 5).map((v) => ({ ...v, acknowledged: blackouts.find((b) => b.id === v.blackout), blackoutEvents: blackoutEvents(v.blackout) }));
      console.log(JSON.stringify(detail, null, 2));
    }

    expect(overruns, JSON.stringify(overruns)).to.deep.equal([]);
    expect(insideBlackout.map(({ blackout, booking, why }) => ({ blackout, booking, why }))).to.deep.equal([]);
    expect({ lostCreates, lostCancels, lostBlackouts, lostDeletes }).to.deep.equal({ lostCreates: [], lostCancels: [], lostBlackouts: [], lostDeletes: [] });
    expect(fiveHundreds, JSON.stringify(fiveHundreds.slice(0, 3))).to.deep.equal([]);
    for (const outage of outages) expect(outage.recoveryMs, outage.kind).to.be.at.most(outage.kind.startsWith('pg_ctlcluster') ? 20_000 : 8_000);
    // The run exercised the rules: the quota refused and bookings met blackouts.
    expect(outcomes.get('quota create 422') ?? 0, 'quota refusals').to.be.greaterThan(0);
    expect(blackouts.length).to.be.greaterThan(3);
    for (const api of apis) expect(api.child.exitCode).to.equal(null);
  });
});
