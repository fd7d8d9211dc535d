import type { ColumnType, Generated, JSONColumnType } from 'kysely';

export type StreamsTable = {
  stream_id: string;
  stream_revision: number;
  updated_at: Generated<Date>;
  /** Hash of the stream's last event, and the head before the last append (see the append statement). */
  head_hash: Generated<string>;
  previous_head_hash: Generated<string>;
};

export type EventsTable = {
  global_position: ColumnType<number, never, never>;
  /** xid8 of the committing transaction, read as text. */
  transaction_id: ColumnType<string, never, never>;
  stream_id: string;
  stream_revision: number;
  event_id: string;
  event_type: string;
  data: JSONColumnType<Record<string, unknown>, string, never>;
  metadata: JSONColumnType<Record<string, unknown>, string, never>;
  recorded_at: ColumnType<Date, never, never>;
  /** hex SHA-256 chain link: previous hash + canonical JSON of type, data, revision. */
  hash: ColumnType<string, string, never>;
};
