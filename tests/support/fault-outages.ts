import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { waitFor } from '../workers/worker-test-kit.js';
import { postgresRestart } from './postgres-restart.js';
import type { RelayedProcesses } from './relayed-processes.js';
import type { ServiceProcess } from './service-process.js';

export type Outage = { kind: string; recoveryMs: number };

const healthy = (process: ServiceProcess) => fetch(`${process.url}/booking/v1/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);

/**
 * The outages of a fault run on the relayed rig, while its clients keep going: 3 s of load, the
 * relay cut (connections dropped, new ones refused for 3 s), the service's backends terminated,
 * then (in CI or with FAULT_RESTART_POSTGRES=1) the server restarted, 3 s of load to finish. Each
 * with the time every process took to answer its health check again.
 */
export async function causeOutages({ database, relay, processes }: RelayedProcesses): Promise<Outage[]> {
  const recovery = async (since: number) => {
    await Promise.all(processes.map((p) => waitFor(() => healthy(p), { timeoutMs: 30_000, what: `${p.url} to recover` })));
    return Date.now() - since;
  };
  const done: Outage[] = [];
  await sleep(3_000);
  let started = Date.now();
  await relay.cutAndRefuse();
  await sleep(3_000);
  await relay.accept();
  done.push({ kind: 'relay cut + refuse', recoveryMs: await recovery(started) });
  await sleep(2_000);
  const ports = relay.upstreamPorts();
  started = Date.now();
  await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and client_port = any(${ports}::int[])`.execute(database.db);
  done.push({ kind: 'pg_terminate_backend', recoveryMs: await recovery(started) });
  const server = await postgresRestart();
  if (server) {
    await sleep(2_000);
    started = Date.now();
    await server.restart();
    done.push({ kind: `pg_ctlcluster ${server.cluster} restart`, recoveryMs: await recovery(started) });
  }
  await sleep(3_000);
  return done;
}
