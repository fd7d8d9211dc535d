import type { RecordChangeType } from './record-event.js';
import type { RecordJson, RecordKind } from './record-kind.js';

/**
 * The record as it is written and answered: the kind's timestamps set to `at` (both on create,
 * `updated` on a change), its fields in the kind's order.
 */
export function stampRecord(kind: RecordKind, change: RecordChangeType, record: RecordJson, at: string): RecordJson {
  const stamped = { ...record };
  if (kind.timestamps && change !== 'deleted') {
    if (change === 'created') stamped[kind.timestamps.created] = at;
    stamped[kind.timestamps.updated] = at;
  }
  return Object.fromEntries(Object.keys(kind.fields).filter((name) => Object.hasOwn(stamped, name)).map((name) => [name, stamped[name]]));
}
