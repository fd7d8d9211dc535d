import type { Transaction } from 'kysely';
import type { DB } from '../infra/db/schema.js';
import type { RecordedEvent } from '../infra/event-store/event-store.js';

/** Keeps one read model current: applies the events it handles, inside the append's transaction. */
export type Projector = {
  name: string;
  /** The tables it owns: emptied and filled again from the log by a rebuild. */
  tables: readonly (keyof DB)[];
  handles: ReadonlySet<string>;
  apply: (trx: Transaction<DB>, event: RecordedEvent) => Promise<void>;
};
