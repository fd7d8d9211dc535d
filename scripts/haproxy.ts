import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * HAProxy in front of several nodes, with contract §19's settings: health checks of
 * GET /booking/v1/health every 500 ms, fall 1, rise 2, retries 3, option redispatch. One source
 * for the three places that run it: `npm run multi-node`, the multi-node fault run (through
 * tests/support) and docker-compose's `scale` profile (deploy/haproxy.cfg, which a test compares
 * with what haproxyConfig renders). It lives in scripts/ because the script needs it and the
 * build (tsconfig.build.json: src and scripts) must not pull test code into dist.
 */

export type HaproxyServer = { name: string; address: string; port: number };

export type HaproxyOptions = {
  /** The frontend's `bind` (e.g. `127.0.0.1:8080`, `:3000`). */
  bind: string;
  servers: HaproxyServer[];
  /**
   * A DNS server to resolve the servers' names again while running (Docker's 127.0.0.11): a
   * restarted container may come back on another address. Without it names resolve once, at start.
   */
  nameserver?: string;
};

export const haproxyBinary = '/usr/sbin/haproxy';

/** Whether Debian's haproxy is installed (.ci/run installs it). */
export const haproxyAvailable = () => fs.existsSync(haproxyBinary);

export function haproxyConfig({ bind, servers, nameserver }: HaproxyOptions): string {
  const resolve = nameserver ? ' resolvers dns init-addr last,libc,none' : '';
  return [
    '# Contract §19: a node leaves the pool at its first failed check (fall 1; a draining node answers',
    '# 503 at once) and comes back after two good ones; a request refused by a node is retried on another.',
    'global',
    '  maxconn 4096',
    ...(nameserver ? ['resolvers dns', `  nameserver dns ${nameserver}`, '  hold valid 1s'] : []),
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A busy node may take longer than `inter` to answer its check; the health answer bounds itself (2 s for
    // the database, 2 s for the workers' checkpoints), so the node's own 200 or 503 decides, not this timer.
    '  timeout check 5s',
    '  retries 3',
    '  option redispatch',
    'frontend booking',
    `  bind ${bind}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    '  option httpchk GET /booking/v1/health',
    '  http-check expect status 200',
    `  default-server inter 500ms fall 1 rise 2${resolve}`,
    ...servers.map((s) => `  server ${s.name} ${s.address}:${s.port} check`),
    '',
  ].join('\n');
}

export type Haproxy = { url: string; child: ChildProcess; output: () => string; stop(): Promise<void> };

/**
 * Starts Debian's haproxy on 127.0.0.1:`port` in front of `servers`, in the foreground (`-db`);
 * resolves once a healthy node answers through it.
 */
export async function startHaproxy(servers: HaproxyServer[], port: number): Promise<Haproxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(config, haproxyConfig({ bind: `127.0.0.1:${port}`, servers }));
  const child = spawn(haproxyBinary, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-32_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${output}`);
    if (await fetch(`${url}/booking/v1/health`).then((r) => r.status < 500, () => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`haproxy did not answer on port ${port} within 30 s:\n${output}`);
    }
  }
  return { url, child, output: () => output, stop };
}
