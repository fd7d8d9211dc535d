import { randomUUID } from 'node:crypto';
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database, Executor } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { EventsTable } from '../db/tables/events.table.js';
import type { EventStore, ExpectedRevision, NewEvent, RecordedEvent } from './event-store.js';
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
 * Moves the stream row to its new last revision, checking the expectation in the same statement.
 * The row lock makes a concurrent writer wait and then re-check against the committed revision.
 */
async function claimRevisions(trx: Transaction<DB>, streamId: string, count: number, expected: ExpectedRevision): Promise<number | undefined> {
  if (expected === 'no_stream') {
    const row = await trx
      .insertInto('streams')
      .values({ stream_id: streamId, stream_revision: count - 1 })
      .onConflict((oc) => oc.column('stream_id').doNothing())
      .returning('stream_revision')
      .executeTakeFirst();
    return row?.stream_revision;
  }
  if (expected === 'any') {
    const row = await trx
      .insertInto('streams')
      .values({ stream_id: streamId, stream_revision: count - 1 })
      .onConflict((oc) =>
        oc.column('stream_id').doUpdateSet({
          stream_revision: sql`streams.stream_revision + ${count}`,
          updated_at: sql`now()`,
        }),
      )
      .returning('stream_revision')
      .executeTakeFirstOrThrow();
    return row.stream_revision;
  }
  let update = trx
    .updateTable('streams')
    .set({ stream_revision: sql`stream_revision + ${count}`, updated_at: sql`now()` })
    .where('stream_id', '=', streamId);
  if (typeof expected === 'number') update = update.where('stream_revision', '=', expected);
  const row = await update.returning('stream_revision').executeTakeFirst();
  return row?.stream_revision;
}

export function createPostgresEventStore(db: Database): EventStore {
  return {
    async appendToStream(streamId, events: NewEvent[], expectedRevision, options = {}) {
      if (events.length === 0) throw new Error('appendToStream needs at least one event');
      return db.transaction().execute(async (trx) => {
        const last = await claimRevisions(trx, streamId, events.length, expectedRevision);
        if (last === undefined) {
          throw new WrongExpectedRevisionError(streamId, expectedRevision, await currentRevision(trx, streamId));
        }
        const first = last - events.length + 1;
        const rows = await trx
          .insertInto('events')
          .values(
            events.map((event, i) => ({
              event_id: event.id ?? randomUUID(),
              stream_id: streamId,
              stream_revision: first + i,
              event_type: event.type,
              data: JSON.stringify(event.data),
              metadata: JSON.stringify(event.metadata ?? {}),
            })),
          )
          .returning(eventColumns)
          .execute();
        const recorded = rows.map(toRecorded).sort((a, b) => a.streamRevision - b.streamRevision);
        if (options.inlineProjection) await options.inlineProjection(trx, recorded);
        return { nextExpectedRevision: last, events: recorded };
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
