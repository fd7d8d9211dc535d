import { expectAnswer, withCountingService } from '../statements-counted.js';
import type { Workload } from '../workload.js';
import { creates } from './creates.js';

const createsCounted = 50;

/**
 * Statements per create, and so round trips, counted in a second, in-process copy of the service on
 * the same database (bench/statements-counted.ts): creates run one at a time, so every statement
 * counted belongs to one of them.
 */
export const statementsPerCreate: Workload = {
  name: 'statements-per-create',
  async run(ctx) {
    const next = creates(ctx.data.spread, ctx.futureMs + 3 * 365 * 24 * 3_600_000);
    const statements = await withCountingService(ctx, async (url, statementsDuring) => {
      const post = () => expectAnswer(ctx, url, { method: 'POST', ...next() }, 201);
      // Caches warm, as in the service under load: one create on every resource first, so that the
      // counted ones find their registration remembered. (Counted cold, each create also looked up its
      // registration: the 8th statement of earlier runs.)
      for (let i = 0; i < ctx.data.spread.length; i++) await post();
      return statementsDuring(async () => {
        for (let i = 0; i < createsCounted; i++) await post();
      });
    });
    return [{ name: 'statements (round trips) per create, BEGIN/COMMIT included', perSecond: statements / createsCounted, unit: 'statements', note: `${statements} statements over ${createsCounted} creates` }];
  },
};
