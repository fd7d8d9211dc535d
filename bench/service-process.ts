import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export type ServiceProcess = { url: string; stop(): Promise<void> };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `node --import tsx src/main.ts` with the given environment; resolves once /health answers 200. */
export async function startServiceProcess(env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts', ...args], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    const up = await fetch(`${url}/booking/v1/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (attempt > 300) throw new Error('service did not become healthy within 30 s');
    await sleep(100);
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
