import type { ColumnType, Generated } from 'kysely';

export type ProcessorCheckpointsTable = {
  name: string;
  /** xid8 of the last event's transaction, read as text. */
  transaction_id: ColumnType<string, string, string>;
  global_position: number;
  updated_at: Generated<Date>;
};
