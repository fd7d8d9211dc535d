import { currentTraceMetadata } from '../telemetry/trace-context.js';
import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import { boundedCache } from '../cache/bounded-cache.js';
import type { Database, Executor } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { EventsTable } from '../db/tables/events.table.js';
import { compileOnce, holesOf, prefixedArgs, type BoundSql, type CompiledTemplate, type Holes } from '../db/sql-template.js';
import type { AppendOptions, AppendResult, EventStore, ExpectedRevision, InlineProjection, LogPosition, NewEvent, RecordedEvent, StreamAppend } from './event-store.js';
import { canonicalJson, genesisHash } from './hash-chain.js';
import { isFinalInLog, logHorizon } from './log-horizon.js';
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
  'hash',
] as const;

const returnedColumns =
  'global_position, transaction_id::text as transaction_id, stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash';

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
    hash: row.hash,
  };
}

async function currentRevision(db: Executor, streamId: string): Promise<number | null> {
  const row = await db.selectFrom('streams').select('stream_revision').where('stream_id', '=', streamId).executeTakeFirst();
  return row?.stream_revision ?? null;
}

/** The values of one append statement; `chainTypes`/`chainDatas` are the canonical JSON texts the chain hashes (hash-chain.ts). */
type AppendArgs = {
  streamId: string;
  count: number;
  expected: number | null;
  chainTypes: string[];
  chainDatas: string[];
  ids: string[];
  types: string[];
  datas: string[];
  metadatas: string[];
};

type ExpectedKind = 'revision' | 'no_stream' | 'any' | 'stream_exists';

const kindOf = (expected: ExpectedRevision): ExpectedKind => (typeof expected === 'number' ? 'revision' : expected);

/** The holes of the `j`th stream's values in an append statement. */
const streamHoles = (j: number) => holesOf(`append${j}.`) as Holes<AppendArgs>;

/** The head hash after appending the events on top of `previous` (an SQL expression over the stream row). */
const newHead = (p: Holes<AppendArgs>, previous: RawBuilder<unknown>, firstRevision: RawBuilder<unknown>) =>
  sql`(event_hash_chain(${previous}, ${firstRevision}, ${p.chainTypes}::text[], ${p.chainDatas}::text[]))[${p.count}]`;

/**
 * The statement that moves the stream row to its new last revision and head hash, checking the
 * expectation in the same statement. The row lock makes a concurrent writer wait and then re-check
 * against the committed revision, so the previous hash always comes from the row it claims.
 */
function claimStatement(kind: ExpectedKind, p: Holes<AppendArgs>) {
  const advance = sql`stream_revision = streams.stream_revision + ${p.count}, updated_at = now(),
    previous_head_hash = streams.head_hash,
    head_hash = ${newHead(p, sql`streams.head_hash`, sql`streams.stream_revision + 1`)}`;
  const returning = sql`returning stream_revision, previous_head_hash`;
  const insertNew = sql`insert into streams (stream_id, stream_revision, head_hash, previous_head_hash)
    values (${p.streamId}, ${p.count} - 1, ${newHead(p, sql`${genesisHash}::text`, sql`0::bigint`)}, ${genesisHash})`;
  switch (kind) {
    case 'no_stream':
      return sql`${insertNew} on conflict (stream_id) do nothing ${returning}`;
    case 'any':
      return sql`${insertNew} on conflict (stream_id) do update set ${advance} ${returning}`;
    case 'stream_exists':
      return sql`update streams set ${advance} where stream_id = ${p.streamId} ${returning}`;
    case 'revision':
      return sql`update streams set ${advance} where stream_id = ${p.streamId} and stream_revision = ${p.expected} ${returning}`;
  }
}

/**
 * The stream revision an append statement gives the event of this id (a hole of a projection's
 * statement holding its id): what `sqlOf` writes where `apply` writes the recorded revision. Null
 * when the stream's claim failed, and then the statement writes nothing.
 */
export const appendedRevision = (eventId: unknown): RawBuilder<number> => sql<number>`(select appended.stream_revision from appended where appended.event_id = ${eventId}::uuid)`;

/** The events with the ids they will have: a projection's statements beside the append name them (appendedRevision). */
const withIds = (events: readonly NewEvent[]): (NewEvent & { id: string })[] => events.map((e) => (e.id ? (e as NewEvent & { id: string }) : { ...e, id: randomUUID() }));

/** The `j`th stream's claim and hash chain, and its events as rows to insert (null revisions when the claim failed). */
function streamParts(kind: ExpectedKind, j: number) {
  const p = streamHoles(j);
  const [claimed, chained] = [sql.raw(`claimed${j}`), sql.raw(`chained${j}`)];
  const ctes = sql`${claimed} as (${claimStatement(kind, p)}),
    ${chained} as materialized (
      select ${claimed}.stream_revision - ${p.count} + 1 as first_revision,
        event_hash_chain(${claimed}.previous_head_hash, ${claimed}.stream_revision - ${p.count} + 1, ${p.chainTypes}::text[], ${p.chainDatas}::text[]) as hashes
      from ${claimed})`;
  const rows = sql`
    select e.event_id, ${p.streamId}::text as stream_id, ${chained}.first_revision + e.ordinal - 1 as stream_revision, e.event_type, e.data, e.metadata,
      ${chained}.hashes[e.ordinal] as hash, ${sql.lit(j)} as stream_ordinal, e.ordinal
    from unnest(${p.ids}::uuid[], ${p.types}::text[], ${p.datas}::jsonb[], ${p.metadatas}::jsonb[])
      with ordinality as e(event_id, event_type, data, metadata, ordinal)
      left join ${chained} on true`;
  return { ctes, rows };
}

/**
 * Claims the revisions of every stream, chains the hashes and inserts the events in one statement,
 * with the projections' statements beside them. When a claim fails, its events get no revision and
 * their insert fails on `not null`: the whole statement, projections included, writes nothing.
 * PostgreSQL runs the main insert before the other data-modifying parts, and those from the last
 * listed to the first (nodeModifyTable.c: `es_auxmodifytables` is built with lcons), so the
 * projections are listed in reverse: they run in their order, that of the events (a cancelled
 * booking's row leaves the exclusion constraint before a promoted one's comes in).
 */
function appendStatement(kinds: readonly ExpectedKind[], projections: RawBuilder<unknown>[]) {
  const streams = kinds.map((kind, j) => streamParts(kind, j));
  const beside = projections.map((statement, i) => sql`, ${sql.raw(`projection${i}`)} as (${statement})`).reverse();
  return sql`
    with ${sql.join(streams.map((s) => s.ctes))},
    appended as materialized (${sql.join(
      streams.map((s) => s.rows),
      sql` union all `,
    )})
    ${sql.join(beside, sql``)}
    insert into events (event_id, stream_id, stream_revision, event_type, data, metadata, hash)
    select event_id, stream_id, stream_revision, event_type, data, metadata, hash
    from appended
    order by stream_ordinal, ordinal
    returning ${sql.raw(returnedColumns)}`;
}

/** By expectations and projection templates: combinations the code makes, a few dozen. */
const compiledAppends = boundedCache<string, CompiledTemplate>('compiled-appends', { maxEntries: 1_000 });

/** The append statement of these expectations with these projection templates, compiled once. */
function compiledAppend(kinds: readonly ExpectedKind[], projections: readonly BoundSql[]): CompiledTemplate {
  const key = `${kinds.join(',')}|${projections.map((b) => b.template.id).join(',')}`;
  return compiledAppends.remember(key, () => compileOnce(appendStatement(kinds, projections.flatMap((b, i) => b.template.statements(holesOf(`${i}.`))))));
}

/** A claim that failed: the events found no revision (see appendStatement). */
const isFailedClaim = (error: unknown) => {
  const { code, table } = error as { code?: string; table?: string };
  return code === '23502' && table === 'events';
};

/** The values of one stream's part of an append statement. */
function appendArgs({ streamId, events, expectedRevision }: StreamAppend): AppendArgs {
  const datas = events.map((e) => JSON.stringify(e.data));
  return {
    streamId,
    count: events.length,
    expected: typeof expectedRevision === 'number' ? expectedRevision : null,
    chainTypes: events.map((e) => JSON.stringify(e.type)),
    chainDatas: datas.map((d) => canonicalJson(JSON.parse(d))),
    ids: events.map((e) => e.id ?? randomUUID()),
    types: events.map((e) => e.type),
    datas,
    // The trace of the request writing the events travels with them to Kafka and the webhook (contract §18).
    metadatas: events.map((e) => JSON.stringify({ ...currentTraceMetadata(), ...e.metadata })),
  };
}

/** Appends to the streams (with the projections' statements, if any) in one statement; null when a claim failed. */
async function appendEvents(db: Executor, appends: readonly StreamAppend[], projections: readonly BoundSql[] = []): Promise<EventRow[] | null> {
  const filled: Record<string, unknown> = prefixedArgs(projections);
  appends.forEach((append, j) => {
    for (const [name, value] of Object.entries(appendArgs(append))) filled[`append${j}.${name}`] = value;
  });
  try {
    const { rows } = await db.executeQuery<EventRow>(compiledAppend(appends.map((a) => kindOf(a.expectedRevision)), projections).fill(filled));
    return [...rows];
  } catch (error) {
    if (isFailedClaim(error)) return null;
    throw error;
  }
}

/**
 * The most events whose projections go in the append statement (a few statements each, compiled
 * once per combination): a longer run (a series' occurrences) costs fewer round trips through the
 * projections' set-based `apply` than a statement of hundreds of parts costs to plan.
 */
const maxEventsBeside = 32;

/**
 * The projections' statements for an append without work of its own in the transaction, in the
 * events' order; undefined when any projection needs `apply` (then the append opens a
 * transaction): for an event it has no statements for, or for several events it cannot tell
 * write distinct rows (sqlKeyOf), which one statement cannot write one after the other.
 */
function statementsBeside(projections: readonly InlineProjection<Transaction<DB>>[], events: readonly (NewEvent & { id: string })[], options: AppendOptions<Transaction<DB>>): BoundSql[] | undefined {
  if (options.inTransaction || events.length > maxEventsBeside) return undefined;
  const bound: BoundSql[] = [];
  for (const projection of projections) {
    const handled = events.filter((event) => projection.handles.has(event.type));
    if (handled.length > 1) {
      const keys = handled.map((event) => projection.sqlKeyOf?.(event));
      if (keys.includes(undefined) || new Set(keys).size !== keys.length) return undefined;
    }
    for (const event of handled) {
      const statements = projection.sqlOf?.(event);
      if (!statements) return undefined;
      bound.push(...statements);
    }
  }
  return bound;
}

/** The recorded events of an append, in revision order, and the revision after them. */
function appendResultOf(rows: EventRow[]): AppendResult {
  const recorded = rows.map(toRecorded).sort((a, b) => a.streamRevision - b.streamRevision);
  return { nextExpectedRevision: recorded.at(-1)!.streamRevision, events: recorded };
}

/**
 * The append in an open transaction: the events, then the work of `options` and the projections
 * (in one statement when they allow it); null when the claim failed, which aborts the transaction.
 */
async function appendInTransaction(
  trx: Transaction<DB>,
  projections: readonly InlineProjection<Transaction<DB>>[],
  streamId: string,
  given: NewEvent[],
  expected: ExpectedRevision,
  options: AppendOptions<Transaction<DB>>,
): Promise<AppendResult | null> {
  const events = withIds(given);
  const beside = statementsBeside(projections, events, options);
  const rows = await appendEvents(trx, [{ streamId, events, expectedRevision: expected }], beside);
  if (!rows) return null;
  const result = appendResultOf(rows);
  if (beside) return result;
  let projected = false;
  const project = async () => {
    if (projected) return;
    projected = true;
    await projectEvents(projections, trx, result.events);
  };
  await options.inTransaction?.(trx, result.events, project);
  await project();
  return result;
}

/** The first of the appends whose stream is no longer at the revision it expected (read after the refused statement). */
async function staleAppend(db: Executor, appends: readonly StreamAppend[]): Promise<StreamAppend> {
  for (const append of appends) {
    const revision = await currentRevision(db, append.streamId);
    const { expectedRevision: expected } = append;
    const holds = typeof expected === 'number' ? revision === expected : expected === 'no_stream' ? revision === null : expected === 'stream_exists' ? revision !== null : true;
    if (!holds) return append;
  }
  return appends[0]!;
}

/**
 * The store's inline projections run in every append's transaction, so clients read their writes.
 * `turns` (default true) offers `inTurn`; false on the embedded database, whose one connection a
 * turn's transaction would hold while a command's load reads through the pool.
 */
export type PostgresEventStoreOptions = { projections: readonly InlineProjection<Transaction<DB>>[]; turns?: boolean };

export function createPostgresEventStore(db: Database, { projections, turns = true }: PostgresEventStoreOptions): EventStore<Transaction<DB>> {
  const store: EventStore<Transaction<DB>> = {
    async appendToStream(streamId, given: NewEvent[], expectedRevision, options = {}) {
      if (given.length === 0) throw new Error('appendToStream needs at least one event');
      const events = withIds(given);
      const refused = async () => new WrongExpectedRevisionError(streamId, expectedRevision, await currentRevision(db, streamId));
      const beside = statementsBeside(projections, events, options);
      if (beside) {
        // One statement, one round trip, its own transaction: the stream row is locked only while it runs.
        const rows = await appendEvents(db, [{ streamId, events, expectedRevision }], beside);
        if (!rows) throw await refused();
        return appendResultOf(rows);
      }
      let stale = false;
      const result = await db
        .transaction()
        .execute(async (trx) => {
          const appended = await appendInTransaction(trx, projections, streamId, events, expectedRevision, options);
          if (!appended) {
            stale = true;
            throw new WrongExpectedRevisionError(streamId, expectedRevision, null);
          }
          return appended;
        })
        .catch(async (error: unknown) => {
          // The failed statement aborted the transaction: the revision is read after its rollback.
          throw stale ? await refused() : error;
        });
      return result;
    },

    appendInOneTransaction(work) {
      return db.transaction().execute((trx) =>
        work(trx, async (streamId, events, expectedRevision) => {
          if (events.length === 0) throw new Error('an append needs at least one event');
          // A failed claim aborts the transaction: the error rolls back every append of the work.
          const rows = await appendEvents(trx, [{ streamId, events, expectedRevision }]);
          if (!rows) throw new WrongExpectedRevisionError(streamId, expectedRevision, null);
          const recorded = rows.map(toRecorded).sort((a, b) => a.streamRevision - b.streamRevision);
          await projectEvents(projections, trx, recorded);
          return recorded;
        }),
      );
    },
    async appendToStreams(given) {
      if (given.length === 0 || given.some((a) => a.events.length === 0)) throw new Error('an append needs at least one event');
      const appends = given.map((a) => ({ ...a, events: withIds(a.events) }));
      const beside = statementsBeside(projections, appends.flatMap((a) => a.events), {});
      if (!beside) {
        return store.appendInOneTransaction!(async (_trx, append) => {
          const recorded: RecordedEvent[] = [];
          for (const a of appends) recorded.push(...(await append(a.streamId, a.events, a.expectedRevision)));
          return recorded;
        });
      }
      // One statement, one round trip: every stream's claim, the events and the projections.
      const rows = await appendEvents(db, appends, beside);
      if (rows) return rows.map(toRecorded).sort((a, b) => a.globalPosition - b.globalPosition);
      const stale = await staleAppend(db, appends);
      throw new WrongExpectedRevisionError(stale.streamId, stale.expectedRevision, await currentRevision(db, stale.streamId));
    },
    async inTurn(streamId, work) {
      let stale: ExpectedRevision | undefined;
      return db
        .transaction()
        .execute(async (trx) => {
          // The row lock queues the stream's writers (an optimistic append's claim waits on it too,
          // and then finds the revision moved): what the turn reads and appends stands alone.
          const row = await trx.selectFrom('streams').select('stream_revision').where('stream_id', '=', streamId).forUpdate().executeTakeFirst();
          const revision = row?.stream_revision ?? null;
          const expected: ExpectedRevision = revision ?? 'no_stream';
          let appended = false;
          return work({
            trx,
            revision,
            async append(events, options = {}) {
              if (events.length === 0) throw new Error('appendToStream needs at least one event');
              if (appended) throw new Error('one append per turn');
              appended = true;
              const result = await appendInTransaction(trx, projections, streamId, events, expected, options);
              if (result) return result;
              // Only a stream that did not exist can be claimed by another writer meanwhile (no row to lock).
              stale = expected;
              throw new WrongExpectedRevisionError(streamId, expected, null);
            },
          });
        })
        .catch(async (error: unknown) => {
          throw stale === undefined ? error : new WrongExpectedRevisionError(streamId, stale, await currentRevision(db, streamId));
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

    async readStreamRevisions(streamIds) {
      const rows = streamIds.length === 0 ? [] : await db.selectFrom('streams').select(['stream_id', 'stream_revision']).where('stream_id', 'in', [...streamIds]).execute();
      const found = new Map(rows.map((row) => [row.stream_id, row.stream_revision]));
      return new Map(streamIds.map((id) => [id, found.get(id) ?? null]));
    },

    async readLastEvent(streamId) {
      const row = await db.selectFrom('events').select(eventColumns).where('stream_id', '=', streamId).orderBy('stream_revision', 'desc').limit(1).executeTakeFirst();
      return row ? toRecorded(row) : null;
    },

    async readAll({ after, maxCount }) {
      return (await readLog(db, { after, maxCount })).events;
    },
  };
  return turns ? store : { ...store, inTurn: undefined };
}

/** One read of the global log (`readLog`). */
export type LogRead = {
  after: LogPosition;
  maxCount: number;
  /** Keeps only the events its condition holds for. */
  filter?: LogFilter;
  /**
   * false: every committed event, past the late-commit horizon. Only for a reader that has locked
   * out the writers it cares about (the rebuild), where the horizon would only hide recent events
   * behind a transaction open elsewhere on the server.
   */
  horizon?: boolean;
};

/**
 * Keeps only the events `where` holds for (a condition on an `events` row). Such a read looks at
 * no more than `scanWindow` events of the log, matching or not: a rare filter costs bounded work.
 */
export type LogFilter = { where: RawBuilder<boolean>; scanWindow: number };

/** `next` is where the following read continues: `after` when nothing was read. */
export type LogPage = { events: RecordedEvent[]; next: LogPosition };

/** A row of a filtered scan: the event's columns as `columns` selects them, null on the rows past the page's matches. */
type ScannedRow<Row> = { [Column in keyof Row]: Row[Column] | null } & {
  global_position: number | null;
  transaction_id: string | null;
  matches: boolean | null;
  n: string | null;
  end_transaction_id: string;
  end_position: number;
};

const positionOf = (event: { transactionId: string; globalPosition: number }): LogPosition => ({
  transactionId: event.transactionId,
  globalPosition: event.globalPosition,
});

/**
 * The one reader of the global log: events in commit order, (transaction id, position), strictly
 * after `after`. It stops below the late-commit horizon: a slower transaction with a smaller id may
 * still commit, and its events must not be passed over. A filtered read answers at most `maxCount`
 * matches; `next` follows the last of a full page, else the last event it looked at, so that the
 * next read moves on past a window without matches.
 */
export async function readLog(db: Executor, read: LogRead): Promise<LogPage> {
  const { after, maxCount, filter } = read;
  if (!filter) {
    const rows = await db
      .selectFrom('events')
      .select(eventColumns)
      .where(read.horizon === false ? sql<boolean>`true` : isFinalInLog())
      .where(sql<boolean>`(transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)`)
      .orderBy('events.transaction_id')
      .orderBy('events.global_position')
      .limit(maxCount)
      .execute();
    const events = rows.map(toRecorded);
    const last = events.at(-1);
    return { events, next: last ? positionOf(last) : after };
  }
  const { rows, next } = await scanLog<EventRow>(db, read, filter, sql.raw(returnedColumns));
  return { events: rows.map(toRecorded), next };
}

/**
 * A filtered read of the log (as `readLog`'s) that answers each matching event as `text`, an SQL
 * expression of its `events` row, instead of the row: the driver builds no object of the event.
 * Events whose `text` is NULL are left out, after counting towards `maxCount` as `readLog`'s do.
 */
export async function readLogText(db: Executor, read: LogRead & { filter: LogFilter }, text: RawBuilder<string | null>): Promise<{ texts: string[]; next: LogPosition }> {
  const columns = sql`global_position, transaction_id::text as transaction_id, case when matches then ${text} end as text`;
  const { rows, next } = await scanLog<{ text: string | null }>(db, read, read.filter, columns);
  return { texts: rows.flatMap((row) => (row.text === null ? [] : [row.text])), next };
}

/**
 * The scan of a filtered read. One statement, one horizon. The scan walks the log's index in order
 * (each step ordered by the index's own columns, so that nothing sorts the window) and stops at the
 * page's last match or at the window's end, whichever comes first: a page of common events reads
 * about `maxCount` rows, not the whole window. Its row past the last match (a further match, or the
 * window's last event) only tells where the next read continues. When the log ends inside the
 * window, its last final event is where the next read continues. `columns` select from the matched
 * rows (with `matches` among them) and must include `global_position` and `transaction_id` as text.
 */
async function scanLog<Row>(db: Executor, read: LogRead, filter: LogFilter, columns: RawBuilder<unknown>): Promise<{ rows: Row[]; next: LogPosition }> {
  const { after, maxCount } = read;
  const beyond = sql<boolean>`(transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)`;
  const { rows } = await sql<ScannedRow<Row>>`
    with horizon as materialized (select ${logHorizon} as first_open),
    final as not materialized (
      select * from events where ${read.horizon === false ? sql`true` : sql`transaction_id < (select first_open from horizon)`} and ${beyond}),
    scan as (
      select final.*, row_number() over (order by transaction_id, global_position) as n from final
      order by transaction_id, global_position limit ${filter.scanWindow}),
    picked as (
      select *, (${filter.where}) as matches from scan where (${filter.where}) or n = ${filter.scanWindow}
      order by transaction_id, global_position limit ${maxCount + 1}),
    log_end as (
      select transaction_id::text as end_transaction_id, global_position as end_position from final
      order by transaction_id desc, global_position desc limit 1)
    select ${columns}, matches, n, end_transaction_id, end_position
    from log_end left join picked on true
    order by picked.n`.execute(db);
  if (!rows[0]) return { rows: [], next: after };
  const matched = rows.filter((row) => row.matches).slice(0, maxCount);
  const last = matched.at(-1);
  const windowEnd = rows.find((row) => Number(row.n) === filter.scanWindow);
  const stop = last && matched.length === maxCount ? last : windowEnd;
  const next = stop
    ? { transactionId: stop.transaction_id!, globalPosition: Number(stop.global_position) }
    : { transactionId: rows[0].end_transaction_id, globalPosition: Number(rows[0].end_position) };
  return { rows: matched as Row[], next };
}
