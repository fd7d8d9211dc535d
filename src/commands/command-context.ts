import type { Temporal } from 'temporal-polyfill';
import type { Database } from '../infra/db/database.js';
import type { EventStore } from '../infra/event-store/event-store.js';
import type { Logger } from '../infra/logger.js';

/** What every command handler needs: the store, the read models and the clock. */
export type CommandContext = {
  db: Database;
  eventStore: EventStore;
  now: () => Temporal.Instant;
  logger: Logger;
};
