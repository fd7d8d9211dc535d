import type { BoundSql } from '../db/sql-template.js';

/** The revision the writer read: a number (0-based revision of the last event), or a stream condition. */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

/** What a decision asks to append: a type and its data. */
export type EventOf<Type extends string = string, Data extends Record<string, unknown> = Record<string, unknown>> = { type: Type; data: Data };

export type NewEvent<Event extends EventOf = EventOf> = Event & {
  metadata?: Record<string, unknown>;
  /** Defaults to a random UUID. */
  id?: string;
};

export type RecordedEvent<Event extends EventOf = EventOf> = Event & {
  id: string;
  metadata: Record<string, unknown>;
  streamId: string;
  streamRevision: number;
  globalPosition: number;
  /** xid8 of the transaction that committed the event, as a decimal string. */
  transactionId: string;
  recordedAt: Date;
  /** The stream's hash chain link (contract §13); absent where the store keeps no chain. */
  hash?: string;
};

/** A place in the global log: readers continue strictly after it. */
export type LogPosition = { transactionId: string; globalPosition: number };

export const logStart: LogPosition = { transactionId: '0', globalPosition: 0 };

/** Keeps one read model current: applies the events it handles inside the append's transaction `Trx`. */
export type InlineProjection<Trx> = {
  handles: ReadonlySet<string>;
  /** Applies events it handles, in log order: what applying them one at a time, in that order, writes. */
  apply: (trx: Trx, events: readonly RecordedEvent[]) => Promise<void>;
  /**
   * Set when `apply` writes a run of events in a few set-based statements, whatever the run's
   * length, and reads nothing another projection writes for the events it handles: the events
   * that only such projections handle are then handed to each of them in runs (project-events.ts).
   */
  setBased?: true;
  /**
   * The event applied by SQL alone, from its id, type and data: statements the store may run inside
   * its append statement, one round trip for all. The revision the append gives the event is read
   * in SQL by `appendedRevision` with its id (its position, never). They must write what `apply`
   * writes, read nothing another projection writes for the same event, and write no row twice.
   * Undefined: this event needs `apply`.
   */
  sqlOf?: (event: EventOf & { id: string }) => BoundSql[] | undefined;
  /**
   * The key of the rows `sqlOf` writes for the event (a booking's id, an entry's): events with
   * distinct keys write distinct rows and none reads another's, so several of them go in one
   * statement, applied in their order. Undefined: an append of several events this projection
   * handles takes the projections in its transaction (so does an undefined answer).
   */
  sqlKeyOf?: (event: EventOf) => string | undefined;
};

/**
 * Work of one append that commits or aborts with its events. It calls `project` to run the store's
 * projections where it needs them: checks before (they see the read models as they were), writes of
 * what stays out of events (secrets, bytes) after. The store projects afterwards if it did not.
 */
export type InTransaction<Trx> = (trx: Trx, events: RecordedEvent[], project: () => Promise<void>) => Promise<void>;

export type AppendOptions<Trx> = { inTransaction?: InTransaction<Trx> };

export type AppendResult = { nextExpectedRevision: number; events: RecordedEvent[] };

/** The events of one stream in an append to several (EventStore.appendToStreams). */
export type StreamAppend = { streamId: string; events: NewEvent[]; expectedRevision: ExpectedRevision };

/** One append inside a unit of work (`appendInOneTransaction`): its events, recorded and projected. */
export type AppendInTransaction = (streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision) => Promise<RecordedEvent[]>;

/** A writer's turn on one stream (EventStore.inTurn): no other append to the stream lands until it ends. */
export type StreamTurn<Trx> = {
  /** The turn's transaction: what is read through it sees every append committed before the turn. */
  trx: Trx;
  /** The stream's revision at the start of the turn, null when it does not exist. */
  revision: number | null;
  /** Appends in the turn's transaction, expecting `revision`. */
  append(events: NewEvent[], options?: AppendOptions<Trx>): Promise<AppendResult>;
};

/** The store of the event log; every append also runs the projections it was created with. */
export type EventStore<Trx = unknown> = {
  appendToStream(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision, options?: AppendOptions<Trx>): Promise<AppendResult>;
  readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]>;
  /**
   * The revision of the stream's last event, or null when the stream does not exist. When the read
   * models follow the log (`projectsAfterCommit`), it answers once they have passed that event.
   */
  readStreamRevision(streamId: string): Promise<number | null>;
  /** readStreamRevision of several streams in one read, where the store has one (not while the read models follow the log). */
  readStreamRevisions?(streamIds: readonly string[]): Promise<Map<string, number | null>>;
  /** The stream's last event, or null when the stream does not exist. */
  readLastEvent(streamId: string): Promise<RecordedEvent | null>;
  /**
   * Events of all streams in commit order, strictly after `after`, never skipping a late commit.
   * `follower` names a reader that continues where its last read ended (a processor): the store may
   * keep a subscription open for it between reads.
   */
  readAll(options: { after: LogPosition; maxCount: number; follower?: string }): Promise<RecordedEvent[]>;
  /**
   * A unit of work over several streams, for a store whose appends are PostgreSQL transactions:
   * `work` runs in one transaction, may read and lock there, and appends to any streams through
   * `append`, each with its own expected revision (chained and projected as any append). Everything
   * commits together or nothing does; a stale revision throws WrongExpectedRevisionError.
   */
  appendInOneTransaction?<T>(work: (trx: Trx, append: AppendInTransaction) => Promise<T>): Promise<T>;
  /**
   * Appends to several streams at once, each expecting its own revision, with the projections:
   * what `appendInOneTransaction` appending them in this order writes, in one statement where the
   * projections allow it. All or nothing; a stale revision throws WrongExpectedRevisionError.
   * Offered where the read models are written in the append (not with PROJECTIONS=async).
   */
  appendToStreams?(appends: readonly StreamAppend[]): Promise<RecordedEvent[]>;
  /**
   * Where the log ends (its last event), or null when it is empty. Set by a store whose appends
   * are no PostgreSQL transactions (EventStoreDB): checks run in an append's transaction see the
   * read models only once they have passed it.
   */
  readLogHead?(): Promise<LogPosition | null>;
  /**
   * Set when the read models follow the log after the commit (PROJECTIONS=async): a decision may
   * not take the stream's revision from a read of the read models, which may lag behind it.
   */
  readonly projectsAfterCommit?: boolean;
  /**
   * Set by the PostgreSQL store (read models in the append's transaction): runs `work` in one
   * transaction that first takes the stream's row lock, so that writers of a contended stream, in
   * any process, decide one after another on the state the previous one committed instead of
   * racing each other's optimistic retries (contract §19). The expected-revision check stays.
   */
  inTurn?<T>(streamId: string, work: (turn: StreamTurn<Trx>) => Promise<T>): Promise<T>;
};

export const positionOf = (event: RecordedEvent): LogPosition => ({ transactionId: event.transactionId, globalPosition: event.globalPosition });

/** Whether `a` is at or after `b` in the global log's order. */
export function isAtOrAfter(a: LogPosition, b: LogPosition): boolean {
  const [ta, tb] = [BigInt(a.transactionId), BigInt(b.transactionId)];
  return ta > tb || (ta === tb && a.globalPosition >= b.globalPosition);
}
