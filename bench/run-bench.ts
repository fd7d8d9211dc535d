/**
 * npm run bench [-- --seconds N] [--only name,name] [--pgbench-scale N] [--cpu-prof DIR] [--skip-pgbench] [--keep-database] [--no-analyze] [--scale [--events N]]:
 * pgbench tpcb-like on the same PostgreSQL server first, then the service in production mode (API role) against a fresh,
 * seeded database, then every workload of bench/workloads/index.ts, printed beside pgbench's tps.
 * Needs DB_HOST and the PostgreSQL client tools (pgbench).
 * The free search's workloads (free-resources, free-resources-series) run only when named in --only:
 * they seed a workspace of their own, 2,000 rooms and 300,000 bookings, which takes minutes
 * (bench/seed-free-search.ts). --keep-database leaves the scratch database for EXPLAIN afterwards.
 * --no-analyze seeds without any ANALYZE: the tables as a fresh deployment holds them (no statistics
 * at all, the server's autovacuum off), so a plan that needs statistics shows in the figures.
 * --scale runs the workloads on a small database and on a log of --events events (default 10 million), side by side (scaleMain).
 * --large-database NAME (with --scale) takes the log of a scale run kept with --keep-database that
 * stopped before its workloads, instead of building one: its build, rebuild and archive are not measured again.
 * --against REF [--rounds N] (default 3): a paired run of this checkout and the git ref REF (bench/paired/run-paired.ts),
 * each workload in turns on both builds, no pgbench; without --only, the workloads of pairedByDefault.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { createPostgresEventStore } from '../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../src/projections/projectors.js';
import { createScratchDatabase, scratchDatabaseNamed, type ScratchDatabase } from '../tests/support/scratch-database.js';
import { startServiceProcess, type ServiceProcess } from '../tests/support/service-process.js';
import { benchServiceEnv, settle } from './bench-build.js';
import { benchContext, tokenSigner, warmUp } from './bench-context.js';
import { summariseCpuProfile } from './cpu-profile-summary.js';
import { freePort } from './free-port.js';
import { summarise, type Measurement } from './measure.js';
import { maxRounds, pairedByDefault, runPaired } from './paired/run-paired.js';
import { pgbenchTps } from './pgbench.js';
import { buildScaleLog, type ScaleLog } from './scale/build-scale-log.js';
import { scaleReport } from './scale/scale-report.js';
import { archiveFigures, auditFeedFigure, diskFigures, readingToolFigures, rebuildFigures, type ScaleFigure } from './scale/whole-log-figures.js';
import { seedBenchData, type BenchData, type BenchResource } from './seed-bench-data.js';
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
    'no-analyze': { type: 'boolean', default: false },
    'large-database': { type: 'string' },
    scale: { type: 'boolean', default: false },
    events: { type: 'string', default: '10000000' },
    against: { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
});
const seconds = Number(options.seconds);
const connections = 32;
const sizes = { spreadResources: 200, busyBookings: 3000, historyEvents: 0, freeBusyRooms: 100, roomBookings: 20 };
const minute = 60_000;
const profileDir = options['cpu-prof'] ? path.resolve(options['cpu-prof']) : undefined;
/** --scale: the log's length, its resources, and the events of the long stream a create is timed on. */
const events = Number(options.events);
const scaleResources = 2_000;
const longStreamEvents = 50_000;
const named = options.only?.split(',') ?? (options.against ? pairedByDefault : undefined);
const chosen = named ? workloads.filter((w) => named.includes(w.name)) : workloads;
const rounds = Number(options.rounds);
if (!(seconds > 0) || chosen.length === 0 || !(Number.isSafeInteger(rounds) && rounds >= 1 && rounds <= maxRounds) || !(Number.isSafeInteger(events) && events >= 2 * scaleResources)) {
  console.error(`usage: npm run bench -- [--seconds N] [--only ${workloads.map((w) => w.name).join(',')}] [--pgbench-scale N] [--scale [--events N (≥ ${2 * scaleResources})]] [--against REF [--rounds N (1–${maxRounds})]]`);
  process.exit(2);
}

const analyze = !options['no-analyze'];

const fixed = (value: number | undefined, digits = 1) => (value === undefined ? '' : value.toFixed(digits));

function row(result: WorkloadResult, tps: number): string {
  const target = result.target?.(tps);
  const errors = result.unexpected && Object.keys(result.unexpected).length ? JSON.stringify(result.unexpected) : result.unexpected ? '0' : '';
  const figure = result.unit ? `${fixed(result.perSecond, 1)} ${result.unit}` : fixed(result.perSecond, 0);
  const ratio = result.unit ? '' : `${(result.perSecond / tps).toFixed(2)} ×`;
  const verdict = [target && `${target.text}: ${target.met ? 'met' : 'MISSED'}`, result.note].filter(Boolean).join(' — ');
  return `| ${result.name} | ${figure} | ${ratio} | ${fixed(result.p50)} | ${fixed(result.p95)} | ${fixed(result.p99)} | ${errors} | ${fixed(result.clientCpuMs, 2)} | ${verdict} |`;
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

/** A seeded database with the service running on it, warmed up; `stop` ends the service and closes the pool. */
type Bench = { ctx: BenchContext; rootToken: string; db: Database; seedSeconds: number; postgresVersion: string; spawnedAt: number; service: ServiceProcess; stop(): Promise<void> };

/** Seeds the database, settles the server, starts the service in production mode and warms it up. */
async function startBench(database: ScratchDatabase, seed: (db: Database) => Promise<BenchData>): Promise<Bench> {
  let service: ServiceProcess | undefined;
  const db = createDatabase(database.config);
  try {
    await migrateToLatest(db);
    const seedStart = Date.now();
    const data = await seed(db);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    console.error(`bench: seeded in ${seedSeconds.toFixed(1)} s; ${analyze ? 'vacuum (analyze) and ' : 'no ANALYZE (--no-analyze); '}checkpoint …`);
    await settle(db, analyze);
    const postgres = await sql<{ version: string }>`select version()`.execute(db);

    const key = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const serviceEnv = benchServiceEnv(database.env, key.publicKey, `/tmp/booking-bench-${process.pid}-${database.name}`, options['web-concurrency']);
    const spawnedAt = Date.now();
    service = await startServiceProcess({ ...serviceEnv, PORT: String(await freePort()) }, ['--role', 'api'], profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
    console.error(`bench: the service is up (${((Date.now() - spawnedAt) / 1000).toFixed(1)} s)`);
    const sign = tokenSigner(key.privateKey);
    const ctx = benchContext({ url: service.url, sign, data, database: database.config, serviceEnv, named: options.only?.split(',') ?? [], analyze, seconds, connections });
    // Not when profiling: the profile would mix creates and reads into the workloads asked for.
    if (!profileDir) await warmUp(ctx);
    const running = service;
    return {
      ctx,
      rootToken: sign({ sub: 'bench-root', workspace: null, roles: ['LV1'] }),
      db,
      seedSeconds,
      postgresVersion: postgres.rows[0]!.version.split(' on ')[0]!,
      spawnedAt,
      service: running,
      async stop() {
        await running.stop();
        await db.destroy();
      },
    };
  } catch (error) {
    await service?.stop();
    await db.destroy();
    throw error;
  }
}

function machineLines(run: Pick<Bench, 'postgresVersion'>): string[] {
  const cpu = os.cpus();
  return [
    `Machine: ${cpu.length} CPUs (${cpu[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`,
    `Node ${process.version}; ${run.postgresVersion} on the same machine; autocannon in the bench process (the 30-day schedules through undici, bodies dropped unread; the cached ones from one client thread per CPU), ${connections} connections, ${seconds} s per run`,
  ];
}

async function dropUnlessKept(database: ScratchDatabase): Promise<void> {
  if (options['keep-database']) console.error(`bench: database ${database.config.database} kept (--keep-database); drop it when done`);
  else await database.drop();
}

async function main(): Promise<void> {
  const started = Date.now();
  console.error(`pgbench tpcb-like, ${connections} clients, ${seconds} s …`);
  const pgbench = options['skip-pgbench'] ? { tps: NaN, version: 'skipped' } : await pgbenchTps({ clients: connections, seconds, scale: Number(options['pgbench-scale']) });

  const database = await createScratchDatabase('booking_bench');
  let bench: Bench | undefined;
  try {
    bench = await startBench(database, (db) => seedBenchData(db, createPostgresEventStore(db, { projections: projectors }), sizes));
    const { ctx } = bench;
    const results: WorkloadResult[] = [];
    let requests = 0;
    const loadStartedAt = Date.now();
    const count = (m: Measurement) => ((requests += m.requests), m);
    const counted: BenchContext = { ...ctx, http: async (scenario) => count(await ctx.http(scenario)), httpDroppingBodies: async (scenario) => count(await ctx.httpDroppingBodies(scenario)), httpInThreads: async (scenario) => count(await ctx.httpInThreads(scenario)) };
    for (const workload of chosen) {
      console.error(`${workload.name} …`);
      results.push(...(await workload.run(profileDir ? counted : ctx)));
    }
    const lines = [
      ...machineLines(bench),
      `Seeded in ${bench.seedSeconds.toFixed(1)} s: ${sizes.spreadResources} + 4 resources, ${sizes.busyBookings.toLocaleString('en')} bookings in 30 days on the busy one; ${sizes.freeBusyRooms} rooms with ${sizes.roomBookings} bookings each in its first week`,
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
      await drained(ctx.url);
      await bench.service.stop();
      // One profile per process and thread (CPU.<date>.<time>.<pid>.<thread>.<n>): thread 0 serves requests, tsx loads
      // modules in another. Every process of the service (the primary and its WEB_CONCURRENCY HTTP processes) counts.
      const spawnedAt = bench.spawnedAt;
      const files = (await readdir(profileDir)).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f) && statSync(path.join(profileDir, f)).mtimeMs >= spawnedAt).map((f) => path.join(profileDir, f));
      if (files.length) console.log(`\nCPU profile of the service (${files.length} processes, ${profileDir}):\n\n${await summariseCpuProfile(files, requests, { skipMs: loadStartedAt - spawnedAt })}`);
    }
  } finally {
    await bench?.stop();
    await dropUnlessKept(database);
  }
}

/** Creates at 8 connections on one resource, pooled from `rounds` runs (each ctx.seconds long). */
async function createsOn(ctx: BenchContext, resource: BenchResource, fromMs: number, name: string, rounds: Measurement[]): Promise<void> {
  rounds.push(await ctx.http({ name, method: 'POST', next: creates([resource], fromMs + rounds.length * 30 * 24 * 60 * minute), expect: 201, connections: 8 }));
}

const pooled = (rounds: Measurement[]): Measurement =>
  summarise(
    { name: rounds[0]!.name, seconds: seconds * rounds.length },
    rounds.flatMap((m) => m.latencies),
    {},
    { user: 0, system: 0 },
  );

/** The figure of the log's build, extrapolated to 10 million events. */
async function buildFigure(db: Database, log: ScaleLog, buildSeconds: number): Promise<ScaleFigure> {
  const built = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]!.n);
  return {
    name: `building the log (${built.toLocaleString('en')} events, ${log.bookings.toLocaleString('en')} bookings, ${log.resources.toLocaleString('en')} resources, ${(buildSeconds / 60).toFixed(1)} min)`,
    value: (buildSeconds * (10_000_000 / built)) / 60,
    unit: 'min for 10 M',
    target: { bound: 20, higherIsBetter: false, text: '10 M events in < 20 min' },
    note: `${(built / buildSeconds).toFixed(0)} events/s${built < 10_000_000 ? ', extrapolated' : ''}`,
  };
}

/** The workspace of a kept scale log (--large-database), which must not hold the bench's own data yet. */
async function keptScaleLog(db: Database): Promise<{ workspace: string }> {
  const { rows } = await sql<{ workspace: string; seeded: boolean }>`
    select workspace, bool_or(resource_id = 'zone-contended') as seeded from resources group by workspace order by count(*) desc limit 1`.execute(db);
  const kept = rows[0];
  if (!kept) throw new Error('--large-database: that database holds no scale log');
  if (kept.seeded) throw new Error('--large-database: the bench data is in that log already (its run reached the workloads); build a new one');
  return { workspace: kept.workspace };
}

/**
 * --scale: a small database and a log of `--events` events built through the store's append
 * (bench/scale/), its read models rebuilt and its first year archived by the operator's tools, each
 * measured; then the bench's own data in the log's workspace, both services running, and every
 * workload on the small database and at once on the large one, so that both meet the same load on
 * a shared machine. See docs/benchmarks.md, "Scale run".
 */
async function scaleMain(): Promise<void> {
  const started = Date.now();
  const small = await createScratchDatabase('booking_scale_small');
  const reused = options['large-database'];
  const large = reused ? scratchDatabaseNamed(reused) : await createScratchDatabase('booking_scale_large');
  const benches: Bench[] = [];
  try {
    const figures: ScaleFigure[] = [];
    const db = createDatabase(large.config);
    let log: { workspace: string };
    try {
      await migrateToLatest(db);
      if (reused) {
        log = await keptScaleLog(db);
      } else {
        const buildStarted = Date.now();
        let told = buildStarted;
        console.error(`scale: building a log of ${events.toLocaleString('en')} events …`);
        const built = await buildScaleLog(db, {
          events,
          resources: scaleResources,
          workspace: randomUUID(),
          onProgress: (written) => {
            if (Date.now() - told < 5_000) return;
            told = Date.now();
            console.error(`scale: ${written.toLocaleString('en')} events in ${((told - buildStarted) / 1000).toFixed(0)} s`);
          },
        });
        log = built;
        figures.push(await buildFigure(db, built, (Date.now() - buildStarted) / 1000));
        await sql`vacuum (analyze) events`.execute(db);
        figures.push(...(await rebuildFigures(db, large.env)));
        figures.push(...(await archiveFigures(db, large.env, built.firstMs)));
      }
      figures.push(...(await readingToolFigures(db, large.env)));
    } finally {
      await db.destroy();
    }

    const seed = (workspace?: string, historyEvents = 0) => (db: Database) =>
      seedBenchData(db, createPostgresEventStore(db, { projections: projectors }), { ...sizes, historyEvents, workspace });
    console.error('scale: the small database …');
    const smallBench = await startBench(small, seed());
    benches.push(smallBench);
    console.error('scale: the bench data in the large log …');
    const largeBench = await startBench(large, seed(log.workspace, longStreamEvents));
    benches.push(largeBench);

    const smallResults: WorkloadResult[] = [];
    const largeResults: WorkloadResult[] = [];
    for (const workload of chosen) {
      console.error(`${workload.name} (small, then large) …`);
      // A workload that fails leaves a line saying so; the others still run.
      const run = (bench: Bench) => workload.run(bench.ctx).catch((error: unknown): WorkloadResult[] => {
        console.error(error);
        return [{ name: workload.name, perSecond: NaN, note: `failed: ${error instanceof Error ? error.message : String(error)}` }];
      });
      smallResults.push(...(await run(smallBench)));
      largeResults.push(...(await run(largeBench)));
    }

    console.error('scale: creates on a resource of 50,000 events and on a fresh one, in turns …');
    const { ctx } = largeBench;
    const fromMs = ctx.futureMs + 2 * 365 * 24 * 60 * minute;
    const fresh: Measurement[] = [];
    const history: Measurement[] = [];
    for (let round = 0; round < 2; round++) {
      await createsOn(ctx, ctx.data.fresh, fromMs, 'create, fresh stream', fresh);
      await createsOn(ctx, ctx.data.history, fromMs, `create, stream of ${longStreamEvents} events`, history);
    }
    const [freshP95, historyP95] = [pooled(fresh).p95, pooled(history).p95];
    figures.push({
      name: `create p95 at 8 connections (two runs each, in turns): stream of ${longStreamEvents.toLocaleString('en')} events ${historyP95.toFixed(1)} ms / fresh stream ${freshP95.toFixed(1)} ms`,
      value: historyP95 / freshP95,
      unit: '×',
      target: { bound: 1.1, higherIsBetter: false, text: '≤ 1.1 ×' },
    });
    figures.push(await auditFeedFigure(ctx.url, largeBench.rootToken));
    figures.push(...(await diskFigures(largeBench.db)));
    console.log(`\n${scaleReport(smallResults, largeResults, figures, [...machineLines(largeBench), `Total scale run ${((Date.now() - started) / 60_000).toFixed(1)} min`]).join('\n')}`);
    await sleep(1_000);
  } finally {
    for (const bench of benches) await bench.stop();
    await dropUnlessKept(small);
    await dropUnlessKept(large);
  }
}

const paired = () =>
  runPaired({ against: options.against!, rounds, seconds, connections, workloads: chosen, named: options.only?.split(',') ?? [], analyze, sizes, webConcurrency: options['web-concurrency'], profileDir });

(options.against ? paired : options.scale ? scaleMain : main)().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
