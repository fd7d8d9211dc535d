import { spawn } from 'node:child_process';

export type ToolRun = { seconds: number; stdout: string; stdoutLines: number };

/**
 * Runs `npm run <script> -- <args>` as an operator does (stderr passed through, so its progress
 * shows); answers its wall time (npm's and tsx's start-up included) and stdout, or counts stdout's
 * lines without keeping them (`countLines`: replay to stdout). A non-zero exit throws.
 */
export function runTool(script: string, args: string[], env: Record<string, string>, options: { countLines?: boolean } = {}): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    let stdoutLines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      if (options.countLines) for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) stdoutLines++;
      else stdout += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`npm run ${script} ${args.join(' ')} exited with ${code}: ${stdout.slice(-500)}`));
      else resolve({ seconds: (Date.now() - started) / 1000, stdout, stdoutLines });
    });
  });
}
