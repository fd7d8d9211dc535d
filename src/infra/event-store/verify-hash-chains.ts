import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { chainHash, genesisHash } from './hash-chain.js';
import type { ChainBreak, ChainVerification } from './log-reader.js';

type ChainRow = {
  global_position: number;
  event_id: string;
  stream_id: string;
  stream_revision: number;
  event_type: string;
  data: unknown;
  hash: string;
};

/** Where a stream's chain stands after the events read so far: its last event, and the hash after it. */
type StreamTip = { revision: number; head: string; last: ChainRow; broken: boolean };

const batchSize = 5_000;
const headsBatch = 1_000;

/** Streams with ids from `from` (inclusive) until `until` (exclusive); undefined: no bound. */
export type StreamRange = { from?: string; until?: string };

const withinRange = (streams: StreamRange) =>
  sql<boolean>`${streams.from === undefined ? sql`true` : sql`e.stream_id >= ${streams.from}`} and ${streams.until === undefined ? sql`true` : sql`e.stream_id < ${streams.until}`}`;

/**
 * Recomputes the chain of every stream in `streams` (all by default) from the stored events, read
 * in log order (the order the heap holds them: a sequential read however long the log), each
 * stream's tip kept in a map (a few hundred bytes a stream). A stream's revisions follow each
 * other in the log, since each append waits for the one before on its stream. Each broken stream
 * is reported once, at its first bad event; the breaks come back in log order. `onProgress` hears
 * the events checked, of `total` (every event of the log, counted when not given).
 */
export async function verifyHashChains(
  db: Executor,
  onProgress: (checked: number, total: number) => void = () => undefined,
  { streams = {}, total: knownTotal }: { streams?: StreamRange; total?: number } = {},
): Promise<ChainVerification> {
  const total = knownTotal ?? Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]?.n ?? 0);
  const breaks: ChainBreak[] = [];
  const tips = new Map<string, StreamTip>();
  const broken = (tip: StreamTip, row: ChainRow, reason: ChainBreak['reason']) => {
    breaks.push({ globalPosition: Number(row.global_position), eventId: row.event_id, streamId: row.stream_id, revision: Number(row.stream_revision), reason });
    tip.broken = true;
  };
  const pageAfter = async (position: number) =>
    (
      await sql<ChainRow>`
      select e.global_position, e.event_id, e.stream_id, e.stream_revision, e.event_type, e.data, e.hash
      from events e
      where e.global_position > ${position} and ${withinRange(streams)}
      order by e.global_position limit ${batchSize}`.execute(db)
    ).rows;
  let checked = 0;
  let next = pageAfter(0);
  for (;;) {
    const rows = await next;
    // The next page is read while this one is hashed.
    const end = rows.at(-1);
    if (end && rows.length === batchSize) next = pageAfter(Number(end.global_position));
    for (const row of rows) {
      const revision = Number(row.stream_revision);
      let tip = tips.get(row.stream_id);
      if (!tip) {
        tip = { revision: -1, head: genesisHash, last: row, broken: false };
        tips.set(row.stream_id, tip);
      }
      const expectedRevision = tip.revision + 1;
      tip.revision = revision;
      tip.last = row;
      if (tip.broken) continue;
      if (revision !== expectedRevision) {
        broken(tip, row, 'revision missing before it');
        continue;
      }
      tip.head = chainHash(tip.head, { type: row.event_type, data: row.data, revision });
      if (tip.head !== row.hash) broken(tip, row, 'hash does not match');
    }
    checked += rows.length;
    onProgress(checked, Math.max(total, checked));
    if (rows.length < batchSize) break;
  }
  // A stream's last stored event must be the head its stream row names (nothing cut off the end).
  const unbroken = [...tips].filter(([, tip]) => !tip.broken);
  for (let i = 0; i < unbroken.length; i += headsBatch) {
    const part = unbroken.slice(i, i + headsBatch);
    const { rows } = await sql<{ stream_id: string; stream_revision: number; head_hash: string }>`
      select stream_id, stream_revision, head_hash from streams where stream_id = any(${part.map(([id]) => id)}::text[])`.execute(db);
    const heads = new Map(rows.map((row) => [row.stream_id, row]));
    for (const [id, tip] of part) {
      const head = heads.get(id);
      if (!head || Number(head.stream_revision) !== tip.revision || head.head_hash !== tip.head) broken(tip, tip.last, 'stream head does not match');
    }
  }
  breaks.sort((a, b) => a.globalPosition - b.globalPosition);
  return { checked, breaks };
}
