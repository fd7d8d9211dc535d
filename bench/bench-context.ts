import os from 'node:os';
import jwt from 'jsonwebtoken';
import type { PostgresConfig } from '../tests/support/scratch-database.js';
import { creates } from './workloads/creates.js';
import { measure } from './measure.js';
import { measureDroppingBodies, measureInThreads } from './measure-dropping-bodies.js';
import type { BenchData } from './seed-bench-data.js';
import type { BenchContext } from './workload.js';

const minute = 60_000;

/** Signs the bench's tokens with the key the service was given as the platform's. */
export const tokenSigner = (privateKey: string) => (claims: object) => jwt.sign({ ...claims, email: 'bench@example.com' }, privateKey, { algorithm: 'RS256', expiresIn: 3 * 3600 });

/** The context every workload runs in, for a service at `url` on a database seeded with `data`. */
export function benchContext(settings: {
  url: string;
  sign: (claims: object) => string;
  data: BenchData;
  database: PostgresConfig;
  serviceEnv: Record<string, string>;
  named: readonly string[];
  analyze: boolean;
  seconds: number;
  connections: number;
}): BenchContext {
  const { url, sign, data, seconds, connections } = settings;
  const tokenFor = (workspace: string, as = { level: 'LV2', sub: 'bench-admin' }) => sign({ sub: as.sub, workspace, roles: [as.level] });
  const token = tokenFor(data.workspace);
  return {
    url,
    token,
    tokenFor,
    named: settings.named,
    data,
    database: settings.database,
    serviceEnv: settings.serviceEnv,
    analyze: settings.analyze,
    seconds,
    connections,
    futureMs: Math.ceil((Date.now() + 40 * 24 * 60 * minute) / (60 * minute)) * 60 * minute,
    http: (scenario) => measure(url, token, { connections, seconds, ...scenario }),
    httpDroppingBodies: (scenario) => measureDroppingBodies(url, token, { connections, seconds, ...scenario }),
    httpInThreads: (scenario) => measureInThreads(url, token, { connections, seconds, threads: Math.min(os.cpus().length, connections), ...scenario }),
  };
}

/** Warm-up (not reported): JIT, connection pool, plan caches; its creates a year past the workloads' slots. */
export async function warmUp(ctx: BenchContext): Promise<void> {
  await ctx.http({ name: 'warm-up', method: 'GET', next: () => ({ path: `/booking/v1/bookings/${ctx.data.busy.bookingIds[0]}` }), expect: 200, seconds: 2 });
  await ctx.http({ name: 'warm-up', method: 'POST', next: creates(ctx.data.spread, ctx.futureMs + 365 * 24 * 60 * minute), expect: 201, seconds: 2 });
}
