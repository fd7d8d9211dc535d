import pg from 'pg';
import type { DatabaseConfig } from '../config.js';

export type SessionClientOptions = {
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** How long a query may wait for its answer before it fails (the session stays open); none when unset. */
  queryTimeoutMs?: number;
  /**
   * Called once when the connected session is gone, whatever the cause (a server restart, a
   * terminated backend, a broken socket, or `end()`): the client is closed; open a new one.
   */
  onLost: (client: pg.Client, error: Error) => void;
};

/** How long opening the session may take. */
const connectTimeoutMs = 5_000;

/**
 * A connected PostgreSQL session of its own, outside the pool, for what lives as long as one
 * session does (an advisory lock, LISTEN). Its errors never crash the process (contract §12): a
 * lost session is reported once to `onLost` and its socket closed, so none is kept behind. A
 * session that cannot be opened rejects instead, and is closed too.
 */
export async function createSessionClient(config: Extract<DatabaseConfig, { kind: 'postgres' }>, options: SessionClientOptions): Promise<pg.Client> {
  const client = new pg.Client({
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
    database: config.database,
    application_name: options.applicationName,
    keepAlive: true,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: options.queryTimeoutMs,
  });
  let connected = false;
  let lost = false;
  const lose = (error: Error) => {
    if (lost) return;
    lost = true;
    client.end().catch(() => undefined);
    if (connected) options.onLost(client, error);
  };
  // Permanent listeners: a lost session is an 'error' and/or an 'end', never an unhandled event.
  client.on('error', lose);
  client.on('end', () => lose(new Error('the session ended')));
  try {
    await client.connect();
  } catch (error) {
    lose(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  if (lost) throw new Error('the session ended while it was opened');
  connected = true;
  return client;
}
