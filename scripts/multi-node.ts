import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/infra/config.js';
import { haproxyAvailable, haproxyBinary, startHaproxy, type Haproxy } from './haproxy.js';

const usage = `Runs several nodes of the service on this machine behind HAProxy, as docker-compose's
scale profile does, without Docker (contract §19).

  npm run -s multi-node [-- --port 8080 --node-ports 3001,3002,3003]

  --port <port>          HAProxy's port on 127.0.0.1 (default 8080)
  --node-ports <list>    one node per port, on 127.0.0.1 (default 3001,3002,3003)
  -h, --help             this text

Needs PostgreSQL (DB_HOST and the other DB_* variables, as npm start does; DB_READ_HOST too, to read
from a replica) and Debian's haproxy (${haproxyBinary}). Every node gets this environment, its own
PORT, WEB_CONCURRENCY=1 and LOG_LEVEL=warn unless set; their logs go to stderr, each line after
its node's name. Ctrl-C (or SIGTERM) drains every node (SIGTERM: health 503 at once, requests in
flight finish, processors handed over), then stops HAProxy; the exit code is 0 when every node
exited 0. A node may be stopped or killed meanwhile (kill <pid>): HAProxy takes it out.`;

type Node = { name: string; port: number; child: ChildProcess; exited: Promise<number | null> };

function fail(message: string): never {
  process.stderr.write(`multi-node: ${message}\n`);
  process.exit(1);
}

function portOf(value: string, what: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) fail(`${what} must be a port number (1–65535), got "${value}"`);
  return port;
}

const { values } = (() => {
  try {
    return parseArgs({ options: { port: { type: 'string', default: '8080' }, 'node-ports': { type: 'string', default: '3001,3002,3003' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${usage}`);
  }
})();
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const haproxyPort = portOf(values.port, '--port');
const nodePorts = values['node-ports'].split(',').map((p) => portOf(p.trim(), '--node-ports'));
if (new Set([haproxyPort, ...nodePorts]).size !== nodePorts.length + 1) fail('--port and --node-ports must all differ');
if (!haproxyAvailable()) fail(`${haproxyBinary} is missing (Debian: apt-get install haproxy)`);
try {
  if (loadConfig(process.env).database.kind !== 'postgres') fail('several nodes need PostgreSQL: set DB_HOST (the embedded database serves one process)');
} catch (error) {
  if (error instanceof ConfigError) fail(`configuration error: ${error.message}`);
  throw error;
}

// The service itself: src/main.ts through tsx here, dist/src/main.js once built.
const here = path.dirname(fileURLToPath(import.meta.url));
const compiled = import.meta.url.endsWith('.js');
const main = path.join(here, '..', 'src', compiled ? 'main.js' : 'main.ts');

const nodes: Node[] = [];
let haproxy: Haproxy | undefined;
let stopping = false;

function startNode(name: string, port: number): Node {
  const child = spawn(process.execPath, [...(compiled ? [] : ['--import', 'tsx']), main], {
    env: { WEB_CONCURRENCY: '1', LOG_LEVEL: 'warn', ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own: Ctrl-C reaches this script alone, which drains the nodes itself.
    detached: true,
  });
  let partial = '';
  const relay = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) process.stderr.write(`${name} ${line}\n`);
  };
  child.stdout!.on('data', relay);
  child.stderr!.on('data', relay);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then((code) => {
    if (!stopping) process.stderr.write(`multi-node: ${name} (pid ${child.pid}) exited with ${code}; HAProxy sends its requests to the others\n`);
  });
  return { name, port, child, exited };
}

async function healthy(node: Node): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(250)) {
    if (node.child.exitCode !== null) throw new Error(`${node.name} exited with ${node.child.exitCode} while starting`);
    const ok = await fetch(`http://127.0.0.1:${node.port}/booking/v1/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (ok) return;
  }
  throw new Error(`${node.name} did not answer its health check on port ${node.port} within 120 s`);
}

/** Signals a node's whole process group (its primary and the processes it forked), unless it is gone. */
function signal(node: Node, name: NodeJS.Signals): void {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  try {
    process.kill(-node.child.pid!, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Drains every node still running (SIGTERM to its process group), waits for their exits, then stops HAProxy. */
async function stop(): Promise<boolean> {
  stopping = true;
  const codes = await Promise.all(
    nodes.map(async (node) => {
      signal(node, 'SIGTERM');
      const code = await node.exited;
      process.stdout.write(`${node.name} exited with ${code}\n`);
      return code;
    }),
  );
  await haproxy?.stop();
  return codes.every((code) => code === 0);
}

// Whatever ends this script, no node outlives it.
process.on('exit', () => {
  for (const node of nodes) signal(node, 'SIGKILL');
  if (haproxy?.child.exitCode === null) haproxy.child.kill('SIGKILL');
});

let signalled = false;
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(name, () => {
    if (signalled) return;
    signalled = true;
    process.stdout.write(`${name}: draining the nodes\n`);
    void stop().then((clean) => process.exit(clean ? 0 : 1));
  });
}

nodePorts.forEach((port, i) => nodes.push(startNode(`node${i + 1}`, port)));
try {
  await Promise.all(nodes.map(healthy));
  haproxy = await startHaproxy(
    nodes.map((n) => ({ name: n.name, address: '127.0.0.1', port: n.port })),
    haproxyPort,
  );
} catch (error) {
  process.stderr.write(`multi-node: ${(error as Error).message}\n`);
  await stop();
  process.exit(1);
}
if (!signalled) {
  process.stdout.write(
    [
      `${nodes.length} nodes behind HAProxy (health checks every 500 ms, fall 1, rise 2, retries 3, option redispatch)`,
      `  ${haproxy.url}  HAProxy: send requests here (docs: ${haproxy.url}/booking/docs)`,
      ...nodes.map((n) => `  http://127.0.0.1:${n.port}  ${n.name} (pid ${n.child.pid})`),
      'Ctrl-C drains the nodes and stops HAProxy.',
      '',
    ].join('\n'),
  );
}
