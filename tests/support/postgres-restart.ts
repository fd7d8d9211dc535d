import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A real restart of the PostgreSQL server the tests use, for the fault runs: the Debian cluster
 * (`pg_lsclusters`) listening on DB_PORT, restarted with `pg_ctlcluster … restart`. Null unless the
 * server is the run's own to restart: in CI, or with FAULT_RESTART_POSTGRES=1 (e.g. on a cluster
 * made for the run with `pg_createcluster 15 faults -p 5442 --start`); other engineers share the
 * server elsewhere.
 */
export async function postgresRestart(): Promise<{ cluster: string; restart(): Promise<void> } | null> {
  if (!process.env.CI && process.env.FAULT_RESTART_POSTGRES !== '1') return null;
  const port = process.env.DB_PORT || '5432';
  const { stdout } = await run('pg_lsclusters', ['--no-header']);
  const row = stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[2] === port);
  if (!row) throw new Error(`no PostgreSQL cluster of this machine listens on port ${port} (pg_lsclusters):\n${stdout}`);
  const [version, name] = row as [string, string];
  return {
    cluster: `${version}/${name}`,
    restart: async () => {
      await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'restart']);
    },
  };
}
