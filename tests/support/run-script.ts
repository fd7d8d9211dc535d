import { spawn } from 'node:child_process';

export type ScriptRun = { code: number | null; stdout: string; stderr: string };

/** Runs `scripts/<name>.ts` as `npm run <name>` does, as its own process, with the given environment added to PATH. */
export function runScript(name: string, args: string[], env: Record<string, string | undefined>): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
      env: { PATH: process.env.PATH, ...env },
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
