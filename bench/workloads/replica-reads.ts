import { startServiceProcess } from '../../tests/support/service-process.js';
import { measure, type Measurement } from '../measure.js';
import { fromMeasurement, type BenchContext, type Workload, type WorkloadResult } from '../workload.js';
import { creates } from './creates.js';

const year = 365 * 86_400_000;
const readConnections = (ctx: BenchContext) => Math.max(1, Math.round(ctx.connections * 0.9));

async function readsServedBy(url: string): Promise<{ replica: number; primary: number }> {
  const metrics = await fetch(`${url}/metrics`).then((r) => r.text());
  const count = (target: string) => Number(new RegExp(`^db_reads_total\\{target="${target}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
  return { replica: count('replica'), primary: count('primary') };
}

/** Reads of random seeded bookings on 90 % of the connections while the other 10 % create. */
async function mixedLoad(ctx: BenchContext, url: string, label: string, createsFromMs: number): Promise<{ reads: Measurement; creates: Measurement }> {
  const ids = ctx.data.busy.bookingIds;
  const common = { seconds: ctx.seconds };
  const [reads, created] = await Promise.all([
    measure(url, ctx.token, { ...common, name: `mixed 90/10: reads, ${label}`, connections: readConnections(ctx), method: 'GET', next: () => ({ path: `/booking/v1/bookings/${ids[Math.floor(Math.random() * ids.length)]}` }), expect: 200 }),
    measure(url, ctx.token, { ...common, name: `mixed 90/10: creates, ${label}`, connections: ctx.connections - readConnections(ctx), method: 'POST', next: creates(ctx.data.spread, createsFromMs), expect: 201 }),
  ]);
  return { reads, creates: created };
}

/**
 * Writes then reads of the same booking with the write's Consistency-Token, one after another for
 * `ms`: how many reads missed the write they named (contract §19: none).
 */
async function readsAfterWrites(ctx: BenchContext, url: string, fromMs: number, ms: number): Promise<{ pairs: number; stale: number }> {
  const next = creates(ctx.data.spread, fromMs);
  const headers = { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' };
  let pairs = 0;
  let stale = 0;
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    const { path, body } = next();
    const created = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const { id } = (await created.json()) as { id?: string };
    if (created.status !== 201 || !id) continue;
    const read = await fetch(`${url}/booking/v1/bookings/${id}`, { headers: { ...headers, 'consistency-token': created.headers.get('consistency-token') ?? '' } });
    await read.arrayBuffer();
    pairs += 1;
    if (read.status !== 200) stale += 1;
  }
  return { pairs, stale };
}

/**
 * Contract §19's replica: the same mixed load (90 % reads, 10 % creates) on the bench's service
 * (primary only) and on a second service process reading from the streaming replica at
 * REPLICA_PORT (`bash .ci/start-replica` makes one), with read-your-writes pairs running beside it.
 */
export const replicaReads: Workload = {
  name: 'replica-reads',
  async run(ctx) {
    const replicaPort = process.env.REPLICA_PORT;
    if (!replicaPort) return [{ name: 'replica reads', perSecond: 0, note: 'skipped: set REPLICA_PORT to a streaming replica of the bench database (bash .ci/start-replica)' }];
    // LOG_LEVEL info: startServiceProcess waits for the line saying where it listens.
    const withReplica = await startServiceProcess({ ...ctx.serviceEnv, PORT: '0', LOG_LEVEL: 'info', DB_READ_HOST: ctx.database.host, DB_READ_PORT: replicaPort }, ['--role', 'api']);
    try {
      const primaryOnly = await mixedLoad(ctx, ctx.url, 'primary only', ctx.futureMs + 4 * year);
      const before = await readsServedBy(withReplica.url);
      const [replicaRun, consistency] = await Promise.all([
        mixedLoad(ctx, withReplica.url, 'replica', ctx.futureMs + 5 * year),
        readsAfterWrites(ctx, withReplica.url, ctx.futureMs + 6 * year, ctx.seconds * 1000),
      ]);
      const after = await readsServedBy(withReplica.url);
      const toReplica = after.replica - before.replica;
      const share = toReplica / Math.max(1, toReplica + after.primary - before.primary);
      const ratio = replicaRun.reads.p95 / primaryOnly.reads.p95;
      const results: WorkloadResult[] = [
        fromMeasurement(primaryOnly.reads),
        fromMeasurement(primaryOnly.creates),
        fromMeasurement(replicaRun.reads, () => ({ text: 'read p95 ≤ 1.2× primary only', met: ratio <= 1.2 })),
        fromMeasurement(replicaRun.creates),
        {
          name: 'reads served by the replica',
          perSecond: toReplica / ctx.seconds,
          note: `${(share * 100).toFixed(1)} % of ${toReplica + after.primary - before.primary} reads counted by the process that answered /metrics; read p95 ${ratio.toFixed(2)}× primary only`,
          target: () => ({ text: '≥ 90 % of reads', met: share >= 0.9 }),
        },
        {
          name: 'reads with a Consistency-Token that missed their write',
          perSecond: consistency.pairs / ctx.seconds,
          unit: 'pairs/s',
          note: `${consistency.stale} stale of ${consistency.pairs} write-then-read pairs`,
          target: () => ({ text: '0 stale', met: consistency.stale === 0 && consistency.pairs > 0 }),
        },
      ];
      return results;
    } finally {
      await withReplica.stop();
    }
  },
};
