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
  head_hash: string;
  head_revision: number;
};

const batchSize = 5_000;

/** Streams with ids from `from` (inclusive) until `until` (exclusive); undefined: no bound. */
export type StreamRange = { from?: string; until?: string };

/**
 * Recomputes the chain of every stream in `streams` (all by default) from the stored events. Each
 * broken stream is reported once, at its first bad event; the breaks come back in log order.
 * `onProgress` hears the events checked, of `total` (every event of the log, counted when not given).
 */
export async function verifyHashChains(
  db: Executor,
  onProgress: (checked: number, total: number) => void = () => undefined,
  { streams = {}, total: knownTotal }: { streams?: StreamRange; total?: number } = {},
): Promise<ChainVerification> {
  const total = knownTotal ?? Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]?.n ?? 0);
  const breaks: ChainBreak[] = [];
  const before = streams.until === undefined ? sql<boolean>`true` : sql<boolean>`e.stream_id < ${streams.until}`;
  let after = { streamId: streams.from ?? '', revision: -1 };
  let head = genesisHash;
  let brokenStream: string | null = null;
  let last: ChainRow | null = null;
  let checked = 0;
  const broken = (row: ChainRow, reason: ChainBreak['reason']) => {
    breaks.push({ globalPosition: Number(row.global_position), eventId: row.event_id, streamId: row.stream_id, revision: Number(row.stream_revision), reason });
    brokenStream = row.stream_id;
  };
  // A stream's last stored event must be the head its stream row names (nothing cut off the end).
  const checkHead = (row: ChainRow | null) => {
    if (!row || row.stream_id === brokenStream) return;
    if (Number(row.stream_revision) !== Number(row.head_revision) || head !== row.head_hash) broken(row, 'stream head does not match');
  };
  const pageAfter = async (key: { streamId: string; revision: number }) =>
    (
      await sql<ChainRow>`
      select e.global_position, e.event_id, e.stream_id, e.stream_revision, e.event_type, e.data, e.hash,
        s.head_hash, s.stream_revision as head_revision
      from events e left join streams s on s.stream_id = e.stream_id
      where (e.stream_id, e.stream_revision) > (${key.streamId}, ${key.revision}) and ${before}
      order by e.stream_id, e.stream_revision limit ${batchSize}`.execute(db)
    ).rows;
  let next = pageAfter(after);
  for (;;) {
    const rows = await next;
    // The next page is read while this one is hashed.
    const end = rows.at(-1);
    if (end && rows.length === batchSize) next = pageAfter({ streamId: end.stream_id, revision: Number(end.stream_revision) });
    for (const row of rows) {
      const revision = Number(row.stream_revision);
      const newStream = row.stream_id !== after.streamId;
      if (newStream) {
        checkHead(last);
        head = genesisHash;
      }
      const expectedRevision = newStream ? 0 : after.revision + 1;
      after = { streamId: row.stream_id, revision };
      last = row;
      if (row.stream_id === brokenStream) continue;
      if (revision !== expectedRevision) {
        broken(row, 'revision missing before it');
        continue;
      }
      head = chainHash(head, { type: row.event_type, data: row.data, revision });
      if (head !== row.hash) broken(row, 'hash does not match');
    }
    checked += rows.length;
    onProgress(checked, Math.max(total, checked));
    if (rows.length < batchSize) break;
  }
  checkHead(last);
  breaks.sort((a, b) => a.globalPosition - b.globalPosition);
  return { checked, breaks };
}
