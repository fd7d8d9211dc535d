import type { Transaction } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Database } from '../infra/db/database.js';
import type { DB } from '../infra/db/schema.js';
import type { EventStore } from '../infra/event-store/event-store.js';
import type { Logger } from '../infra/logger.js';

/** What every command handler needs: the store, the read models and the clock. */
export type CommandContext = {
  db: Database;
  /** Created once with the read models' projections: every append keeps them current. */
  eventStore: EventStore<Transaction<DB>>;
  now: () => Temporal.Instant;
  logger: Logger;
};
