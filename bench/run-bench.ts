/**
 * npm run bench [-- --seconds N] [--only name,name] [--pgbench-scale N] [--cpu-prof DIR] [--skip-pgbench] [--keep-database]:
 * pgbench tpcb-like on the same PostgreSQL server first, then the service in production mode (API role) against a fresh,
 * seeded database, then every workload of bench/workloads/index.ts, printed beside pgbench's tps.
 * Needs DB_HOST and the PostgreSQL client tools (pgbench).
 * The free search's workloads (free-resources, free-resources-series) run only when named in --only:
 * they seed a workspace of their own, 2,000 rooms and 300,000 bookings, which takes minutes
 * (bench/seed-free-search.ts). --keep-database leaves the scratch database for EXPLAIN afterwards.
 */
import { generateKeyPairSync } from 'node:crypto';
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import jwt from 'jsonwebtoken';
import { createDatabase, type Database } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { createPostgresEventStore } from '../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../src/projections/projectors.js';
import { createScratchDatabase } from '../tests/support/scratch-database.js';
import { startServiceProcess, type ServiceProcess } from '../tests/support/service-process.js';
import { summariseCpuProfile } from './cpu-profile-summary.js';
import { freePort } from './free-port.js';
import { measure, type Measurement } from './measure.js';
import { measureDroppingBodies, measureInThreads } from './measure-dropping-bodies.js';
import { pgbenchTps } from './pgbench.js';
import { seedBenchData } from './seed-bench-data.js';
import type { BenchContext, WorkloadResult } from './workload.js';
import { workloads } from './workloads/index.js';
import { creates } from './workloads/creates.js';

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    only: { type: 'string' },
    'pgbench-scale': { type: 'string', default: '32' },
    'cpu-prof': { type: 'string' },
    'skip-pgbench': { type: 'boolean', default: false },
    'web-concurrency': { type: 'string' },
    'keep-database': { type: 'boolean', default: false },
  },
});
const seconds = Number(options.seconds);
const connections = 32;
const sizes = { spreadResources: 200, busyBookings: 3000, historyEvents: 0 };
const minute = 60_000;
const chosen = options.only ? workloads.filter((w) => options.only!.split(',').includes(w.name)) : workloads;
if (!(seconds > 0) || chosen.length === 0) {
  console.error(`usage: npm run bench -- [--seconds N] [--only ${workloads.map((w) => w.name).join(',')}] [--pgbench-scale N]`);
  process.exit(2);
}

const fixed = (value: number | undefined, digits = 1) => (value === undefined ? '' : value.toFixed(digits));

function row(result: WorkloadResult, tps: number): string {
  const target = result.target?.(tps);
  const errors = result.unexpected && Object.keys(result.unexpected).length ? JSON.stringify(result.unexpected) : result.unexpected ? '0' : '';
  const figure = result.unit ? `${fixed(result.perSecond, 1)} ${result.unit}` : fixed(result.perSecond, 0);
  const ratio = result.unit ? '' : `${(result.perSecond / tps).toFixed(2)} ×`;
  const verdict = target ? `${target.text}: ${target.met ? 'met' : 'MISSED'}` : (result.note ?? '');
  return `| ${result.name} | ${figure} | ${ratio} | ${fixed(result.p50)} | ${fixed(result.p95)} | ${fixed(result.p99)} | ${errors} | ${fixed(result.clientCpuMs, 2)} | ${verdict} |`;
}

/**
 * Leaves the server as a running service would find it: statistics of the seeded tables known and
 * pgbench's and the seed's dirty pages written, so that no workload pays for an earlier phase's
 * autovacuum or checkpoint. CHECKPOINT needs a superuser or pg_checkpoint; without, it is skipped.
 */
async function settle(db: Database): Promise<void> {
  await sql`vacuum (analyze)`.execute(db);
  await sql`checkpoint`.execute(db).catch((error: unknown) => console.error(`bench: no CHECKPOINT before the workloads (${error instanceof Error ? error.message : String(error)})`));
}

/** Waits (up to 3 minutes) until the service answers /health within 100 ms three times in a row: nothing queued. */
async function drained(url: string): Promise<void> {
  for (let quick = 0, attempt = 0; quick < 3 && attempt < 600; attempt++) {
    const start = Date.now();
    await fetch(`${url}/booking/v1/health`).then((r) => r.arrayBuffer(), () => undefined);
    quick = Date.now() - start < 100 ? quick + 1 : 0;
    await sleep(200);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  console.error(`pgbench tpcb-like, ${connections} clients, ${seconds} s …`);
  const pgbench = options['skip-pgbench'] ? { tps: NaN, version: 'skipped' } : await pgbenchTps({ clients: connections, seconds, scale: Number(options['pgbench-scale']) });

  const database = await createScratchDatabase('booking_bench');
  let service: ServiceProcess | undefined;
  const db = createDatabase(database.config);
  try {
    await migrateToLatest(db);
    const seedStart = Date.now();
    const data = await seedBenchData(db, createPostgresEventStore(db, { projections: projectors }), sizes);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    await settle(db);
    const postgres = await sql<{ version: string }>`select version()`.execute(db);

    const key = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    // Every request is counted against the rate limit (its cost is measured) but never refused: the bench sends far more than 1200 a minute as one subject.
    const serviceEnv = { ...database.env, APP_ENV: 'production', PLATFORM_AUTH_ENDPOINT: key.publicKey, LOG_LEVEL: 'warn', DATA_DIR: `/tmp/booking-bench-${process.pid}`, RATE_LIMIT_PER_MINUTE: '1000000000', ...(options['web-concurrency'] ? { WEB_CONCURRENCY: options['web-concurrency'] } : {}) };
    const profileDir = options['cpu-prof'] ? path.resolve(options['cpu-prof']) : undefined;
    const spawnedAt = Date.now();
    service = await startServiceProcess({ ...serviceEnv, PORT: String(await freePort()) }, ['--role', 'api'], profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
    const tokenFor = (workspace: string, as = { level: 'LV2', sub: 'bench-admin' }) => jwt.sign({ sub: as.sub, workspace, roles: [as.level], email: 'bench@example.com' }, key.privateKey, { algorithm: 'RS256', expiresIn: 3600 });
    const token = tokenFor(data.workspace);
    const futureMs = Math.ceil((Date.now() + 40 * 24 * 60 * minute) / (60 * minute)) * 60 * minute;
    const url = service.url;
    const ctx: BenchContext = {
      url,
      token,
      tokenFor,
      named: options.only?.split(',') ?? [],
      data,
      database: database.config,
      serviceEnv,
      seconds,
      connections,
      futureMs,
      http: (scenario) => measure(url, token, { connections, seconds, ...scenario }),
      httpDroppingBodies: (scenario) => measureDroppingBodies(url, token, { connections, seconds, ...scenario }),
      httpInThreads: (scenario) => measureInThreads(url, token, { connections, seconds, threads: Math.min(os.cpus().length, connections), ...scenario }),
    };

    // Warm-up (not reported): JIT, connection pool, plan caches. Not when profiling: the profile
    // would mix creates and reads into the workloads asked for.
    if (!profileDir) await ctx.http({ name: 'warm-up', method: 'GET', next: () => ({ path: `/booking/v1/bookings/${data.busy.bookingIds[0]}` }), expect: 200, seconds: 2 });
    if (!profileDir) await ctx.http({ name: 'warm-up', method: 'POST', next: creates(data.spread, futureMs + 365 * 24 * 60 * minute), expect: 201, seconds: 2 });

    const results: WorkloadResult[] = [];
    let requests = 0;
    const loadStartedAt = Date.now();
    const count = (m: Measurement) => ((requests += m.requests), m);
    const counted: BenchContext = { ...ctx, http: async (scenario) => count(await ctx.http(scenario)), httpDroppingBodies: async (scenario) => count(await ctx.httpDroppingBodies(scenario)), httpInThreads: async (scenario) => count(await ctx.httpInThreads(scenario)) };
    for (const workload of chosen) {
      console.error(`${workload.name} …`);
      results.push(...(await workload.run(profileDir ? counted : ctx)));
    }

    const cpu = os.cpus();
    const lines = [
      `Machine: ${cpu.length} CPUs (${cpu[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`,
      `Node ${process.version}; ${postgres.rows[0]!.version.split(' on ')[0]} on the same machine; autocannon in the bench process (the 30-day schedules through undici, bodies dropped unread; the cached ones from one client thread per CPU), ${connections} connections, ${seconds} s per run`,
      `Seeded in ${seedSeconds.toFixed(1)} s: ${sizes.spreadResources} + 4 resources, ${sizes.busyBookings.toLocaleString('en')} bookings in 30 days on the busy one`,
      `pgbench tpcb-like (${pgbench.version}, scale ${options['pgbench-scale']}, ${connections} clients): ${pgbench.tps.toFixed(0)} tps`,
      '',
      '| Workload | per s | × pgbench | p50 ms | p95 ms | p99 ms | non-2xx | client CPU ms/answer | target |',
      '|---|---:|---:|---:|---:|---:|---|---:|---|',
      ...results.map((r) => row(r, pgbench.tps)),
      '',
      `Total bench time ${((Date.now() - started) / 1000).toFixed(0)} s`,
    ];
    console.log(`\n${lines.join('\n')}`);
    // autocannon drops its sockets at the end of a run; let commands still queued finish first.
    await sleep(1_000);
    if (profileDir) {
      // Slow answers (a free search at seconds each) stay queued in the HTTP processes after the load stops; a process
      // still busy past the primary's grace period is killed without writing its profile. Stop once /health answers at once.
      await drained(service.url);
      await service.stop();
      // One profile per process and thread (CPU.<date>.<time>.<pid>.<thread>.<n>): thread 0 serves requests, tsx loads
      // modules in another. Every process of the service (the primary and its WEB_CONCURRENCY HTTP processes) counts.
      const files = (await readdir(profileDir)).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f) && statSync(path.join(profileDir, f)).mtimeMs >= spawnedAt).map((f) => path.join(profileDir, f));
      if (files.length) console.log(`\nCPU profile of the service (${files.length} processes, ${profileDir}):\n\n${await summariseCpuProfile(files, requests, { skipMs: loadStartedAt - spawnedAt })}`);
    }
  } finally {
    await service?.stop();
    await db.destroy();
    if (options['keep-database']) console.error(`bench: database ${database.config.database} kept (--keep-database); drop it when done`);
    else await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
