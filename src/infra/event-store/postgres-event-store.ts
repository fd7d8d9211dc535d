import { randomUUID } from 'node:crypto';
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database, Executor } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { EventsTable } from '../db/tables/events.table.js';
import type { EventStore, ExpectedRevision, InlineProjection, LogPosition, NewEvent, RecordedEvent } from './event-store.js';
import { projectEvents } from './project-events.js';
import { WrongExpectedRevisionError } from './wrong-expected-revision-error.js';

type EventRow = Selectable<EventsTable>;

const eventColumns = [
  'global_position',
  sql<string>`transaction_id::text`.as('transaction_id'),
  'stream_id',
  'stream_revision',
  'event_id',
  'event_type',
  'data',
  'metadata',
  'recorded_at',
] as const;

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    streamRevision: row.stream_revision,
    globalPosition: row.global_position,
    transactionId: row.transaction_id,
    recordedAt: row.recorded_at,
  };
}

async function currentRevision(db: Executor, streamId: string): Promise<number | null> {
  const row = await db.selectFrom('streams').select('stream_revision').where('stream_id', '=', streamId).executeTakeFirst();
  return row?.stream_revision ?? null;
}

/**
 * The statement that moves the stream row to its new last revision, checking the expectation in
 * the same statement. The row lock makes a concurrent writer wait and then re-check against the
 * committed revision.
 */
function claimStatement(streamId: string, count: number, expected: ExpectedRevision) {
  switch (expected) {
    case 'no_stream':
      return sql`insert into streams (stream_id, stream_revision) values (${streamId}, ${count - 1})
        on conflict (stream_id) do nothing returning stream_revision`;
    case 'any':
      return sql`insert into streams (stream_id, stream_revision) values (${streamId}, ${count - 1})
        on conflict (stream_id) do update set stream_revision = streams.stream_revision + ${count}, updated_at = now()
        returning stream_revision`;
    case 'stream_exists':
      return sql`update streams set stream_revision = stream_revision + ${count}, updated_at = now()
        where stream_id = ${streamId} returning stream_revision`;
    default:
      return sql`update streams set stream_revision = stream_revision + ${count}, updated_at = now()
        where stream_id = ${streamId} and stream_revision = ${expected} returning stream_revision`;
  }
}

/** Claims the revisions and inserts the events in one round trip; no row back means the claim failed. */
async function appendEvents(trx: Transaction<DB>, streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<EventRow[]> {
  const { rows } = await sql<EventRow>`
    with claimed as (${claimStatement(streamId, events.length, expected)})
    insert into events (event_id, stream_id, stream_revision, event_type, data, metadata)
    select e.event_id, ${streamId}, claimed.stream_revision - ${events.length} + e.ordinal, e.event_type, e.data, e.metadata
    from claimed, unnest(
      ${events.map((e) => e.id ?? randomUUID())}::uuid[],
      ${events.map((e) => e.type)}::text[],
      ${events.map((e) => JSON.stringify(e.data))}::jsonb[],
      ${events.map((e) => JSON.stringify(e.metadata ?? {}))}::jsonb[]
    ) with ordinality as e(event_id, event_type, data, metadata, ordinal)
    order by e.ordinal
    returning global_position, transaction_id::text as transaction_id, stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at`.execute(trx);
  return rows;
}

/** The store's inline projections run in every append's transaction, so clients read their writes. */
export type PostgresEventStoreOptions = { projections: readonly InlineProjection<Transaction<DB>>[] };

export function createPostgresEventStore(db: Database, { projections }: PostgresEventStoreOptions): EventStore<Transaction<DB>> {
  return {
    async appendToStream(streamId, events: NewEvent[], expectedRevision, options = {}) {
      if (events.length === 0) throw new Error('appendToStream needs at least one event');
      return db.transaction().execute(async (trx) => {
        const rows = await appendEvents(trx, streamId, events, expectedRevision);
        if (rows.length === 0) {
          throw new WrongExpectedRevisionError(streamId, expectedRevision, await currentRevision(trx, streamId));
        }
        const recorded = rows.map(toRecorded).sort((a, b) => a.streamRevision - b.streamRevision);
        let projected = false;
        const project = async () => {
          if (projected) return;
          projected = true;
          await projectEvents(projections, trx, recorded);
        };
        await options.inTransaction?.(trx, recorded, project);
        await project();
        return { nextExpectedRevision: recorded.at(-1)!.streamRevision, events: recorded };
      });
    },

    async readStream(streamId, options = {}) {
      const rows = await db
        .selectFrom('events')
        .select(eventColumns)
        .where('stream_id', '=', streamId)
        .where('stream_revision', '>=', options.fromRevision ?? 0)
        .orderBy('stream_revision')
        .$if(options.maxCount !== undefined, (q) => q.limit(options.maxCount ?? 0))
        .execute();
      return rows.map(toRecorded);
    },

    readStreamRevision(streamId) {
      return currentRevision(db, streamId);
    },

    async readAll({ after, maxCount }) {
      // Only transactions below the oldest one still running are final: a slower transaction with a
      // smaller id may still commit, and its events must not be passed over.
      const rows = await db
        .selectFrom('events')
        .select(eventColumns)
        .where(sql<boolean>`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`)
        .where(
          sql<boolean>`(transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)`,
        )
        .orderBy('events.transaction_id')
        .orderBy('events.global_position')
        .limit(maxCount)
        .execute();
      return rows.map(toRecorded);
    },
  };
}

/**
 * Every committed event after `after`, in log order, without the late-commit horizon: for a reader
 * that has locked out the writers it cares about (the rebuild), where the horizon would only hide
 * recent events behind a transaction open elsewhere on the server.
 */
export async function readCommittedEvents(db: Executor, after: LogPosition, maxCount: number): Promise<RecordedEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(eventColumns)
    .where(sql<boolean>`(transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)`)
    .orderBy('events.transaction_id')
    .orderBy('events.global_position')
    .limit(maxCount)
    .execute();
  return rows.map(toRecorded);
}
