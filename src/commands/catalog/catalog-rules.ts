import { invalidRequest, recordConflict } from '../../domain/domain-error.js';
import type { RecordJson, RecordKind } from '../../domain/record/record-kind.js';
import type { Executor } from '../../infra/db/database.js';
import { findRecordWith } from '../../projections/record/catalog/find-record-with.js';
import type { RecordRules } from '../records/record-kind-config.js';

/** How catalog records hang together; the table's keys back every rule up. */
export type CatalogRuleSpec = {
  /** Fields naming a record of another kind, which must exist (400 otherwise); null names none. */
  references: { field: string; kind: RecordKind }[];
  /** Sets of fields no two records share (409). */
  unique: string[][];
  /** Records of other kinds that keep a record from being deleted while they name it (409). */
  dependents: { kind: RecordKind; field: string; what: string }[];
};

/** The rules of a catalog kind: checked for a whole bulk before anything is written, and again in each write's transaction. */
export function catalogRules(kind: RecordKind, spec: CatalogRuleSpec): RecordRules {
  return {
    async prepareCreate(db, records) {
      for (const fields of spec.unique) {
        const texts = records.map((record) => JSON.stringify(fields.map((field) => record[field])));
        const twice = records.find((_, i) => texts.indexOf(texts[i]!) !== i);
        if (twice) throw recordConflict(`${describeUnique(kind, fields, twice)} appears twice in the bulk`);
      }
      for (const record of records) await checkRecord(db, kind, spec, record);
      return records;
    },

    async beforeWrite(trx, change, key, record) {
      if (change !== 'deleted') return checkRecord(trx, kind, spec, record);
      for (const dependent of spec.dependents) {
        if ((await findRecordWith(trx, dependent.kind, { [dependent.field]: key.id })) !== null) {
          throw recordConflict(`${kind.label} ${key.id} still has ${dependent.what}`);
        }
      }
    },
  };
}

async function checkRecord(db: Executor, kind: RecordKind, spec: CatalogRuleSpec, record: RecordJson): Promise<void> {
  for (const { field, kind: target } of spec.references) {
    const id = record[field];
    if (id === null || id === undefined) continue;
    if ((await findRecordWith(db, target, { [target.id.field]: id })) === null) {
      throw invalidRequest(`${target.label} ${String(id)} does not exist`, `/body/${field}`);
    }
  }
  for (const fields of spec.unique) {
    const values = Object.fromEntries(fields.map((field) => [field, record[field]]));
    if ((await findRecordWith(db, kind, values, record[kind.id.field] as string | number)) !== null) {
      throw recordConflict(`${describeUnique(kind, fields, record)} already exists`);
    }
  }
}

function describeUnique(kind: RecordKind, fields: string[], record: RecordJson): string {
  return `${kind.label} with ${fields.map((field) => `${field} ${JSON.stringify(record[field])}`).join(' and ')}`;
}
