import { spawn, type ChildProcess } from 'node:child_process';

export type ServiceProcess = { child: ChildProcess; url: string; output: () => string; exited: Promise<number | null> };

/** Runs `src/main.ts` as its own process with the given environment; resolves once it listens. */
export async function startServiceProcess(env: Record<string, string>, args: string[] = []): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on port (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`service exited with ${code} before listening:\n${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}
