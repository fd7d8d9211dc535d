import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { Executor } from '../db/database.js';
import type { ChainBreak, ChainVerification } from './log-reader.js';
import { verifyHashChains, type StreamRange } from './verify-hash-chains.js';

type PostgresConfig = Extract<DatabaseConfig, { kind: 'postgres' }>;

/** What a worker is given, and what it posts back: progress as it goes, then its verification or its error. */
export type VerifyWorkerData = { config: PostgresConfig; streams: StreamRange; total: number; file: string; tsx?: string };
export type VerifyWorkerMessage = { checked: number } | { done: ChainVerification } | { error: string };

// The worker module lies beside this one, compiled or not; run from source, the worker registers
// tsx first (a worker inherits neither the process's loader hooks nor tsx's).
const extension = path.extname(fileURLToPath(import.meta.url));
const workerStart = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.file);
})();`;
const workerFiles = { file: new URL(`./verify-hash-chains-worker${extension}`, import.meta.url).href, tsx: extension === '.ts' ? import.meta.resolve('tsx/esm/api') : undefined };

/**
 * Stream ids cutting the log into `parts` ranges of about as many events each, by the streams'
 * head revisions: one stream never spans two ranges.
 */
async function splitStreams(db: Executor, parts: number): Promise<StreamRange[]> {
  const { rows } = await sql<{ stream_id: string; part: number }>`
    select distinct on (part) stream_id, part from (
      select stream_id, floor(${parts} * (upto - events) / greatest(total, 1))::int as part from (
        select stream_id, stream_revision + 1 as events,
          sum(stream_revision + 1) over (order by stream_id) as upto, sum(stream_revision + 1) over () as total
        from streams) counted) parted
    where part > 0
    order by part, stream_id`.execute(db);
  const cuts = rows.map((row) => row.stream_id);
  return [undefined, ...cuts].map((from, i) => ({ from, until: cuts[i] }));
}

/**
 * verifyHashChains over `parts` disjoint ranges of streams at once: the first in this thread on
 * `db`, each other on a worker thread with its own connection. Hashing is most of verify-log's
 * time, and streams are independent. Progress is the sum of the parts'; breaks come back in log
 * order, as one verification would give them.
 */
export async function verifyHashChainsInParallel(
  db: Executor,
  config: PostgresConfig,
  { parts, onProgress = () => undefined }: { parts: number; onProgress?: (checked: number, total: number) => void },
): Promise<ChainVerification> {
  const total = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]?.n ?? 0);
  const ranges = await splitStreams(db, parts);
  const checked = ranges.map(() => 0);
  const progress = (part: number, count: number) => {
    checked[part] = count;
    const sum = checked.reduce((a, b) => a + b, 0);
    onProgress(sum, Math.max(total, sum));
  };
  const workers: Worker[] = [];
  const onWorker = (streams: StreamRange, part: number) =>
    new Promise<ChainVerification>((resolve, reject) => {
      const data: VerifyWorkerData = { config, streams, total, ...workerFiles };
      const worker = new Worker(workerStart, { eval: true, workerData: data });
      workers.push(worker);
      worker.on('message', (message: VerifyWorkerMessage) => {
        if ('checked' in message) progress(part, message.checked);
        else if ('done' in message) resolve(message.done);
        else reject(new Error(message.error));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`a verify-log worker exited with ${code} before it answered`)));
    });
  const [first, ...others] = ranges;
  // One part failing ends the verification: the workers still running are stopped.
  const results = await Promise.all([
    verifyHashChains(db, (count) => progress(0, count), { streams: first, total }),
    ...others.map((streams, i) => onWorker(streams, i + 1)),
  ]).finally(() => Promise.all(workers.map((worker) => worker.terminate())));
  const breaks: ChainBreak[] = results.flatMap((result) => result.breaks).sort((a, b) => a.globalPosition - b.globalPosition);
  return { checked: results.reduce((sum, result) => sum + result.checked, 0), breaks };
}
