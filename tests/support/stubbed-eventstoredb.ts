import { EventStoreDBClient } from '@eventstore/db-client';
import sinon from 'sinon';
import { fakeEventStoreDb, type FakeEventStoreDb } from './fake-eventstoredb.js';
import { startTestServer, type TestServer } from './test-server.js';

/** The connection string of an EventStoreDB deployment whose client is stubbed: no server answers there. */
export const stubbedConnectionString = 'esdb://esdb.invalid:2113?tls=false';

/** The configuration that runs the service on EventStoreDB through the stubbed client. */
export const stubbedEventStoreDbEnv = { EVENT_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: stubbedConnectionString };

export type StubbedEventStoreDb = FakeEventStoreDb & {
  /** Puts the real EventStoreDBClient.connectionString back. */
  restore(): void;
};

/**
 * Replaces the client at its edge: EventStoreDBClient.connectionString (a sinon stub) answers the
 * fake single node, whatever the connection string, until restore().
 */
export function stubEventStoreDbClient(): StubbedEventStoreDb {
  const esdb = fakeEventStoreDb();
  const connect = sinon.stub(EventStoreDBClient, 'connectionString').returns(esdb.client);
  return { ...esdb, restore: () => connect.restore() };
}

/**
 * The test server with EVENT_STORE=eventstoredb on a stubbed client: the adapter, the runner and
 * the read models in PostgreSQL are the real ones. The caller stops the server, then restores the client.
 */
export async function startTestServerOnStubbedEventStoreDb(): Promise<{ server: TestServer; esdb: StubbedEventStoreDb }> {
  const esdb = stubEventStoreDbClient();
  try {
    return { server: await startTestServer(stubbedEventStoreDbEnv), esdb };
  } catch (error) {
    esdb.restore();
    throw error;
  }
}
