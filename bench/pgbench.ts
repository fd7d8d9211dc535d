import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createScratchDatabase } from '../tests/support/scratch-database.js';

const run = promisify(execFile);

/**
 * pgbench's built-in tpcb-like script on the same server, in a scratch database of its own:
 * the yardstick every workload is printed beside. Needs the PostgreSQL client tools.
 */
export async function pgbenchTps(options: { clients: number; seconds: number; scale: number }): Promise<{ tps: number; version: string }> {
  const scratch = await createScratchDatabase('booking_pgbench');
  const { host, port, user, password } = scratch.config;
  const env = { ...process.env, PGHOST: host, PGPORT: String(port), PGUSER: user, ...(password ? { PGPASSWORD: password } : {}) };
  try {
    await run('pgbench', ['--initialize', '--quiet', `--scale=${options.scale}`, scratch.name], { env });
    const { stdout } = await run('pgbench', [`--client=${options.clients}`, '--jobs=2', `--time=${options.seconds}`, '--no-vacuum', scratch.name], { env });
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
    if (!tps) throw new Error(`no tps in pgbench's output:\n${stdout}`);
    const version = (await run('pgbench', ['--version'], { env })).stdout.trim();
    return { tps: Number(tps[1]), version };
  } finally {
    await scratch.drop();
  }
}
