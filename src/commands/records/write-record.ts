import type { Transaction } from 'kysely';
import { recordConflict } from '../../domain/domain-error.js';
import type { RecordChangeType, RecordEventData } from '../../domain/record/record-event.js';
import { streamIdOf, type RecordJson, type RecordKey } from '../../domain/record/record-kind.js';
import { stampRecord } from '../../domain/record/stamp-record.js';
import type { DB } from '../../infra/db/schema.js';
import { selectRecordByKey } from '../../projections/record/select-records.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand, type AppendFailure } from '../handle-command.js';
import type { RecordKindConfig } from './record-kind-config.js';

/** The change to a record that a decision asks for; the record is the one after it (or the deleted one). */
export type RecordWrite = {
  change: RecordChangeType;
  record: RecordJson;
  /** An event type to append instead of the kind's for this change, its data added to the record event's. */
  event?: { type: string; data: Record<string, unknown> };
};

export type WriteOptions = {
  /** Writes what stays out of the event (a key hash, a package's bytes) in the append's transaction, after the row. */
  alsoWrite?: (trx: Transaction<DB>) => Promise<void>;
};

type RecordEvent = { type: string; data: RecordEventData };

/**
 * A record command through the one command loop: the state is the record, the decision its new
 * version. The kind's rules run in the append's transaction before the row changes (the records
 * projector writes the row). Answers the record after the change, or the current one when the
 * decision writes nothing.
 */
export async function writeRecord(
  ctx: CommandContext,
  config: RecordKindConfig,
  key: RecordKey,
  by: string,
  decide: (current: RecordJson | null) => RecordWrite | null,
  options: WriteOptions = {},
): Promise<RecordJson | null> {
  const { kind, rules } = config;
  // What the last decision wrote, in the kind's field order (the stored event's jsonb has its own order).
  let write: RecordWrite | null = null;
  let written: RecordJson | null = null;
  const { state, events } = await handleCommand<RecordJson | null, RecordEvent>(ctx, streamIdOf(kind, key), {
    load: (db) => selectRecordByKey(db, kind, key),
    decide: (current) => {
      write = decide(current);
      if (!write) return [];
      const now = ctx.now();
      // Milliseconds, as the table answers them: the event's record equals the stored one.
      const record = stampRecord(kind, write.change, write.record, new Date(now.epochMilliseconds).toISOString());
      written = record;
      return [{ type: write.event?.type ?? kind.events[write.change], data: { workspace: key.workspace, id: key.id, record, by, at: now.toString(), ...write.event?.data } }];
    },
    inTransaction: async (trx, _events, project) => {
      await rules.beforeWrite?.(trx, write!.change, key, written!);
      await project();
      await options.alsoWrite?.(trx);
    },
    onConstraintViolation: (error) => constraintError(config, key, error),
  });
  return events.length > 0 ? written : state;
}

/** The table's constraints back the rules up; when one fires it is a conflict, never a 500. */
function constraintError(config: RecordKindConfig, key: RecordKey, error: AppendFailure) {
  if (error.code === '23505') return recordConflict(`${config.kind.label} '${key.id}' already exists`);
  if (error.code === '23503') return recordConflict(`${config.kind.label} '${key.id}' conflicts with related records`);
  return undefined;
}
