import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Temporal } from 'temporal-polyfill';
import type { PostgresConfig } from '../../tests/support/scratch-database.js';
import { benchContext, tokenSigner, warmUp } from '../bench-context.js';
import { summariseCpuProfile } from '../cpu-profile-summary.js';
import type { Measurement } from '../measure.js';
import type { BenchData } from '../seed-bench-data.js';
import type { BenchContext, Workload, WorkloadResult } from '../workload.js';
import { checkoutOf, currentCheckout } from './build-checkout.js';

/** The workloads a paired run takes unless --only names others: each can run again and again on one database. */
export const pairedByDefault = ['create', 'create-contended', 'read-one', 'schedule-afresh', 'free-slots'];

export type PairedOptions = {
  against: string;
  rounds: number;
  seconds: number;
  connections: number;
  workloads: Workload[];
  named: readonly string[];
  analyze: boolean;
  sizes: { spreadResources: number; busyBookings: number; historyEvents: number };
  webConcurrency?: string;
  profileDir?: string;
};

/** A build serving: its label, its context, what it answered to (for the CPU profile), and how to stop it. */
type Build = { label: string; ctx: BenchContext; requests: number; spawnedAt: number; profileDir?: string; child: ChildProcess };

const day = 24 * 60 * 60_000;
/** Each round's creates start this much later than the round before: past the slots a round takes (and the warm-up's, a year ahead). */
const roundShiftMs = 420 * day;
/** The seeded resources let a booking start at most 3,650 days ahead: the rounds' shifted slots must stay within. */
export const maxRounds = 8;

/** Starts bench/paired/serve-build.ts in `dir` and waits for its BUILD line. */
async function serveBuild(label: string, dir: string, options: PairedOptions, publicKey: string, sign: (claims: object) => string): Promise<Build> {
  const profileDir = options.profileDir && path.join(options.profileDir, label.replace(/[^\w.-]+/g, '-'));
  if (profileDir) await mkdir(profileDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/paired/serve-build.ts'], {
    cwd: dir,
    env: {
      ...process.env,
      BENCH_PUBLIC_KEY: publicKey,
      BENCH_ANALYZE: options.analyze ? '1' : '0',
      BENCH_SIZES: JSON.stringify(options.sizes),
      BENCH_CPU_PROF_DIR: profileDir ?? '',
      BENCH_WEB_CONCURRENCY: options.webConcurrency ?? '',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => (l.startsWith('BUILD ') ? resolve(l.slice(6)) : console.error(`${label}: ${l}`)));
    void exited.then((code) => reject(new Error(`${label}: the build's server exited with ${code} before serving`)));
  });
  const served = JSON.parse(line) as { url: string; data: BenchData & { busy: { firstDay: string } }; database: PostgresConfig; serviceEnv: Record<string, string>; spawnedAt: number };
  const data: BenchData = { ...served.data, busy: { ...served.data.busy, firstDay: Temporal.PlainDate.from(served.data.busy.firstDay) } };
  const ctx = benchContext({ url: served.url, sign, data, database: served.database, serviceEnv: served.serviceEnv, named: options.named, analyze: options.analyze, seconds: options.seconds, connections: options.connections });
  console.error(`${label}: serving at ${served.url}`);
  return { label, ctx, requests: 0, spawnedAt: served.spawnedAt, profileDir, child };
}

async function stopBuild(build: Build): Promise<void> {
  const exited = new Promise((resolve) => (build.child.exitCode === null ? build.child.once('exit', resolve) : resolve(undefined)));
  build.child.stdin!.end();
  await exited;
}

/** The build's context for round `round`: its creates on slots of their own, its requests counted. */
function roundContext(build: Build, round: number): BenchContext {
  const { ctx } = build;
  const count = (m: Measurement) => ((build.requests += m.requests), m);
  return {
    ...ctx,
    futureMs: ctx.futureMs + round * roundShiftMs,
    http: async (scenario) => count(await ctx.http(scenario)),
    httpDroppingBodies: async (scenario) => count(await ctx.httpDroppingBodies(scenario)),
    httpInThreads: async (scenario) => count(await ctx.httpInThreads(scenario)),
  };
}

const fixed = (value: number | undefined, digits = 1) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const errorsOf = (results: WorkloadResult[]) => {
  const all: Record<string, number> = {};
  for (const r of results) for (const [status, n] of Object.entries(r.unexpected ?? {})) all[status] = (all[status] ?? 0) + n;
  return Object.keys(all).length ? JSON.stringify(all) : '0';
};

/** One line of a workload's figure: each build's figure in every round, pooled, and current ÷ ref. */
function pairedRow(ref: WorkloadResult[], current: WorkloadResult[], loads: number[]): string {
  const figure = (r: WorkloadResult) => fixed(r.perSecond, r.unit ? 1 : 0);
  const ratios = current.map((c, i) => c.perSecond / ref[i]!.perSecond);
  const ratio = sum(current.map((r) => r.perSecond)) / sum(ref.map((r) => r.perSecond));
  const latency = (rs: WorkloadResult[]) => `${fixed(median(rs.map((r) => r.p50 ?? NaN)))} / ${fixed(median(rs.map((r) => r.p95 ?? NaN)))}`;
  const unit = current[0]!.unit ?? 'req/s';
  return `| ${current[0]!.name} | ${unit} | ${ref.map(figure).join(', ')} | ${current.map(figure).join(', ')} | **${ratio.toFixed(2)}** (${ratios.map((x) => x.toFixed(2)).join(', ')}) | ${latency(ref)} | ${latency(current)} | ${errorsOf(ref)} / ${errorsOf(current)} | ${loads.map((l) => l.toFixed(1)).join(', ')} |`;
}

const gitLine = (args: string[], cwd: string) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/**
 * `npm run bench -- --against <ref>`: this checkout and `ref` (a worktree of it, bench/paired/build-checkout.ts),
 * each serving on a fresh database seeded alike; every workload then runs `rounds` times on each build in
 * turns (ref, current, current, ref, …: the first of each round swapped, so that neither build always
 * follows the other's load), and each line prints both builds' figures per round, current ÷ ref, the
 * median p50 / p95, and the load average after each round: on a shared machine, a ratio means
 * something only beside the load it was taken under.
 */
export async function runPaired(options: PairedOptions): Promise<void> {
  const started = Date.now();
  const checkout = await checkoutOf(options.against);
  const currentCommit = gitLine(['rev-parse', '--short', 'HEAD'], currentCheckout);
  const dirty = gitLine(['status', '--porcelain', '--untracked-files=no'], currentCheckout) ? ' + uncommitted changes' : '';
  const refLabel = `ref ${checkout.commit.startsWith(options.against) ? options.against : `${options.against} (${checkout.commit.slice(0, 7)})`}`;
  const currentLabel = `current (${currentCommit}${dirty})`;
  const key = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const sign = tokenSigner(key.privateKey);
  console.error(`bench: seeding a database for each build and starting both services …`);
  let loadStartedAt = Date.now();
  const builds: Build[] = [];
  try {
    // One after the other: loading a service (tsx compiling it) takes both CPUs of a small machine for seconds.
    builds.push(await serveBuild(refLabel, checkout.dir, options, key.publicKey, sign));
    builds.push(await serveBuild(currentLabel, currentCheckout, options, key.publicKey, sign));
    const [ref, current] = builds as [Build, Build];
    for (const build of builds) await warmUp(build.ctx);
    loadStartedAt = Date.now();
    const loadAtStart = os.loadavg();
    const rows: string[] = [];
    for (const workload of options.workloads) {
      const refResults: WorkloadResult[][] = [];
      const currentResults: WorkloadResult[][] = [];
      const loads: number[] = [];
      for (let round = 0; round < options.rounds; round++) {
        console.error(`${workload.name}, round ${round + 1} of ${options.rounds} …`);
        const order = round % 2 === 0 ? [ref, current] : [current, ref];
        for (const build of order) {
          const results = await workload.run(roundContext(build, round));
          (build === ref ? refResults : currentResults).push(results);
        }
        loads.push(os.loadavg()[0]!);
      }
      // A workload may print several lines (each its own figure): the same line of every round, paired.
      currentResults[0]!.forEach((_, line) => rows.push(pairedRow(refResults.map((r) => r[line]!), currentResults.map((r) => r[line]!), loads)));
    }
    const cpu = os.cpus();
    console.log(
      [
        '',
        `Paired run: current = ${currentLabel}, ref = ${refLabel}; ${options.rounds} rounds of ${options.seconds} s per build and workload, ${options.connections} connections, each build on its own fresh database seeded alike (${options.sizes.spreadResources} + 4 resources, ${options.sizes.busyBookings.toLocaleString('en')} bookings on the busy one${options.analyze ? '' : ', no ANALYZE'})`,
        `Machine: ${cpu.length} CPUs (${cpu[0]?.model ?? 'unknown'}), Node ${process.version}; load average (1, 5, 15 min) ${loadAtStart.map((l) => l.toFixed(1)).join(' ')} at the start, ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end; ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
        '',
        '| Workload | unit | ref, each round | current, each round | current ÷ ref (each round) | ref p50 / p95 ms | current p50 / p95 ms | non-2xx ref / current | load avg (1 min) after each round |',
        '|---|---|---:|---:|---:|---:|---:|---|---|',
        ...rows,
      ].join('\n'),
    );
  } finally {
    for (const build of builds) await stopBuild(build);
  }
  if (options.profileDir) for (const build of builds) console.log(`\nCPU profile of ${build.label}:\n\n${await profileSummary(build, loadStartedAt)}`);
}

/** The summary of a build's CPU profiles (its service's processes, written when it stopped) from the end of the warm-up on. */
async function profileSummary(build: Build, loadStartedAt: number): Promise<string> {
  const dir = build.profileDir!;
  const files = (await readdir(dir)).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f) && statSync(path.join(dir, f)).mtimeMs >= build.spawnedAt).map((f) => path.join(dir, f));
  return files.length ? summariseCpuProfile(files, build.requests, { skipMs: loadStartedAt - build.spawnedAt }) : `no profile in ${dir}`;
}
