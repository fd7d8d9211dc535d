import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/database.js';
import { canonicalJsonOfText } from './canonical-json-text.js';
import { chainHashOfCanonical, genesisHash } from './hash-chain.js';
import type { ChainBreak, ChainVerification } from './log-reader.js';

/** An event as the verification reads it: its data as PostgreSQL writes jsonb (canonicalised from the text, never parsed). */
type ChainRow = {
  global_position: number;
  stream_id: string;
  stream_revision: number;
  event_type: string;
  data: string;
  hash: string;
};

/** Where a stream's chain stands after the events read so far: its last event's revision and position, and the hash after it. */
type StreamTip = { revision: number; head: string; lastPosition: number; broken: boolean };

/** A break found, named by position: the event ids are read once the log has been read. */
type FoundBreak = Omit<ChainBreak, 'eventId'>;

const headsBatch = 1_000;
/** The positions a page covers, and how many pages are read at once (each on a connection of its own). */
const pageSpan = 2_000;
const pagesAhead = 3;
const tailPage = 5_000;

/** The breaks in log order, each with its event's id. */
async function withEventIds(db: Executor, found: FoundBreak[]): Promise<ChainBreak[]> {
  if (found.length === 0) return [];
  const { rows } = await sql<{ global_position: number; event_id: string }>`
    select global_position, event_id from events where global_position = any(${found.map((b) => b.globalPosition)}::bigint[])`.execute(db);
  const ids = new Map(rows.map((row) => [Number(row.global_position), row.event_id]));
  return found.map((b) => ({ ...b, eventId: ids.get(b.globalPosition)! })).sort((a, b) => a.globalPosition - b.globalPosition);
}

/** Streams with ids from `from` (inclusive) until `until` (exclusive); undefined: no bound. */
export type StreamRange = { from?: string; until?: string };

const withinRange = (streams: StreamRange) =>
  sql<boolean>`${streams.from === undefined ? sql`true` : sql`e.stream_id >= ${streams.from}`} and ${streams.until === undefined ? sql`true` : sql`e.stream_id < ${streams.until}`}`;

/**
 * The events of `streams` in log order (global_position: the order the heap holds them, a
 * sequential read however long the log), page by page. Up to the log's last position when the
 * read starts, each page is a range of positions, `pagesAhead` of them read at once: the server
 * reads and sends the next pages while this thread hashes (one connection's page after page left
 * this thread waiting for each). Then pages after the last event read, until the log ends.
 */
async function* pagesOf(db: Executor, streams: StreamRange): AsyncGenerator<ChainRow[]> {
  const read = async (where: RawBuilder<boolean>, limit?: number) =>
    (
      await sql<ChainRow>`
      select e.global_position, e.stream_id, e.stream_revision, e.event_type, e.data::text as data, e.hash
      from events e
      where ${where} and ${withinRange(streams)}
      order by e.global_position ${limit === undefined ? sql`` : sql`limit ${limit}`}`.execute(db)
    ).rows;
  const last = Number((await sql<{ last: number | null }>`select max(global_position) as last from events`.execute(db)).rows[0]?.last ?? 0);
  const inFlight: Promise<ChainRow[]>[] = [];
  let from = 0;
  const readAhead = () => {
    for (; inFlight.length < pagesAhead && from < last; from += pageSpan) {
      const page = read(sql<boolean>`e.global_position > ${from} and e.global_position <= ${from + pageSpan}`);
      // Awaited in turn; a failure of a page read ahead is reported when its turn comes, not as unhandled.
      page.catch(() => undefined);
      inFlight.push(page);
    }
  };
  readAhead();
  for (let page = inFlight.shift(); page; page = inFlight.shift()) {
    const rows = await page;
    readAhead();
    yield rows;
  }
  for (let after = from; ; ) {
    const rows = await read(sql<boolean>`e.global_position > ${after}`, tailPage);
    if (rows.length > 0) yield rows;
    if (rows.length < tailPage) return;
    after = Number(rows.at(-1)!.global_position);
  }
}

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
  const found: FoundBreak[] = [];
  const tips = new Map<string, StreamTip>();
  const broken = (tip: StreamTip, streamId: string, reason: ChainBreak['reason']) => {
    found.push({ globalPosition: tip.lastPosition, streamId, revision: tip.revision, reason });
    tip.broken = true;
  };
  let checked = 0;
  for await (const rows of pagesOf(db, streams)) {
    for (const row of rows) {
      const revision = Number(row.stream_revision);
      let tip = tips.get(row.stream_id);
      if (!tip) {
        tip = { revision: -1, head: genesisHash, lastPosition: 0, broken: false };
        tips.set(row.stream_id, tip);
      }
      const expectedRevision = tip.revision + 1;
      tip.revision = revision;
      tip.lastPosition = Number(row.global_position);
      if (tip.broken) continue;
      if (revision !== expectedRevision) {
        broken(tip, row.stream_id, 'revision missing before it');
        continue;
      }
      tip.head = chainHashOfCanonical(tip.head, { type: row.event_type, canonicalData: canonicalJsonOfText(row.data), revision });
      if (tip.head !== row.hash) broken(tip, row.stream_id, 'hash does not match');
    }
    checked += rows.length;
    onProgress(checked, Math.max(total, checked));
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
      if (!head || Number(head.stream_revision) !== tip.revision || head.head_hash !== tip.head) broken(tip, id, 'stream head does not match');
    }
  }
  return { checked, breaks: await withEventIds(db, found) };
}
