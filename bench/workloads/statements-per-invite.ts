import { expectAnswer, withCountingService } from '../statements-counted.js';
import type { Workload } from '../workload.js';
import { creates, seriesCreates } from './creates.js';
import { invitations } from './invitations.js';

const day = 24 * 3_600_000;
const counted = 20;
const weekly = 'FREQ=WEEKLY;COUNT=20';

/**
 * Statements (round trips) per invitation PUT of one room (contract §26) beside a REST create, and
 * per weekly ×20 invitation beside the same REST series, counted as statements-per-create counts
 * (bench/statements-counted.ts): one request at a time, each kind first once on every resource,
 * uncounted (caches warm), then `counted` of it counted. Each kind in its own days: the single
 * slots on day 0 and 10, the series on
 * days 20 + 7n and 21 + 7n, from year 9 and 120 days (past dav-invite-series' runs).
 */
export const statementsPerInvite: Workload = {
  name: 'statements-per-invite',
  async run(ctx) {
    const base = ctx.futureMs + 9 * 365 * day + 120 * day;
    const calendar = 'text/calendar; charset=utf-8';
    const kinds = [
      { name: 'create (POST /bookings)', next: creates(ctx.data.spread, base), method: 'POST', expect: 201 },
      { name: 'invitation of one room (PUT)', next: invitations(ctx.data.spread, base + 10 * day).next, method: 'PUT', contentType: calendar, expect: 201 },
      { name: 'REST series weekly ×20 (POST /bookings/bulk)', next: seriesCreates(ctx.data.spread, base + 20 * day, weekly), method: 'POST', expect: 201 },
      { name: 'invitation of one room, weekly ×20 (PUT)', next: invitations(ctx.data.spread, base + 21 * day, [`RRULE:${weekly}`]).next, method: 'PUT', contentType: calendar, expect: 201 },
    ];
    const figures = await withCountingService(ctx, async (url, statementsDuring) => {
      const perKind: number[] = [];
      for (const kind of kinds) {
        const send = () => expectAnswer(ctx, url, { method: kind.method, contentType: kind.contentType, ...kind.next() }, kind.expect);
        for (let i = 0; i < ctx.data.spread.length; i++) await send();
        perKind.push(
          await statementsDuring(async () => {
            for (let i = 0; i < counted; i++) await send();
          }),
        );
      }
      return perKind;
    });
    return kinds.map((kind, i) => ({ name: `statements per ${kind.name}, BEGIN/COMMIT included`, perSecond: figures[i]! / counted, unit: 'statements', note: `${figures[i]} over ${counted}` }));
  },
};
