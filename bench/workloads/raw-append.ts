import { randomUUID } from 'node:crypto';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { createDatabase } from '../../src/infra/db/database.js';
import { migrateToLatest } from '../../src/infra/db/migrate.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { createScratchDatabase } from '../../tests/support/scratch-database.js';
import type { Workload, WorkloadResult } from '../workload.js';

const writers = 32;

/** `writers` loops, each appending one event at a time to its own stream with the revision it expects, for `seconds`. */
async function appendsPerSecond(seconds: number, append: (writer: number, revision: number) => Promise<void>): Promise<number> {
  let appended = 0;
  const until = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let revision = 0; Date.now() < until; revision++) {
        await append(writer, revision);
        appended += 1;
      }
    }),
  );
  return appended / ((Date.now() - started) / 1000);
}

const event = (writer: number, revision: number) => ({ type: 'BenchAppended', data: { writer, revision, at: new Date().toISOString() } });

/**
 * Raw appends through this store and through emmett's PostgreSQL event store on the same server in
 * the same run, each on a database of its own, each with a pool of `writers` connections.
 * Target: this store at least as fast as emmett's.
 */
export const rawAppend: Workload = {
  name: 'raw-append',
  async run(ctx) {
    const ours = await createScratchDatabase('booking_bench_append');
    const theirs = await createScratchDatabase('booking_bench_emmett');
    const db = createDatabase({ ...ours.config, poolSize: writers });
    const { user = 'postgres', password, host, port } = theirs.config;
    const emmett = getPostgreSQLEventStore(`postgresql://${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@${host}:${port}/${theirs.name}`);
    try {
      await migrateToLatest(db);
      const store = createPostgresEventStore(db, { projections: [] });
      const prefix = randomUUID();
      // Schema creation and first connections outside the measurement.
      await store.appendToStream(`warm-${prefix}`, [event(0, 0)], 'no_stream');
      await emmett.appendToStream(`warm-${prefix}`, [event(0, 0)]);
      const oursPerSecond = await appendsPerSecond(ctx.seconds, async (writer, revision) => {
        await store.appendToStream(`bench-${prefix}-${writer}`, [event(writer, revision)], revision === 0 ? 'no_stream' : revision - 1);
      });
      const emmettPerSecond = await appendsPerSecond(ctx.seconds, async (writer, revision) => {
        await emmett.appendToStream(`bench-${prefix}-${writer}`, [event(writer, revision)], revision === 0 ? {} : { expectedStreamVersion: BigInt(revision) });
      });
      const results: WorkloadResult[] = [
        { name: `raw append, ${writers} writers, this store`, perSecond: oursPerSecond, target: () => ({ text: `≥ emmett (${emmettPerSecond.toFixed(0)}/s)`, met: oursPerSecond >= emmettPerSecond }) },
        { name: `raw append, ${writers} writers, emmett-postgresql`, perSecond: emmettPerSecond },
      ];
      return results;
    } finally {
      await emmett.close();
      await db.destroy();
      await ours.drop();
      await theirs.drop();
    }
  },
};
