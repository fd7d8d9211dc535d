import type { Test } from 'mocha';

/**
 * The slowest tests and files of a mocha run, printed when the process exits, after mocha's summary:
 * where a CI run's time goes. Only where the files run one after another in this process (on a
 * PostgreSQL server: CI); a parallel run's workers each see their own files, and print nothing.
 */
const tests: { title: string; file: string; ms: number }[] = [];
const files = new Map<string, number>();
let lastEnd = performance.now();

const inWorker = process.env.MOCHA_WORKER_ID !== undefined;
const relative = (file: string | undefined) => (file ?? '?').replace(`${process.cwd()}/`, '');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(6)} s`;

/** Called after every test (a root hook): its own duration, and its file's wall time since the previous test ended (hooks included). */
export function recordTest(test: Test | undefined): void {
  if (!test || inWorker) return;
  const file = relative(test.file);
  tests.push({ title: test.fullTitle(), file, ms: test.duration ?? 0 });
  const now = performance.now();
  files.set(file, (files.get(file) ?? 0) + (now - lastEnd));
  lastEnd = now;
}

function report(): void {
  if (tests.length === 0) return;
  const lines = [
    '',
    'Slowest 20 tests:',
    ...[...tests].sort((a, b) => b.ms - a.ms).slice(0, 20).map((t) => `${seconds(t.ms)}  ${t.file} › ${t.title}`),
    '',
    'Slowest 10 files (wall time, their before hooks included):',
    ...[...files].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([file, ms]) => `${seconds(ms)}  ${file}`),
    '',
  ];
  // At exit the write must be synchronous: process.stdout is, to a file or a pipe (`.ci/run` tees it).
  process.stdout.write(lines.join('\n'));
}

if (!inWorker) process.once('exit', report);
