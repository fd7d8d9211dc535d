import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export type ServiceProcess = {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
};

/**
 * Runs `src/main.ts` as its own process with only the given environment (plus PATH); resolves
 * once it listens: on the port it logs (PORT unset or 0), or once /health answers on a fixed PORT
 * (for quiet log levels). `nodeArgs` go to node itself (e.g. --cpu-prof). `ownProcessGroup`: the
 * service leads a process group of its own (signal it and its processes with `-pid`).
 */
export async function startServiceProcess(
  env: Record<string, string>,
  args: string[] = [],
  nodeArgs: string[] = [],
  { ownProcessGroup = false } = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...(process.env.PROJECTIONS ? { PROJECTIONS: process.env.PROJECTIONS } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownProcessGroup,
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const fixedPort = Number(env.PORT ?? 0);
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      // Keeps only the tail: a long-running service logs every request.
      output = (output + chunk.toString()).slice(-64_000);
      const match = /listening on port (\d+)/.exec(output);
      if (match && !fixedPort) resolve(Number(match[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`service exited with ${code} before listening:\n${output}`)));
    if (fixedPort) void healthy(fixedPort).then(() => resolve(fixedPort), reject);
  }).catch((error: unknown) => {
    // A process that never came up must not outlive the test.
    child.kill('SIGKILL');
    throw error;
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function healthy(port: number): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (await fetch(`http://127.0.0.1:${port}/booking/v1/health`).then((r) => r.ok, () => false)) return;
    await sleep(100);
  }
  throw new Error(`service did not answer /health on port ${port} within 30 s`);
}
