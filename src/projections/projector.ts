import type { Transaction } from 'kysely';
import type { DB } from '../infra/db/schema.js';
import type { RecordedEvent } from '../infra/event-store/event-store.js';

/** Keeps one read model current: applies the events it handles, inside the append's transaction. */
export type Projector = {
  name: string;
  handles: ReadonlySet<string>;
  apply: (trx: Transaction<DB>, event: RecordedEvent) => Promise<void>;
};
