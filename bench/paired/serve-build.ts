/**
 * One build's side of a paired run (bench/paired/run-paired.ts starts it with the build's checkout as
 * its working directory, a copy of this file and of bench/bench-build.ts put there): a fresh scratch
 * database migrated and seeded by that build's own code, the service of that build started on it in
 * production mode. Prints one line, `BUILD <json>` (its URL, the seeded data, the database), then
 * serves until its standard input closes, and stops the service and drops the database.
 * Imports only what every build since 3b696b8 has.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase } from '../../src/infra/db/database.js';
import { migrateToLatest } from '../../src/infra/db/migrate.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../../src/projections/projectors.js';
import { createScratchDatabase } from '../../tests/support/scratch-database.js';
import { benchServiceEnv, settle } from '../bench-build.js';
import { freePort } from '../free-port.js';
import { seedBenchData } from '../seed-bench-data.js';

const env = (name: string) => process.env[name] ?? '';
const analyze = env('BENCH_ANALYZE') === '1';
const profileDir = env('BENCH_CPU_PROF_DIR');

/**
 * The service of this checkout (src/main.ts, API role), up once /health answers: within 3 minutes, as a
 * machine shared with other work may take that long to load it (tests/support/service-process.ts gives 30 s).
 */
async function startService(env: Record<string, string>, nodeArgs: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts', '--role', 'api'], { env: { PATH: process.env.PATH ?? '', ...(process.env.PROJECTIONS ? { PROJECTIONS: process.env.PROJECTIONS } : {}), ...env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let attempt = 0; attempt < 900; attempt++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before answering /health`);
    if (await fetch(`${url}/booking/v1/health`).then((r) => r.ok, () => false)) return { url, stop };
    await sleep(200);
  }
  await stop();
  throw new Error('the service did not answer /health within 3 minutes');
}

const database = await createScratchDatabase('booking_paired');
try {
  const db = createDatabase(database.config);
  try {
    await migrateToLatest(db);
    const sizes = JSON.parse(env('BENCH_SIZES')) as { spreadResources: number; busyBookings: number; historyEvents: number };
    const data = await seedBenchData(db, createPostgresEventStore(db, { projections: projectors }), sizes);
    await settle(db, analyze);
    const serviceEnv = benchServiceEnv(database.env, env('BENCH_PUBLIC_KEY'), `/tmp/booking-bench-${process.pid}-${database.name}`, env('BENCH_WEB_CONCURRENCY') || undefined);
    const spawnedAt = Date.now();
    const service = await startService(serviceEnv, profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
    console.log(`BUILD ${JSON.stringify({ url: service.url, data, database: database.config, serviceEnv, spawnedAt })}`);
    process.stdin.resume();
    await once(process.stdin, 'end');
    await service.stop();
  } finally {
    await db.destroy();
  }
} finally {
  await database.drop();
}
