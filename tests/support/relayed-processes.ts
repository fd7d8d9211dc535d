import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { startTcpRelay, type TcpRelay } from './tcp-relay.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { platformKey } from './test-keys.js';

/** Service processes sharing a fresh database that they reach through a TCP relay, which a fault run cuts. */
export type RelayedProcesses = { database: TestDatabase; relay: TcpRelay; processes: ServiceProcess[]; stop(): Promise<void> };

/**
 * The fault runs' rig: a scratch database on the PostgreSQL server, a relay in front of it, and
 * `count` service processes (the given role arguments; all-in-one without) on the relay, in
 * production mode with the test platform key, one worker each. `env` adds or overrides variables.
 */
export async function startRelayedProcesses(name: string, { count = 2, args = [], env = {} }: { count?: number; args?: string[]; env?: Record<string, string> } = {}): Promise<RelayedProcesses> {
  const database = await createTestDatabase();
  const relay = await startTcpRelay({ host: database.config!.host, port: database.config!.port });
  const processes: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await relay.close();
    await database.destroy();
  };
  try {
    const processEnv = {
      ...database.env,
      DB_HOST: '127.0.0.1',
      DB_PORT: String(relay.port),
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      DATA_DIR: `/tmp/booking-${name}-${process.pid}`,
      DB_POOL_SIZE: '10',
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
      ...env,
    };
    await Promise.all(Array.from({ length: count }, async () => processes.push(await startServiceProcess(processEnv, args))));
  } catch (error) {
    await stop();
    throw error;
  }
  return { database, relay, processes, stop };
}
