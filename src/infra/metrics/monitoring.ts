import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Temporal } from 'temporal-polyfill';
import { poolOf, type Database } from '../db/database.js';
import { processRegistry } from './process-metrics.js';
import type { ProcessorLag } from './processor-lag.js';
import { createWorkerStatusBoard, type WorkerStatusBoard } from './worker-status.js';

/** What /metrics and the health answer are made of, for one set of services. */
export type Monitoring = {
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  eventsAppended: Counter<'type'>;
  /** Reads by the database that served them (contract §19). */
  dbReads: Counter<'target'>;
  workers: WorkerStatusBoard;
  /** Every metric in the Prometheus text format: these services' and the process's. */
  scrape(): Promise<{ contentType: string; body: string }>;
};

/**
 * Gauges over the database are read when scraped; while the database is down they are left out
 * of the answer rather than failing it (health tells that story). `readLags` reads the processors'
 * checkpoints and counts the log beyond them, in the store that keeps it.
 */
export function createMonitoring(db: Database, readLags: () => Promise<ProcessorLag[]>, now: () => Temporal.Instant): Monitoring {
  const registry = new Registry();
  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const eventsAppended = new Counter({
    name: 'events_appended_total',
    help: 'Events appended to the log by this process, by type',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  const dbReads = new Counter({
    name: 'db_reads_total',
    help: 'Read requests by the database that served them: the replica or the primary',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  /** The checkpoints, read once per scrape for both gauges made of them. */
  let checkpoints: Promise<ProcessorLag[]> = Promise.resolve([]);
  const checkpointGauge = (name: string, help: string, value: (lag: ProcessorLag) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['processor'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const lag of await checkpoints) this.set({ processor: lag.name }, value(lag));
      },
    });
  checkpointGauge('processor_lag_events', 'Events in the log beyond the processor checkpoint', (lag) => lag.lagEvents);
  checkpointGauge('processor_position', 'Global log position of the processor checkpoint', (lag) => lag.position);
  new Gauge({
    name: 'webhook_queue_depth',
    help: 'Webhook deliveries waiting to be sent (dead letters aside)',
    registers: [registry],
    async collect() {
      this.reset();
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirst()
        .catch(() => undefined);
      if (row) this.set(Number(row.n));
    },
  });
  const pool = poolOf(db);
  if (pool) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of the database pool: total, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({ name: 'db_pool_max', help: 'Size limit of the database pool', registers: [registry] }).set(pool.options.max ?? 10);
  }

  return {
    httpRequestDuration,
    eventsAppended,
    dbReads,
    workers: createWorkerStatusBoard(readLags, now),
    async scrape() {
      checkpoints = readLags().catch(() => []);
      const merged = Registry.merge([processRegistry, registry]);
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
  };
}
