import type { RecordChangeType, RecordEventData } from '../../domain/record/record-event.js';
import type { RecordKind } from '../../domain/record/record-kind.js';
import type { DB } from '../../infra/db/schema.js';
import { deleteRecordRow, insertRecordRow, keyColumnsOf, updateRecordRow } from './record-rows.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import type { Projector } from '../projector.js';
import { recordKinds } from './record-kinds.js';

/**
 * The tables of these record kinds: each record event carries the whole record after the change.
 * `repeatable`: for followers of a log whose record appends applied the projector in their own
 * PostgreSQL transaction already (appendingInPostgresTransactions): a create that finds its row
 * passes over it; an update or a delete writes the same again. Such appends take turns and wait for
 * the followers to pass the log's head, so a follower meets a record's event with its row either
 * just before or just after it, never further on.
 */
export function recordsProjectorOf(kinds: readonly RecordKind[], options: { repeatable?: boolean } = {}): Projector {
  const changeOf = new Map<string, { kind: RecordKind; change: RecordChangeType }>(
    kinds.flatMap((kind) => [
      ...(['created', 'updated', 'deleted'] as const).map((change) => [kind.events[change], { kind, change }] as const),
      ...(kind.alsoUpdatedBy ?? []).map((type) => [type, { kind, change: 'updated' as const }] as const),
    ]),
  );
  return {
    name: 'records',
    inAppend: true,
    tables: kinds.map((kind) => kind.table as keyof DB),
    kept: kinds.flatMap((kind) => (kind.keptColumns ? [{ table: kind.table as keyof DB, key: keyColumnsOf(kind), columns: kind.keptColumns }] : [])),
    handles: new Set(changeOf.keys()),
    apply: oneAtATime(async (trx, event) => {
      const { kind, change } = changeOf.get(event.type)!;
      const data = event.data as RecordEventData;
      const key = { workspace: data.workspace, id: data.id };
      if (change === 'created') await insertRecordRow(trx, kind, data.record, data.at, { ifAbsent: options.repeatable });
      else if (change === 'updated') await updateRecordRow(trx, kind, key, data.record, data.at);
      else await deleteRecordRow(trx, kind, key);
    }),
  };
}

/** Device and catalog records. */
export const recordsProjector: Projector = recordsProjectorOf(recordKinds);

/** The same, following an EventStoreDB log whose record appends applied it already. */
export const repeatableRecordsProjector: Projector = recordsProjectorOf(recordKinds, { repeatable: true });
