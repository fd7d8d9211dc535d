import { sql } from 'kysely';
import type { Executor } from '../../infra/db/database.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.js';
import { isFinalInLog } from '../../infra/event-store/log-horizon.js';

export type AuditFeedQuery = {
  /** A global position the feed answered before (0: the start of the log). */
  after: number;
  limit: number;
  /** Stored event types to keep. */
  types: readonly string[];
  /** Only bookings of this workspace; undefined = every workspace. */
  workspace?: string;
};

/** `next` is the position to continue after; unchanged when nothing new is final yet. */
export type AuditFeedPage = { events: RecordedEvent[]; next: number };

type FeedRow = Omit<RecordedEvent, 'id'> & { id: string | null; scannedTo: number };

/** How many log events one page looks at, matching or not: a rare filter costs bounded work per page. */
const scanWindow = 10_000;

/**
 * A page of the audit feed in log order: (transaction id, position), below the late-commit horizon
 * the workers use, so a transaction that commits after a later position's is still seen once.
 * A numeric cursor follows that order: `after` is resolved to its event's transaction id. Null
 * when `after` names no stored event.
 */
export async function readAuditFeed(db: Executor, query: AuditFeedQuery): Promise<AuditFeedPage | null> {
  let cursor = { transactionId: '0', globalPosition: 0 };
  if (query.after > 0) {
    const found = await sql<{ transaction_id: string }>`
      select transaction_id::text as transaction_id from events where global_position = ${query.after}`.execute(db);
    const row = found.rows[0];
    if (!row) return null;
    cursor = { transactionId: row.transaction_id, globalPosition: query.after };
  }
  // One statement, one horizon: the window's end and its matches come from the same snapshot.
  const { rows } = await sql<FeedRow>`
    with scanned as (
      select * from events
      where ${isFinalInLog()}
        and (transaction_id, global_position) > (${cursor.transactionId}::xid8, ${cursor.globalPosition}::bigint)
      order by transaction_id, global_position
      limit ${scanWindow}),
    last_scanned as (select global_position from scanned order by transaction_id desc, global_position desc limit 1),
    matched as (
      select * from scanned
      where event_type = any(${query.types}::text[])
        ${query.workspace === undefined ? sql`` : sql`and data -> 'booking' ->> 'workspace' = ${query.workspace}`}
      order by transaction_id, global_position
      limit ${query.limit})
    select m.global_position as "globalPosition", m.transaction_id::text as "transactionId", m.stream_id as "streamId",
      m.stream_revision as "streamRevision", m.event_id as id, m.event_type as type, m.data, m.metadata,
      m.recorded_at as "recordedAt", m.hash, last_scanned.global_position as "scannedTo"
    from last_scanned left join matched as m on true
    order by m.transaction_id, m.global_position`.execute(db);
  const scannedTo = rows[0]?.scannedTo;
  if (scannedTo === undefined) return { events: [], next: query.after };
  const events = rows.filter((row) => row.id !== null).map(({ scannedTo: _, ...event }) => event as RecordedEvent);
  // A full page continues after its last event; a short one holds every match of the window.
  const next = events.length === query.limit ? events.at(-1)!.globalPosition : scannedTo;
  return { events, next: Number(next) };
}
