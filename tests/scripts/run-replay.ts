import { spawn } from 'node:child_process';

export type ReplayRun = { code: number | null; stdout: string; stderr: string };

/** Runs `scripts/replay.ts` as `npm run replay` does, with the given environment added. */
export function runReplay(args: string[], env: Record<string, string>): Promise<ReplayRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', ...args], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
