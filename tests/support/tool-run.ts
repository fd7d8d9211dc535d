import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** One run of a whole-log tool as an operator runs it (`npm run …`), watched from outside. */
export type ToolRun = {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  peakRssBytes: number;
  /** When each stderr line came, in ms from the start. */
  stderrLineTimes: number[];
};

/** Every process below `root`, `root` included. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs `npm run <script> -- <args>` as an operator does, stdout and stderr pipes; samples the summed
 * RSS of its process tree every 100 ms. `onStdoutLine`, when given, hears stdout line by line (and
 * stdout is not kept); `onSpawn` hears the pid of npm, the root of the tree; `showStderr` also
 * writes its stderr (the progress) to this process's.
 */
export function runTool(
  script: string,
  args: string[],
  env: Record<string, string>,
  { onStdoutLine, onSpawn, showStderr = false }: { onStdoutLine?: (line: string) => void; onSpawn?: (pid: number) => void; showStderr?: boolean } = {},
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onSpawn?.(child.pid!);
    let peakRssBytes = 0;
    const sample = setInterval(() => {
      peakRssBytes = Math.max(peakRssBytes, processTree(child.pid!).reduce((sum, pid) => sum + rssOf(pid), 0));
    }, 100);
    let stdout = '';
    let stderr = '';
    const stderrLineTimes: number[] = [];
    if (onStdoutLine) createInterface({ input: child.stdout }).on('line', onStdoutLine);
    else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      if (showStderr) process.stderr.write(chunk);
      const text = chunk.toString('utf8');
      stderr += text;
      for (let n = (text.match(/\n/g) ?? []).length; n > 0; n--) stderrLineTimes.push(Date.now() - started);
    });
    child.on('error', (error) => {
      clearInterval(sample);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(sample);
      resolve({ code, stdout, stderr, ms: Date.now() - started, peakRssBytes, stderrLineTimes });
    });
  });
}
