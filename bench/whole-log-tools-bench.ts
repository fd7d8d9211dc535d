import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import jwt from 'jsonwebtoken';
import { sql } from 'kysely';
import pg from 'pg';
import { Temporal } from 'temporal-polyfill';
import { archivableStatuses } from '../src/domain/booking/decide-archive-bookings.js';
import { createDatabase } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { buildLongLog } from '../tests/support/long-log.js';
import { adminStatement, createScratchDatabase, postgresServer, type ScratchDatabase } from '../tests/support/scratch-database.js';
import { startServiceProcess } from '../tests/support/service-process.js';
import { processTree, runTool } from '../tests/support/tool-run.js';
import { freePort } from './free-port.js';

/**
 * The whole-log tools of contract §20 timed on a log kept as a template database, each run on a
 * fresh copy of it, as an operator runs them (`npm run …` in the current directory, so that another
 * checkout's tools can be timed on the same log: run this file from there).
 *
 *   tsx bench/whole-log-tools-bench.ts --build 100000 --template booking_log_100k   (once)
 *   tsx bench/whole-log-tools-bench.ts --template booking_log_100k [--tools rebuild,verify-log,replay,feed,archive]
 *
 * Beside each rate: the CPU seconds of the tool's processes and of the PostgreSQL backends serving
 * it (sampled every 100 ms from /proc, so the machine's other load does not count), and the tool's
 * peak RSS. DB_HOST (and DB_PORT, DB_USERNAME) name the server. `--cpu-prof <dir>`: the service of
 * the audit feed writes a V8 CPU profile there.
 */
const { values: options } = parseArgs({
  options: { build: { type: 'string' }, template: { type: 'string' }, tools: { type: 'string' }, 'cpu-prof': { type: 'string' }, 'end-days-ago': { type: 'string', default: '3' } },
});
if (!postgresServer || !options.template) {
  console.error('usage: DB_HOST=… tsx bench/whole-log-tools-bench.ts --template <database> [--build <events>] [--tools rebuild,verify-log,replay,feed,archive]');
  process.exit(2);
}
const template = options.template;
const dayMs = 24 * 3_600_000;

const clockTicks = 100;

/** utime + stime of a process, in seconds; 0 once it is gone. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return 0;
  }
}

/** Watches the CPU time of the backends connected to `database` and of the process tree of `root` while a tool runs. */
function cpuWatch(database: string, processes: () => number[]): { stop(): Promise<{ toolCpu: number; postgresCpu: number }> } {
  const seen = { tool: new Map<number, number>(), postgres: new Map<number, number>() };
  const client = new pg.Client({ ...postgresServer!, database: 'postgres' });
  const connected = client.connect();
  let busy = false;
  const sample = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const pid of processes()) seen.tool.set(pid, Math.max(seen.tool.get(pid) ?? 0, cpuSecondsOf(pid)));
      await connected;
      const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database]);
      for (const { pid } of rows) seen.postgres.set(pid, Math.max(seen.postgres.get(pid) ?? 0, cpuSecondsOf(pid)));
    } finally {
      busy = false;
    }
  };
  // A sample still under way when the watch stops finds the client closed: nothing to count any more.
  const timer = setInterval(() => void sample().catch(() => undefined), 100);
  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    async stop() {
      clearInterval(timer);
      await client.end();
      return { toolCpu: sum(seen.tool), postgresCpu: sum(seen.postgres) };
    },
  };
}

async function copyOfTemplate(): Promise<ScratchDatabase> {
  return createScratchDatabase('booking_wlt', template);
}

async function count(database: ScratchDatabase, query: string): Promise<number> {
  const client = new pg.Client({ ...postgresServer!, database: database.name });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(query)).rows[0]!.n);
  } finally {
    await client.end();
  }
}

type Figure = { tool: string; items: number; unit: string; seconds: number; perSecond: number; peakRssMB?: number; toolCpu: number; postgresCpu: number };

/** `items`: how many the tool handles, counted before it runs; 'lines': the lines it writes to stdout. */
async function timeTool(tool: string, script: string, args: string[], items: ((database: ScratchDatabase) => Promise<number>) | 'lines', unit = 'events'): Promise<Figure> {
  const database = await copyOfTemplate();
  try {
    let n = items === 'lines' ? 0 : await items(database);
    let root = 0;
    const watch = cpuWatch(database.name, () => (root ? processTree(root) : []));
    const run = await runTool(script, args, database.env, { onStdoutLine: () => void (items === 'lines' && n++), onSpawn: (pid) => (root = pid) });
    const { toolCpu, postgresCpu } = await watch.stop();
    if (run.code !== 0) throw new Error(`${script} exited ${run.code}: ${run.stderr}`);
    const seconds = run.ms / 1000;
    return { tool, items: n, unit, seconds, perSecond: n / seconds, peakRssMB: run.peakRssBytes / 1024 / 1024, toolCpu, postgresCpu };
  } finally {
    await database.drop();
  }
}

/** The audit feed paged to the end over HTTP (limit 1000) from a service process of this checkout. */
async function timeFeed(): Promise<Figure> {
  const database = await copyOfTemplate();
  const key = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const service = await startServiceProcess(
    { ...database.env, APP_ENV: 'production', PLATFORM_AUTH_ENDPOINT: key.publicKey, LOG_LEVEL: 'warn', DATA_DIR: `/tmp/booking-wlt-${process.pid}`, RATE_LIMIT_PER_MINUTE: '1000000000', PORT: String(await freePort()) },
    ['--role', 'api'],
    options['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', options['cpu-prof']] : [],
  );
  try {
    await drained(service.url);
    const token = jwt.sign({ sub: 'root', roles: ['LV1'] }, key.privateKey, { algorithm: 'RS256', expiresIn: 3600 });
    const watch = cpuWatch(database.name, () => processTree(service.child.pid!));
    const started = Date.now();
    let fed = 0;
    for (let after = 0; ; ) {
      const res = await fetch(`${service.url}/booking/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${await res.text()}`);
      const page = (await res.json()) as { events: unknown[]; next: number };
      fed += page.events.length;
      if (page.next === after) break;
      after = page.next;
    }
    const seconds = (Date.now() - started) / 1000;
    const { toolCpu, postgresCpu } = await watch.stop();
    return { tool: 'audit feed (HTTP, limit 1000)', items: fed, unit: 'events', seconds, perSecond: fed / seconds, toolCpu, postgresCpu };
  } finally {
    await service.stop();
    await database.drop();
  }
}

/** Waits until the service answers /health within 100 ms three times in a row: its processes have all started. */
async function drained(url: string): Promise<void> {
  for (let quick = 0, attempt = 0; quick < 3 && attempt < 600; attempt++) {
    const start = Date.now();
    await fetch(`${url}/booking/v1/health`).then((r) => r.arrayBuffer(), () => undefined);
    quick = Date.now() - start < 100 ? quick + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function build(events: number): Promise<void> {
  await adminStatement(`drop database if exists ${template} with (force)`);
  await adminStatement(`create database ${template}`);
  const db = createDatabase({ kind: 'postgres', ...postgresServer!, database: template, poolSize: 8 });
  try {
    await migrateToLatest(db);
    const started = Date.now();
    const endMs = Temporal.Now.instant().epochMilliseconds - Number(options['end-days-ago']) * dayMs;
    const { bookings } = await buildLongLog(db, events, endMs);
    await sql`vacuum (analyze)`.execute(db);
    const total = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]!.n);
    const seconds = (Date.now() - started) / 1000;
    console.error(`built ${template}: ${total} events, ${bookings} bookings in ${seconds.toFixed(0)} s (${(total / seconds).toFixed(0)} events/s)`);
  } finally {
    await db.destroy();
  }
}

const logEvents = (database: ScratchDatabase) => count(database, 'select count(*) as n from events');

/** The older half of the bookings, as the whole-log test archives them: every booking that ended before the middle of the log. */
async function archiveCutoff(database: ScratchDatabase): Promise<{ before: string; due: number }> {
  const client = new pg.Client({ ...postgresServer!, database: database.name });
  await client.connect();
  try {
    const { rows } = await client.query<{ middle: Date }>('select min(end_time) + (max(end_time) - min(end_time)) / 2 as middle from bookings');
    const before = rows[0]!.middle.toISOString();
    const due = await client.query<{ n: string }>('select count(*) as n from bookings where end_time < $1 and status = any($2)', [before, archivableStatuses]);
    return { before, due: Number(due.rows[0]!.n) };
  } finally {
    await client.end();
  }
}

const tools: Record<string, () => Promise<Figure>> = {
  rebuild: () => timeTool('rebuild-read-models', 'rebuild-read-models', [], logEvents),
  'verify-log': () => timeTool('verify-log', 'verify-log', [], logEvents),
  replay: () => timeTool('replay to stdout', 'replay', ['--after', '0', '--to', 'stdout'], 'lines'),
  feed: timeFeed,
  archive: async () => {
    const probe = await copyOfTemplate();
    const { before } = await archiveCutoff(probe).finally(() => probe.drop());
    return timeTool('archive (older half)', 'archive', ['--before', before], async (database) => (await archiveCutoff(database)).due, 'bookings');
  },
};

if (options.build) await build(Number(options.build));
const chosen = options.tools ? options.tools.split(',') : Object.keys(tools);
const figures: Figure[] = [];
for (const name of chosen) {
  const run = tools[name];
  if (!run) throw new Error(`no tool ${name}: ${Object.keys(tools).join(', ')}`);
  const figure = await run();
  figures.push(figure);
  console.error(
    `${figure.tool}: ${figure.items} ${figure.unit} in ${figure.seconds.toFixed(1)} s = ${figure.perSecond.toFixed(0)}/s; CPU: tool ${figure.toolCpu.toFixed(1)} s, postgres ${figure.postgresCpu.toFixed(1)} s` +
      (figure.peakRssMB ? `; peak RSS ${figure.peakRssMB.toFixed(0)} MB` : '') +
      `; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
  );
}
console.log(JSON.stringify({ template, cwd: process.cwd(), at: new Date().toISOString(), figures }));
