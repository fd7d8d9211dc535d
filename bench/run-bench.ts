/**
 * npm run bench: the service in production mode (API role) against a fresh PostgreSQL database,
 * seeded, then measured with autocannon at 32 connections per scenario. Needs DB_HOST.
 */
import { generateKeyPairSync } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import jwt from 'jsonwebtoken';
import { createDatabase } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { createPostgresEventStore } from '../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../src/projections/projectors.js';
import { createScratchDatabase } from '../tests/support/scratch-database.js';
import { measure, type Measurement, type Scenario } from './measure.js';
import { seedBenchData, type BenchResource } from './seed-bench-data.js';
import { startServiceProcess, type ServiceProcess } from '../tests/support/service-process.js';
import { freePort } from './free-port.js';

const connections = 32;
const sizes = { spreadResources: 64, busyBookings: 3000, historyEvents: 50_000 };
const limits = { crud: { spec: 200, goal: 20 }, schedule: { spec: 500, goal: 50 } };

const minute = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Creates of distinct half-hour slots: slot k of resource k mod n, counting up from `fromMs`. */
function creates(resources: BenchResource[], fromMs: number): () => { path: string; body: unknown } {
  let k = 0;
  return () => {
    const resource = resources[k % resources.length]!;
    const startMs = fromMs + Math.floor(k / resources.length) * 30 * minute;
    k += 1;
    return {
      path: '/booking/v1/bookings',
      body: { resourceType: 'zone', resourceId: resource.zoneId, title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 30 * minute) },
    };
  };
}

function merged(name: string, runs: Measurement[]): Measurement {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
  const seconds = runs.reduce((s, r) => s + r.requests / r.perSecond, 0);
  const unexpected: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.unexpected)) unexpected[k] = (unexpected[k] ?? 0) + v;
  return { name, requests: latencies.length, perSecond: latencies.length / seconds, p50: at(50), p95: at(95), p99: at(99), unexpected, latencies };
}

const ms = (value: number) => value.toFixed(1);
const change = (a: number, b: number) => `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(0)} %`;
const comparison = (history: Measurement, fresh: Measurement) =>
  `p50 ${ms(history.p50)} vs ${ms(fresh.p50)} ms (${change(history.p50, fresh.p50)}), p95 ${ms(history.p95)} vs ${ms(fresh.p95)} ms (${change(history.p95, fresh.p95)}); goal: within 20 %`;

function row(m: Measurement, kind: keyof typeof limits | null): string {
  const limit = kind ? limits[kind] : null;
  const verdict = !limit ? '' : m.p95 < limit.goal ? 'goal met' : m.p95 < limit.spec ? 'within spec, goal missed' : 'SPEC MISSED';
  const errors = Object.keys(m.unexpected).length ? JSON.stringify(m.unexpected) : '0';
  return `| ${m.name} | ${m.perSecond.toFixed(0)} | ${ms(m.p50)} | ${ms(m.p95)} | ${ms(m.p99)} | ${errors} | ${limit ? `${limit.spec} / ${limit.goal}` : ''} | ${verdict} |`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const database = await createScratchDatabase('booking_bench');
  let service: ServiceProcess | undefined;
  const db = createDatabase(database.config);
  try {
    await migrateToLatest(db);
    const seedStart = Date.now();
    const data = await seedBenchData(db, createPostgresEventStore(db, { projections: projectors }), sizes);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    const postgres = await sql<{ version: string }>`select version()`.execute(db);

    const key = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    service = await startServiceProcess(
      {
        ...database.env,
        PORT: String(await freePort()),
        APP_ENV: 'production',
        PLATFORM_AUTH_ENDPOINT: key.publicKey,
        LOG_LEVEL: 'warn',
        DATA_DIR: `/tmp/booking-bench-${process.pid}`,
      },
      ['--role', 'api'],
    );
    const token = jwt.sign({ sub: 'bench-admin', workspace: data.workspace, roles: ['LV2'], email: 'bench@example.com' }, key.privateKey, {
      algorithm: 'RS256',
      expiresIn: 3600,
    });

    const now = Date.now();
    const futureMs = Math.ceil((now + 2 * 24 * 60 * minute) / (60 * minute)) * 60 * minute;
    const firstDay = data.busy.firstDay;
    const from = firstDay.toZonedDateTime('Europe/Berlin').toInstant();
    const scheduleQuery = `from=${encodeURIComponent(from.toString())}&to=${encodeURIComponent(from.add({ hours: 30 * 24 }).toString())}&tz=Europe/Berlin`;
    const listQuery = `resourceId=${data.busy.zoneId}&from=${from.toString()}&to=${from.add({ hours: 7 * 24 }).toString()}&limit=20`;
    const randomBooking = () => data.busy.bookingIds[Math.floor(Math.random() * data.busy.bookingIds.length)]!;
    let slotDay = 0;
    const run = (s: Omit<Scenario, 'connections'> & { connections?: number }) => measure(service!.url, token, { connections, ...s });

    // Warm-up (not reported): JIT, connection pool, plan caches.
    await run({ name: 'warm-up', method: 'GET', next: () => ({ path: `/booking/v1/bookings/${randomBooking()}` }), expect: 200, seconds: 3 });
    await run({ name: 'warm-up', method: 'POST', next: creates(data.spread, futureMs + 365 * 24 * 60 * minute), expect: 201, seconds: 2 });

    const results: [Measurement, keyof typeof limits | null][] = [];
    results.push([await run({ name: 'create, 64 resources', method: 'POST', next: creates(data.spread, futureMs), expect: 201, seconds: 8 }), 'crud']);
    results.push([await run({ name: 'create, one resource (contended)', method: 'POST', next: creates([data.contended], futureMs), expect: 201, seconds: 8 }), 'crud']);
    results.push([await run({ name: 'read one booking', method: 'GET', next: () => ({ path: `/booking/v1/bookings/${randomBooking()}` }), expect: 200, seconds: 6 }), 'crud']);
    results.push([await run({ name: 'list (resource, 7 days, limit 20)', method: 'GET', next: () => ({ path: `/booking/v1/bookings?${listQuery}` }), expect: 200, seconds: 6 }), 'crud']);
    results.push([
      await run({ name: 'schedule, 30 days, 3,000-booking resource', method: 'GET', next: () => ({ path: `/booking/v1/resources/${data.busy.id}/schedule?${scheduleQuery}` }), expect: 200, seconds: 8 }),
      'schedule',
    ]);
    results.push([
      await run({
        name: 'available-slots, one day',
        method: 'GET',
        next: () => ({ path: `/booking/v1/resources/${data.busy.id}/available-slots?date=${firstDay.add({ days: slotDay++ % 30 }).toString()}&tz=Europe/Berlin` }),
        expect: 200,
        seconds: 6,
      }),
      'schedule',
    ]);

    // History must not slow creates: alternate the two resources so drift hits both alike.
    const freshCreates = creates([data.fresh], futureMs);
    const historyCreates = creates([data.history], futureMs);
    const freshRuns: Measurement[] = [];
    const historyRuns: Measurement[] = [];
    for (let round = 0; round < 2; round++) {
      freshRuns.push(await run({ name: 'fresh', method: 'POST', next: freshCreates, expect: 201, seconds: 4 }));
      historyRuns.push(await run({ name: 'history', method: 'POST', next: historyCreates, expect: 201, seconds: 4 }));
    }
    const fresh = merged('create, fresh stream (1 event)', freshRuns);
    const history = merged(`create, stream of ${sizes.historyEvents.toLocaleString('en')} events`, historyRuns);
    results.push([fresh, 'crud'], [history, 'crud']);

    // Service time without queueing: one connection, one request at a time.
    const alone: [Measurement, keyof typeof limits | null][] = [];
    const single = (m: Omit<Scenario, 'connections'>) => run({ ...m, connections: 1 });
    alone.push([await single({ name: 'create, 64 resources', method: 'POST', next: creates(data.spread, futureMs + 2 * 365 * 24 * 60 * minute), expect: 201, seconds: 3 }), 'crud']);
    alone.push([await single({ name: 'read one booking', method: 'GET', next: () => ({ path: `/booking/v1/bookings/${randomBooking()}` }), expect: 200, seconds: 3 }), 'crud']);
    alone.push([await single({ name: 'schedule, 30 days, 3,000-booking resource', method: 'GET', next: () => ({ path: `/booking/v1/resources/${data.busy.id}/schedule?${scheduleQuery}` }), expect: 200, seconds: 3 }), 'schedule']);
    const freshAlone = await single({ name: 'create, fresh stream (1 event)', method: 'POST', next: freshCreates, expect: 201, seconds: 3 });
    const historyAlone = await single({ name: `create, stream of ${sizes.historyEvents.toLocaleString('en')} events`, method: 'POST', next: historyCreates, expect: 201, seconds: 3 });
    alone.push([freshAlone, 'crud'], [historyAlone, 'crud']);

    const cpu = os.cpus();
    const lines = [
      `Machine: ${cpu.length} CPUs (${cpu[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${os.type()} ${os.release()}`,
      `Node ${process.version}; ${postgres.rows[0]!.version.split(' on ')[0]} on the same machine; autocannon in the same machine, ${connections} connections`,
      `Seeded in ${seedSeconds.toFixed(1)} s: ${sizes.spreadResources} + 4 resources, ${sizes.busyBookings.toLocaleString('en')} bookings on the busy one, ${sizes.historyEvents.toLocaleString('en')} history events`,
      '',
      '| Scenario | req/s | p50 ms | p95 ms | p99 ms | non-2xx | spec / goal p95 ms | verdict |',
      '|---|---:|---:|---:|---:|---|---|---|',
      ...results.map(([m, kind]) => row(m, kind)),
      '',
      'One connection (service time, no queueing):',
      '',
      '| Scenario | req/s | p50 ms | p95 ms | p99 ms | non-2xx | spec / goal p95 ms | verdict |',
      '|---|---:|---:|---:|---:|---|---|---|',
      ...alone.map(([m, kind]) => row(m, kind)),
      '',
      `History vs fresh stream, ${connections} connections: ${comparison(history, fresh)}`,
      `History vs fresh stream, one connection: ${comparison(historyAlone, freshAlone)}`,
      `Total bench time ${((Date.now() - started) / 1000).toFixed(0)} s`,
    ];
    console.log(`\n${lines.join('\n')}`);
    // autocannon drops its sockets at the end of a run; let commands still queued finish first.
    await sleep(1_000);
  } finally {
    await service?.stop();
    await db.destroy();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
