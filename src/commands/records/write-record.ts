import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import { DomainError } from '../../domain/domain-error.js';
import { RecordConflictError } from '../../domain/records/record-conflict-error.js';
import type { RecordChangeType, RecordEventData } from '../../domain/records/record-event.js';
import { streamIdOf, type RecordJson, type RecordKey } from '../../domain/records/record-kind.js';
import { stampRecord } from '../../domain/records/stamp-record.js';
import type { DB } from '../../infra/db/schema.js';
import { WrongExpectedRevisionError } from '../../infra/event-store/wrong-expected-revision-error.js';
import { deleteRecordRow, insertRecordRow, updateRecordRow } from '../../infra/records/record-rows.js';
import { selectRecordByKey } from '../../infra/records/select-records.js';
import { inlineProjection } from '../../projections/inline-projection.js';
import type { CommandContext } from '../command-context.js';
import { withStreamLock } from '../with-stream-lock.js';
import type { RecordKindConfig } from './record-kind-config.js';

const maxAttempts = 25;

/** The change to a record that a decision asks for; the record is the one after it (or the deleted one). */
export type RecordWrite = {
  change: RecordChangeType;
  record: RecordJson;
  /** An event type to append instead of the kind's for this change, its data added to the record event's. */
  event?: { type: string; data: Record<string, unknown> };
};

export type WriteOptions = {
  /** Runs in the write's transaction, after the kind's rules and before the row changes. */
  beforeRow?: (trx: Transaction<DB>) => Promise<void>;
};

/**
 * 1. read the stream revision, 2. read the record, 3. decide, 4. append the event expecting that
 * revision and, in the append's transaction, check the kind's rules and write the row. A concurrent
 * change makes the append fail and the decision is taken again on the fresh record.
 * Answers the record after the change, or the current one when the decision writes nothing.
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
  const streamId = streamIdOf(kind, key);
  return withStreamLock(streamId, async () => {
    for (let attempt = 1; ; attempt++) {
      const revision = await ctx.eventStore.readStreamRevision(streamId);
      const current = await selectRecordByKey(ctx.db, kind, key);
      const write = decide(current);
      if (!write) return current;
      const now = ctx.now();
      // Milliseconds, as the table answers them: the event's record equals the stored one.
      const record = stampRecord(kind, write.change, write.record, new Date(now.epochMilliseconds).toISOString());
      const data: RecordEventData = { workspace: key.workspace, id: key.id, record, by, at: now.toString(), ...write.event?.data };
      try {
        await ctx.eventStore.appendToStream(streamId, [{ type: write.event?.type ?? kind.events[write.change], data }], revision ?? 'no_stream', {
          inlineProjection: async (trx, events) => {
            await inlineProjection(trx, events);
            await rules.beforeWrite?.(trx, write.change, key, record);
            await options.beforeRow?.(trx);
            if (write.change === 'created') await insertRecordRow(trx, kind, record);
            else if (write.change === 'updated') await updateRecordRow(trx, kind, key, record);
            else await deleteRecordRow(trx, kind, key);
          },
        });
        return record;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw constraintError(config, key, error);
        if (attempt >= maxAttempts) throw new DomainError('dependency_unavailable', `too many concurrent changes to ${streamId}; try again`);
        await sleep(Math.random() * Math.min(100, 2 ** attempt));
      }
    }
  });
}

/** The table's constraints back the rules up; when one fires it is a conflict, never a 500. */
function constraintError(config: RecordKindConfig, key: RecordKey, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === '23505') return new RecordConflictError(`${config.kind.label} '${key.id}' already exists`);
  if (code === '23503') return new RecordConflictError(`${config.kind.label} '${key.id}' conflicts with related records`);
  return error;
}
