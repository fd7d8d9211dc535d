import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { readProcessorLags } from '../metrics/processor-lag.js';
import { isAtOrAfter, logStart, type LogPosition } from './event-store.js';
import { envelopeText } from './envelope-text.js';
import type { ChainedEvent, EventAsOf, LogReader, PublishedRead } from './log-reader.js';
import { readLog, readLogText, type LogFilter, type LogRead } from './postgres-event-store.js';
import { ofWorkspace, publishedUnder } from './published-event-condition.js';
import { verifyHashChains } from './verify-hash-chains.js';

const columns = sql`global_position as "globalPosition", transaction_id::text as "transactionId", stream_id as "streamId",
  stream_revision as "streamRevision", event_id as id, event_type as type, data, metadata, recorded_at as "recordedAt", hash`;

/** How many log events one page of the audit feed looks at, matching or not: a rare filter costs bounded work per page. */
const scanWindow = 10_000;

/** The log position of the event at `globalPosition` (0: the start), or null when it names no stored event. */
async function logPositionAt(db: Executor, globalPosition: number): Promise<LogPosition | null> {
  if (globalPosition === 0) return logStart;
  const { rows } = await sql<{ transaction_id: string }>`
    select transaction_id::text as transaction_id from events where global_position = ${globalPosition}`.execute(db);
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, globalPosition } : null;
}

/**
 * A page of published events read by `readPage` (a filtered read of the log, in any form). The
 * log's one reader, so the feed keeps the workers' order and late-commit horizon; the numeric
 * position names an event, whose transaction id places it in that order.
 */
async function readPublishedWith<Item>(
  db: Executor,
  { after, maxCount, names, workspace, upTo }: PublishedRead,
  readPage: (read: LogRead & { filter: LogFilter }) => Promise<{ items: Item[]; next: LogPosition }>,
): Promise<{ items: Item[]; next: number } | null> {
  const from = await logPositionAt(db, after);
  const until = upTo === undefined ? undefined : await logPositionAt(db, upTo);
  if (!from || until === null) return null;
  if (until && isAtOrAfter(from, until)) return { items: [], next: until.globalPosition };
  const conditions = [publishedUnder(names)];
  if (workspace !== undefined) conditions.push(ofWorkspace(workspace));
  if (until) conditions.push(sql<boolean>`(transaction_id, global_position) <= (${until.transactionId}::xid8, ${until.globalPosition}::bigint)`);
  const where = sql<boolean>`${sql.join(conditions, sql` and `)}`;
  const page = await readPage({ after: from, maxCount, filter: { where, scanWindow } });
  return { items: page.items, next: until && isAtOrAfter(page.next, until) ? until.globalPosition : page.next.globalPosition };
}

/** The log as PostgreSQL's `events` table keeps it. */
export function createPostgresLogReader(db: Executor): LogReader {
  return {
    async readStreamEvents(streamId, after, limit) {
      const { rows } = await sql<ChainedEvent>`
        select ${columns} from events
        where stream_id = ${streamId} and stream_revision > ${after}
        order by stream_revision limit ${limit}`.execute(db);
      return rows;
    },

    async readBookingEvents(bookingId) {
      // The index events_by_booking answers it.
      const { rows } = await sql<ChainedEvent>`
        select ${columns} from events
        where data ? 'booking' and (data -> 'booking' ->> 'id') = ${bookingId}
        order by global_position`.execute(db);
      return rows;
    },

    async readBookingAsOf(bookingId, asOf) {
      const { rows } = await sql<{ booking: Record<string, unknown> }>`
        select data -> 'booking' as booking from events
        where data ? 'booking' and (data -> 'booking' ->> 'id') = ${bookingId} and recorded_at <= ${asOf.toString()}::timestamptz
        order by global_position desc limit 1`.execute(db);
      return rows[0]?.booking ?? null;
    },

    async readStreamAsOf(streamId, after, asOf) {
      // Microseconds: a Date would drop them, and a snapshot's time must not fall before its events'.
      const { rows } = await sql<{ revision: number; recorded_us: number; type: string; data: Record<string, unknown> }>`
        select stream_revision as revision, (extract(epoch from recorded_at) * 1000000)::bigint as recorded_us, event_type as type, data from events
        where stream_id = ${streamId} and stream_revision > ${after} and recorded_at <= ${asOf.toString()}::timestamptz
        order by stream_revision`.execute(db);
      return rows.map((row): EventAsOf => ({ revision: Number(row.revision), recordedUs: Number(row.recorded_us), type: row.type, data: row.data }));
    },

    async readPublished(read) {
      const page = await readPublishedWith(db, read, (logRead) => readLog(db, logRead).then(({ events, next }) => ({ items: events, next })));
      return page && { events: page.items, next: page.next };
    },

    async readPublishedJson(read) {
      // The envelopes rendered by PostgreSQL, the stored JSON spliced in: nothing parsed or written again here.
      const page = await readPublishedWith(db, read, (logRead) => readLogText(db, logRead, envelopeText).then(({ texts, next }) => ({ items: texts, next })));
      return page && { envelopes: page.items, next: page.next };
    },

    async readHeadPosition() {
      const { rows } = await sql<{ global_position: string }>`
        select global_position from events order by transaction_id desc, global_position desc limit 1`.execute(db);
      return Number(rows[0]?.global_position ?? 0);
    },

    readProcessorLags: () => readProcessorLags(db),

    verifyHashChains: (onProgress) => verifyHashChains(db, onProgress),
  };
}
