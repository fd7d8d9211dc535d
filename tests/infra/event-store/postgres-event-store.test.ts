import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { createTestDatabase } from '../../support/test-database.js';
import { eventStoreContract } from './event-store-contract.js';

eventStoreContract('PostgreSQL', async () => {
  const database = await createTestDatabase();
  return {
    store: createPostgresEventStore(database.db, { projections: [] }),
    concurrentConnections: database.isServer,
    close: () => database.destroy(),
  };
});
