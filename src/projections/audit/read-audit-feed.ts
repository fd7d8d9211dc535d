import { sql } from 'kysely';
import { toEventEnvelope, type EventEnvelope } from '../../domain/booking/event-envelope.js';
import type { Executor } from '../../infra/db/database.js';
import { logStart, type LogPosition } from '../../infra/event-store/event-store.js';
import { readLog } from '../../infra/event-store/postgres-event-store.js';
import { ofWorkspace, publishedUnder } from './published-event-condition.js';

export type AuditFeedQuery = {
  /** A global position the feed answered before (0: the start of the log). */
  after: number;
  limit: number;
  /** Published names to keep, each one of `publishedEventNames`. */
  names: readonly string[];
  /** Only events of this workspace; undefined = every workspace. */
  workspace?: string;
};

/** `next` is the position to continue after; unchanged when nothing new is final yet. */
export type AuditFeedPage = { events: EventEnvelope[]; next: number };

/** How many log events one page looks at, matching or not: a rare filter costs bounded work per page. */
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
 * A page of the audit feed: the published events (envelopes of contract §8) read by the log's one
 * reader (readLog) with the feed's filter, so the feed keeps the workers' order and late-commit
 * horizon and sees every event once across pages. The numeric cursor names an event, whose
 * transaction id places it in that order. Null when `after` names no stored event.
 */
export async function readAuditFeed(db: Executor, query: AuditFeedQuery): Promise<AuditFeedPage | null> {
  const after = await logPositionAt(db, query.after);
  if (!after) return null;
  const published = publishedUnder(query.names);
  const where = query.workspace === undefined ? published : sql<boolean>`${published} and ${ofWorkspace(query.workspace)}`;
  const page = await readLog(db, { after, maxCount: query.limit, filter: { where, scanWindow } });
  return { events: page.events.flatMap((recorded) => toEventEnvelope(recorded) ?? []), next: page.next.globalPosition };
}
