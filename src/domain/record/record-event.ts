import type { RecordJson } from './record-kind.js';

/**
 * Every record event carries the whole record after the change (the deleted record for a delete),
 * so consumers never need the record service. `by` is the acting token's sub (`device:<id>` for
 * a device updating itself); `at` is ISO 8601 UTC.
 */
export type RecordEventData<R = RecordJson> = {
  workspace: string | null;
  id: string | number;
  record: R;
  by: string;
  at: string;
};

export type RecordChangeType = 'created' | 'updated' | 'deleted';
