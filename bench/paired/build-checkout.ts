import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The checkout this bench runs from. */
export const currentCheckout = path.resolve(import.meta.dirname, '../..');

/** The files of this bench that each build runs as its own (bench/paired/serve-build.ts and what it imports from here). */
const servingFiles = ['bench/bench-build.ts', 'bench/free-port.ts', 'bench/paired/serve-build.ts'];

async function runVisibly(command: string, args: string[], cwd: string): Promise<void> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', process.stderr, process.stderr] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${code}`);
}

/**
 * A git worktree of `ref` under the temporary directory, kept between runs (one per commit), ready to
 * run: its node_modules a link to this checkout's when both lock files are equal, else its own
 * (`npm ci`, once). The serving files of this bench are copied in, so both builds are prepared and
 * started alike.
 */
export async function checkoutOf(ref: string): Promise<{ dir: string; commit: string }> {
  const commit = (await run('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: currentCheckout })).stdout.trim();
  const dir = path.join(os.tmpdir(), 'booking-bench-against', commit);
  if (!existsSync(path.join(dir, '.git'))) {
    await run('git', ['worktree', 'prune'], { cwd: currentCheckout });
    await rm(dir, { recursive: true, force: true });
    await mkdir(path.dirname(dir), { recursive: true });
    await run('git', ['worktree', 'add', '--detach', dir, commit], { cwd: currentCheckout });
  }
  const ready = path.join(dir, '.bench-node-modules');
  if (!existsSync(ready)) {
    const [theirs, ours] = await Promise.all([readFile(path.join(dir, 'package-lock.json')), readFile(path.join(currentCheckout, 'package-lock.json'))]);
    await rm(path.join(dir, 'node_modules'), { recursive: true, force: true });
    if (theirs.equals(ours)) {
      await symlink(await realpath(path.join(currentCheckout, 'node_modules')), path.join(dir, 'node_modules'));
    } else {
      console.error(`bench: ${commit.slice(0, 7)} has another package-lock.json: npm ci in ${dir} …`);
      await runVisibly('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], dir);
    }
    await writeFile(ready, `${commit}\n`);
  }
  await mkdir(path.join(dir, 'bench/paired'), { recursive: true });
  for (const file of servingFiles) await copyFile(path.join(currentCheckout, file), path.join(dir, file));
  return { dir, commit };
}
