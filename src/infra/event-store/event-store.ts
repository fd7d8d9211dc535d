import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

/** The revision the writer read: a number (0-based revision of the last event), or a stream condition. */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export type NewEvent = {
  type: string;
  data: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /** Defaults to a random UUID. */
  id?: string;
};

export type RecordedEvent = {
  id: string;
  type: string;
  data: Record<string, unknown>;
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

/** Runs inside the append's transaction; whatever it writes commits or aborts with the events. */
export type InlineProjection = (trx: Transaction<DB>, events: RecordedEvent[]) => Promise<void>;

export type AppendResult = { nextExpectedRevision: number; events: RecordedEvent[] };

export type EventStore = {
  appendToStream(
    streamId: string,
    events: NewEvent[],
    expectedRevision: ExpectedRevision,
    options?: { inlineProjection?: InlineProjection },
  ): Promise<AppendResult>;
  readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]>;
  /** The revision of the stream's last event, or null when the stream does not exist. */
  readStreamRevision(streamId: string): Promise<number | null>;
  /** Events of all streams in commit order, strictly after `after`, never skipping a late commit. */
  readAll(options: { after: LogPosition; maxCount: number }): Promise<RecordedEvent[]>;
};
