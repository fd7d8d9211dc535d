import type { BenchData } from './seed-bench-data.js';
import type { Measurement, Scenario } from './measure.js';
import type { FixedScenario } from './measure-dropping-bodies.js';
import type { PostgresConfig } from '../tests/support/scratch-database.js';

/** What every workload gets: the running service, its seeded database, the duration option. */
export type BenchContext = {
  url: string;
  token: string;
  /** A token of the same kind (LV2) for another workspace: a workload that needs its own; another level or subject if given. */
  tokenFor(workspace: string, as?: { level: 'LV2' | 'LV3' | 'LV4' | 'LV5'; sub: string }): string;
  /** The workloads named in --only (none without): a workload whose seeding is slow runs only when named. */
  named: readonly string[];
  data: BenchData;
  /** The service's database (seeded), for workloads that talk to PostgreSQL directly. */
  database: PostgresConfig;
  /** The environment the service runs with (database, auth key), for a second copy in-process. */
  serviceEnv: Record<string, string>;
  /** Whether seeded tables are analyzed before the workloads (false with `--no-analyze`). */
  analyze: boolean;
  /** Seconds per measured run (`--seconds`). */
  seconds: number;
  connections: number;
  /** Start of the first free half-hour slots far enough ahead for creates. */
  futureMs: number;
  /** autocannon against the service at `connections`, with the bench token. */
  http(scenario: Omit<Scenario, 'connections' | 'seconds'> & { connections?: number; seconds?: number }): Promise<Measurement>;
  /** Like `http`, reading each body and dropping it (large answers: see loadDroppingBodies). */
  httpDroppingBodies(scenario: Omit<Scenario, 'connections' | 'seconds'>): Promise<Measurement>;
  /** The same, one fixed request from one client thread per CPU (answers one client thread cannot keep up with). */
  httpInThreads(scenario: Omit<FixedScenario, 'connections' | 'seconds' | 'threads'>): Promise<Measurement>;
};

/** One line of the results: a throughput beside pgbench's, optionally latencies, and the target it is held to. */
export type WorkloadResult = {
  name: string;
  perSecond: number;
  unit?: string;
  p50?: number;
  p95?: number;
  p99?: number;
  /** Non-2xx answers and errors, by status. */
  unexpected?: Record<string, number>;
  /** The load generator's CPU per answer (ms): where it nears the service's share, the figure is partly the client's. */
  clientCpuMs?: number;
  /** The target from the issue, in words, and whether this run met it (tps is pgbench's). */
  target?: (tps: number) => { text: string; met: boolean };
  note?: string;
};

/** A workload: a file of bench/workloads/, registered in bench/workloads/index.ts. */
export type Workload = {
  name: string;
  run(ctx: BenchContext): Promise<WorkloadResult[]>;
};

export const fromMeasurement = (m: Measurement, target?: WorkloadResult['target']): WorkloadResult => ({
  name: m.name,
  perSecond: m.perSecond,
  p50: m.p50,
  p95: m.p95,
  p99: m.p99,
  unexpected: m.unexpected,
  clientCpuMs: m.clientCpuMs,
  target,
});
