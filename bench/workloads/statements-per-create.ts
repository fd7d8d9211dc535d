import pg from 'pg';
import { loadConfig } from '../../src/infra/config.js';
import { createLogger } from '../../src/infra/logger.js';
import { startServer } from '../../src/server.js';
import type { Workload } from '../workload.js';
import { creates } from './creates.js';

const createsCounted = 50;

/**
 * Statements per create, and so round trips (each query is one), counted by a wrapper around pg.Client#query in a second, in-process copy
 * of the service on the same database (BEGIN and COMMIT included): creates run one at a time, so
 * every statement counted belongs to one of them. pg_stat_statements would need a server restart
 * (shared_preload_libraries); the wrapper needs nothing.
 */
export const statementsPerCreate: Workload = {
  name: 'statements-per-create',
  async run(ctx) {
    const server = await startServer(loadConfig({ ...ctx.serviceEnv, PORT: '0' }), createLogger('warn'));
    const query = pg.Client.prototype.query;
    let statements = 0;
    const next = creates(ctx.data.spread, ctx.futureMs + 3 * 365 * 24 * 3_600_000);
    try {
      const post = async () => {
        const { path, body } = next();
        const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
      };
      // Caches warm, as in the service under load: one create on every resource first, so that the
      // counted ones find their registration remembered. (Counted cold, each create also looked up its
      // registration: the 8th statement of earlier runs.)
      for (let i = 0; i < ctx.data.spread.length; i++) await post();
      pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
        statements += 1;
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof query;
      for (let i = 0; i < createsCounted; i++) await post();
    } finally {
      pg.Client.prototype.query = query;
      await server.close();
    }
    return [{ name: 'statements (round trips) per create, BEGIN/COMMIT included', perSecond: statements / createsCounted, unit: 'statements', note: `${statements} statements over ${createsCounted} creates` }];
  },
};
