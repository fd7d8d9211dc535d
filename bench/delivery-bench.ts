/**
 * Delivery bench (contract §12 "Delivery"): a worker process (`--role worker`) relays booking
 * events to a webhook receiver in this process while this process appends them at a steady rate
 * across many resources. Reports the commit-to-delivery latency (from the append's commit
 * acknowledged here to the webhook's arrival here: one clock) and the time to drain after the load
 * stops. Loopback only: needs DB_HOST on this machine; a scratch database is created and dropped.
 *
 *   DB_HOST=127.0.0.1 npx tsx bench/delivery-bench.ts [--rate 500] [--seconds 60] [--resources 200] [--drain-limit 120]
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase, type Database } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { createPostgresEventStore } from '../src/infra/event-store/postgres-event-store.js';
import { createScratchDatabase, type ScratchDatabase } from '../tests/support/scratch-database.js';
import { bookingCreated, sampleBooking } from '../tests/workers/booking-event-fixture.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '60' },
    resources: { type: 'string', default: '200' },
    'drain-limit': { type: 'string', default: '120' },
  },
});
const bounded = (name: string, value: string | undefined, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be an integer from 1 to ${max}, got ${value}`);
  return n;
};
const rate = bounded('rate', values.rate, 5_000);
const seconds = bounded('seconds', values.seconds, 600);
const resourceCount = bounded('resources', values.resources, 10_000);
const drainLimitMs = bounded('drain-limit', values['drain-limit'], 600) * 1_000;
/** Appends in flight at most: the pacing falls behind rather than pile up connections. */
const maxInFlight = 32;

const loopback = new Set(['127.0.0.1', 'localhost', '::1']);
if (!process.env.DB_HOST || !loopback.has(process.env.DB_HOST)) {
  console.error('delivery bench: set DB_HOST to a PostgreSQL server on this machine (127.0.0.1); it creates and drops a scratch database');
  process.exit(2);
}

type Arrival = { at: number; resource: string; sequence: number };

/** The webhook endpoint: answers 204 at once and notes when each event arrived. */
async function startReceiver() {
  const arrivals = new Map<string, Arrival>();
  let duplicates = 0;
  let outOfOrder = 0;
  const lastSequence = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(204).end();
      const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; data: { resourceId: string; title: string } };
      if (arrivals.has(envelope.id)) {
        duplicates += 1;
        return;
      }
      const resource = envelope.data.resourceId;
      const sequence = Number(envelope.data.title);
      if (sequence < (lastSequence.get(resource) ?? -1)) outOfOrder += 1;
      lastSequence.set(resource, sequence);
      arrivals.set(envelope.id, { at, resource, sequence });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    counts: () => ({ duplicates, outOfOrder }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `src/main.ts --role worker` as its own process; its output is kept for the report of a failure. */
function startWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'worker'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-16_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let hasExited = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      hasExited = true;
      resolve();
    }),
  );
  return {
    output: () => output,
    hasExited: () => hasExited,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function relayPlaced(db: Database, worker: ReturnType<typeof startWorker>): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (worker.hasExited()) throw new Error(`the worker exited:\n${worker.output()}`);
    if (await db.selectFrom('processor_checkpoints').select('name').where('name', '=', 'webhook-relay').executeTakeFirst()) return;
    await sleep(50);
  }
  throw new Error('the worker did not start its webhook relay within 30 s');
}

/** Every 5 s: where the backlog stands (events the relay has not queued yet, deliveries queued), to tell which stage lags. */
function sampleBacklog(db: Database, arrivals: Map<string, Arrival>) {
  const started = performance.now();
  const timer = setInterval(() => {
    void Promise.all([
      db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]).then(([events, queued]) => {
      const delivered = arrivals.size;
      const relayBehind = Number(events.n) - Number(queued.n) - delivered;
      console.log(`  t=${((performance.now() - started) / 1_000).toFixed(0)} s: appended ${events.n}, not yet queued ${relayBehind}, queued ${queued.n}, delivered ${delivered}`);
    }, () => undefined);
  }, 5_000);
  return { stop: () => clearInterval(timer) };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function main() {
  let scratch: ScratchDatabase | undefined;
  let db: Database | undefined;
  let worker: ReturnType<typeof startWorker> | undefined;
  const receiver = await startReceiver();
  try {
    scratch = await createScratchDatabase('booking_delivery_bench');
    db = createDatabase({ ...scratch.config, poolSize: maxInFlight + 2 });
    await migrateToLatest(db);
    const eventStore = createPostgresEventStore(db, { projections: [] });

    worker = startWorker({
      ...scratch.env,
      APP_ENV: 'development',
      LOG_LEVEL: 'warn',
      WEBHOOK_ENDPOINT: receiver.url,
      WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    });
    await relayPlaced(db, worker);

    const workspace = randomUUID();
    const resources = Array.from({ length: resourceCount }, (_, i) => ({ uuid: randomUUID(), resourceId: `zone-${i}`, next: 0, tail: Promise.resolve() }));
    const committed = new Map<string, number>();
    let failed = 0;
    let inFlight = 0;
    let behind = 0;
    const total = rate * seconds;

    const appendOne = (k: number) => {
      const resource = resources[k % resources.length]!;
      // Appends of one resource go one after the other, so that its commit order is its sequence.
      const sequence = resource.next++;
      resource.tail = resource.tail.then(() => appendEvent(resource, sequence));
      return resource.tail;
    };
    const appendEvent = async (resource: (typeof resources)[number], sequence: number) => {
      const booking = sampleBooking({ workspace, bookableResourceId: resource.uuid, resourceId: resource.resourceId, title: String(sequence) });
      const id = randomUUID();
      try {
        await eventStore.appendToStream(`resource-${resource.uuid}`, [{ ...bookingCreated(booking), id }], 'any');
        committed.set(id, performance.now());
      } catch {
        failed += 1;
      }
    };

    console.log(`delivery bench: ${rate} events/s for ${seconds} s across ${resourceCount} resources (${total} events)`);
    const sampler = sampleBacklog(db, receiver.arrivals);
    const started = performance.now();
    const pending = new Set<Promise<void>>();
    for (let k = 0; k < total; ) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1_000) * rate));
      while (k < due && inFlight < maxInFlight) {
        inFlight += 1;
        const append = appendOne(k).finally(() => {
          inFlight -= 1;
          pending.delete(append);
        });
        pending.add(append);
        k += 1;
      }
      behind = Math.max(behind, due - k);
      await sleep(5);
    }
    await Promise.all(pending);
    const loadEnded = performance.now();
    const achieved = committed.size / ((loadEnded - started) / 1_000);

    while (receiver.arrivals.size < committed.size && performance.now() - loadEnded < drainLimitMs) await sleep(10);
    const lastArrival = Math.max(...[...receiver.arrivals.values()].map((a) => a.at));
    const drained = receiver.arrivals.size >= committed.size;

    sampler.stop();
    const latencies = [...committed].flatMap(([id, at]) => {
      const arrival = receiver.arrivals.get(id);
      // A webhook may arrive before this process has seen its commit acknowledged: no delay.
      return arrival ? [Math.max(0, arrival.at - at)] : [];
    });
    latencies.sort((a, b) => a - b);
    const { duplicates, outOfOrder } = receiver.counts();
    const p99 = percentile(latencies, 99);

    console.log(`appended: ${committed.size} committed (${achieved.toFixed(0)}/s achieved), ${failed} failed; pacing fell behind by up to ${behind} events`);
    console.log(`delivered: ${receiver.arrivals.size}, duplicates ${duplicates}, out of order per resource ${outOfOrder}`);
    console.log(
      `commit-to-delivery latency: p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, p99 ${ms(p99)}, max ${ms(latencies.at(-1) ?? NaN)}`,
    );
    console.log(
      drained
        ? `drained ${ms(Math.max(0, lastArrival - loadEnded))} after the load stopped`
        : `NOT drained: ${committed.size - receiver.arrivals.size} events still undelivered ${ms(drainLimitMs)} after the load stopped`,
    );
    console.log(`contract §12 (p99 within 1 s while the target is healthy): ${drained && p99 <= 1_000 ? 'met' : 'MISSED'}`);
    process.exitCode = drained && p99 <= 1_000 && outOfOrder === 0 ? 0 : 1;
  } finally {
    await worker?.stop();
    await receiver.close();
    await db?.destroy();
    await scratch?.drop();
  }
}

await main();
