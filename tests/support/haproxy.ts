import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { waitFor } from '../workers/worker-test-kit.js';

export type Haproxy = { url: string; child: ChildProcess; output: () => string; stop(): Promise<void> };

/** Whether Debian's haproxy is installed (.ci/run installs it). */
export const haproxyAvailable = () => fs.existsSync('/usr/sbin/haproxy');

/**
 * HAProxy in front of the nodes with contract §19's settings (those of docker-compose's `scale`
 * profile): health checks of GET /booking/v1/health every 500 ms, fall 1, rise 2, retries 3,
 * option redispatch. Listens on loopback.
 */
export async function startHaproxy(servers: { name: string; address: string; port: number }[]): Promise<Haproxy> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    config,
    [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  retries 3',
      '  option redispatch',
      'frontend booking',
      `  bind 127.0.0.1:${port}`,
      '  default_backend nodes',
      'backend nodes',
      '  balance roundrobin',
      '  option httpchk GET /booking/v1/health',
      '  http-check expect status 200',
      '  default-server inter 500ms fall 1 rise 2',
      ...servers.map((s) => `  server ${s.name} ${s.address}:${s.port} check`),
      '',
    ].join('\n'),
  );
  const child = spawn('/usr/sbin/haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-32_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(() => fetch(`${url}/booking/v1/health`).then((r) => r.status < 500, () => false), { timeoutMs: 30_000, what: `HAProxy on ${port}\n${output}` });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
