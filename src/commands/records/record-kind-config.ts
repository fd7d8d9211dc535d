import type { Transaction } from 'kysely';
import type { RecordAccess } from '../../domain/record/record-access.js';
import type { RecordChangeType } from '../../domain/record/record-event.js';
import type { RecordJson, RecordKey, RecordKind } from '../../domain/record/record-kind.js';
import type { Executor } from '../../infra/db/database.js';
import type { DB } from '../../infra/db/schema.js';
import type { CommandContext } from '../command-context.js';

/** Rules of a kind beyond field types; both hooks refuse by throwing a DomainError. */
export type RecordRules = {
  /**
   * Runs before anything of a create (one record or a bulk) is written and may reorder the records.
   * It reads outside the write transactions: it gives clear answers, beforeWrite gives the guarantee.
   */
  prepareCreate?: (db: Executor, records: RecordJson[]) => Promise<RecordJson[]>;
  /** Runs in the write's transaction before the row changes: the place for rules spanning several records. */
  beforeWrite?: (trx: Transaction<DB>, change: RecordChangeType, key: RecordKey, record: RecordJson) => Promise<void>;
  /** Runs after an update or replace is stored (whether or not it changed anything): carries it to other streams. */
  afterChange?: (ctx: CommandContext, key: RecordKey, record: RecordJson, by: string) => Promise<void>;
};

/** One record kind as the generic layer serves it: fields and table, rules, and who may read and write. */
export type RecordKindConfig = { kind: RecordKind; rules: RecordRules; access: RecordAccess };
