import { expect } from 'chai';
import pg from 'pg';
import { Temporal } from 'temporal-polyfill';
import { seedFreeSearch, type FreeSearchData } from '../../../bench/seed-free-search.js';
import { seedZone } from '../../support/device-records.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody } from './booking-api.js';

type Statement = { text: string; values: readonly unknown[] };
type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Index Cond'?: string; Filter?: string; Plans?: PlanNode[] };

/** Runs `work` with `seen` told of every query a pg client of this process sends (before it goes). */
async function watchingQueries(seen: (client: pg.Client, args: unknown[]) => void, work: () => Promise<void>): Promise<void> {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    seen(this, args);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
}

/** Every statement the service's pg clients send while `work` runs (the statements, run as they are). */
async function statementsOf(work: () => Promise<void>): Promise<Statement[]> {
  const sent: Statement[] = [];
  await watchingQueries((_client, args) => {
    const [first, values] = args as [string | { text?: string; values?: unknown[] }, unknown[] | undefined];
    if (typeof first === 'string') sent.push({ text: first, values: values ?? [] });
    else if (first && typeof first.text === 'string') sent.push({ text: first.text, values: first.values ?? [] });
  }, work);
  return sent.filter((s) => /^\s*(select|with|insert|update|delete)\b/i.test(s.text));
}

/** A value as pg sends it, as text (arrays as array literals, objects as JSON): PREPARE's arguments are literals. */
function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `{${value.map((item) => { const text = textOf(item); return text === null ? 'NULL' : `"${text.replace(/["\\]/g, '\\$&')}"`; }).join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The plans of every statement PostgreSQL runs for the service's connections while `work` runs,
 * those inside functions and triggers included (auto_explain, loaded on each connection as the
 * work first uses it, its plans sent to the client as LOG messages).
 */
async function nestedPlansOf(work: () => Promise<void>): Promise<{ query: string; plan: PlanNode }[]> {
  const plans: { query: string; plan: PlanNode }[] = [];
  const onNotice = (notice: { message?: string }) => {
    const at = notice.message?.indexOf('{') ?? -1;
    if (!notice.message?.startsWith('duration:') || at < 0) return;
    const logged = JSON.parse(notice.message.slice(at)) as { 'Query Text': string; Plan: PlanNode };
    plans.push({ query: logged['Query Text'], plan: logged.Plan });
  };
  const explained = new Set<pg.Client>();
  try {
    await watchingQueries((client) => {
      if (explained.has(client)) return;
      explained.add(client);
      client.on('notice', onNotice);
      // Queued before the statement that made the client known: its plan is logged too.
      client.query("load 'auto_explain'; set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set auto_explain.log_format = 'json'; set client_min_messages = 'log'").catch(() => undefined);
    }, work);
  } finally {
    for (const client of explained) {
      client.off('notice', onNotice);
      void client.query('set auto_explain.log_min_duration = -1; reset client_min_messages').catch(() => undefined);
    }
  }
  return plans;
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** A condition naming no column but the workspace: the whole workspace's bookings read. */
const workspaceAlone = (condition: string) => condition.replace(/\b(\w+\.)?workspace\s*=\s*[^()\s]+/g, '').replace(/[()\s]|\bAND\b/g, '') === '';

/** A condition on the time alone (an overlap, no resource, no workspace): every resource's bookings at that time read. */
const timeAlone = (condition: string) => condition.includes('&&') && !/\b(bookable_resource_id|workspace)\b/.test(condition);

/**
 * The plans of the hot statements (create, a cancel loading its waiters, schedule, slots, list, free search and series search,
 * and on pools and combined rooms the creates with the guards their appends fire)
 * on a database never analyzed: PostgreSQL here runs without autovacuum and neither the service nor
 * a fresh deployment analyzes, so no plan may depend on statistics. Each statement the service sends
 * is planned as its connections plan it (a generic plan of the prepared statement); none may read
 * the workspace's bookings wholesale (a sequential scan, or an index scan on the workspace alone),
 * nor every resource's bookings at a time (an index scan on the occupied range alone, the resource
 * left to a join filter: what the join of sharing_resources' ids to the bookings was planned as).
 */
describe('the hot statements never scan the workspace\'s bookings, without statistics (EXPLAIN)', function () {
  this.timeout(300_000);
  let server: TestServer;
  let data: FreeSearchData;
  let explainer: pg.Client;
  let bookingIndexes: Set<string>;

  before(async function () {
    server = await startTestServer();
    if (!server.database.isServer) this.skip();
    data = await seedFreeSearch(server.database.db, { buildings: 2, floors: 2, rooms: 50, bookings: 9_000, futureDays: 14 }, 2);
    explainer = new pg.Client({ ...server.database.config!, user: server.database.config!.user });
    await explainer.connect();
    await explainer.query('set plan_cache_mode = force_generic_plan');
    const { rows } = await explainer.query<{ indexname: string }>(`select indexname from pg_indexes where tablename = 'bookings'`);
    bookingIndexes = new Set(rows.map((r) => r.indexname));
    const { rows: analyzed } = await explainer.query<{ n: string }>(`select count(*) as n from pg_stats where tablename in ('bookings', 'resources')`);
    expect(Number(analyzed[0]!.n), 'the database must hold no statistics').to.equal(0);
    const { rows: held } = await explainer.query<{ n: string }>(`select count(*) as n from bookings where workspace = $1`, [data.workspace]);
    expect(Number(held[0]!.n)).to.be.above(5_000);
  });
  after(async () => {
    await explainer?.end();
    await server?.stop();
  });

  let prepared = 0;
  /** `ofOneResource`: the work names one resource, so the time alone is wholesale too (a search reads every resource's bookings in its window by design). */
  async function wholesaleScans(statement: Statement, ofOneResource: boolean): Promise<string[]> {
    const name = `plan_${++prepared}`;
    await explainer.query(`prepare ${name} as ${statement.text}`);
    // EXPLAIN EXECUTE takes no bound parameters: the values go as literals, as pg would send them.
    const args = statement.values.map((value) => {
      const sent = textOf(value);
      return sent === null ? 'null' : explainer.escapeLiteral(sent);
    });
    const { rows } = await explainer.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) execute ${name}${args.length ? `(${args.join(', ')})` : ''}`);
    await explainer.query(`deallocate ${name}`);
    return nodesOf(rows[0]!['QUERY PLAN'][0].Plan).flatMap((node) => {
      const onBookings = node['Relation Name'] === 'bookings' || bookingIndexes.has(node['Index Name'] ?? '');
      if (!onBookings || !/Scan/.test(node['Node Type'])) return [];
      if (node['Node Type'] === 'Seq Scan') return ['Seq Scan on bookings'];
      if (!node['Index Name']) return [];
      const condition = node['Index Cond'];
      if (condition === undefined || workspaceAlone(condition) || (ofOneResource && timeAlone(condition))) return [`${node['Node Type']} using ${node['Index Name']} on ${condition ?? 'nothing'}`];
      return [];
    });
  }

  async function expectNoWholesaleScan(what: string, work: () => Promise<void>, { ofOneResource = true } = {}): Promise<void> {
    const statements = await statementsOf(work);
    expect(statements, `${what}: no statement seen`).to.not.be.empty;
    for (const statement of statements) {
      const scans = await wholesaleScans(statement, ofOneResource);
      expect(scans, `${what}: ${statement.text}`).to.deep.equal([]);
    }
  }

  const token = () => server.token({ workspace: data.workspace, level: 'LV4', sub: 'plans-booker' });
  const admin = () => server.token({ workspace: data.workspace, level: 'LV2', sub: 'plans-admin' });
  const hour = (dayIndex: number, at: number) => data.denseDays[dayIndex]!.toZonedDateTime({ timeZone: 'Europe/Berlin', plainTime: Temporal.PlainTime.from({ hour: at }) }).toInstant();
  const ok = async (request: Promise<{ status: number; body: unknown }>, status = 200) => {
    const res = await request;
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    return res.body as Record<string, any>;
  };
  const resourceId = async () => {
    const listed = await ok(server.request('GET', '/booking/v1/resources?limit=1', { token: admin() }));
    return listed.data[0].id as string;
  };

  it('the free search, one hour and filtered', async () => {
    const window = `from=${encodeURIComponent(hour(2, 10).toString())}&to=${encodeURIComponent(hour(2, 11).toString())}`;
    await expectNoWholesaleScan('search', () => ok(server.request('GET', `/booking/v1/free-resources?${window}`, { token: token() })).then(() => undefined), { ofOneResource: false });
    await expectNoWholesaleScan('search with zone and capacity', () => ok(server.request('GET', `/booking/v1/free-resources?${window}&zoneId=b1&minCapacity=4`, { token: token() })).then(() => undefined), { ofOneResource: false });
    // Two units: no room has them, so fewer than the limit are free and the suggestions' path runs too.
    await expectNoWholesaleScan('search of two units, a page of 100', () => ok(server.request('GET', `/booking/v1/free-resources?${window}&units=2&limit=100`, { token: token() })).then(() => undefined), { ofOneResource: false });
  });

  it('the series search (weekly, with partial)', async () => {
    const window = `from=${encodeURIComponent(hour(1, 9).toString())}&to=${encodeURIComponent(hour(1, 10).toString())}`;
    await expectNoWholesaleScan('series search', () =>
      ok(server.request('GET', `/booking/v1/free-resources?${window}&recurrenceRule=${encodeURIComponent('FREQ=WEEKLY;COUNT=4')}&timeZone=Europe/Berlin&includePartial=true`, { token: token() })).then(() => undefined),
      { ofOneResource: false },
    );
  });

  it('the create, without and with a quota that applies', async () => {
    // Before the working day, on a room without operating hours.
    const create = (start: Temporal.Instant) => () => ok(server.request('POST', '/booking/v1/bookings', { token: token(), body: bookingBody('b1-f1-r1', start.toString(), start.add({ minutes: 30 }).toString()) }), 201).then(() => undefined);
    await expectNoWholesaleScan('create', create(hour(3, 7)));
    await ok(server.request('POST', '/booking/v1/quotas', { token: admin(), body: { limit: 50, unit: 'bookings', per: 'week' } }), 201);
    await expectNoWholesaleScan('create with a quota', create(hour(3, 7).add({ minutes: 30 })));
  });

  it('a cancel that loads the create states of the waiting entries', async () => {
    const start = hour(4, 7);
    const body = bookingBody('b1-f1-r1', start.toString(), start.add({ minutes: 30 }).toString());
    const booked = await ok(server.request('POST', '/booking/v1/bookings', { token: token(), body }), 201);
    for (const booker of ['plans-waiter-1', 'plans-waiter-2', 'plans-waiter-3']) await ok(server.request('POST', '/booking/v1/waitlist', { token: admin(), body: { ...body, bookerProfileId: booker } }), 201);
    await expectNoWholesaleScan('cancel with waiters', () => ok(server.request('PATCH', `/booking/v1/bookings/${booked.id}/cancel`, { token: token(), body: {} })).then(() => undefined));
  });

  /**
   * A scan of bookings that tests occupied ranges (`&&`) row by row, as a filter, instead of in its
   * index condition: it reads every active booking of a resource (or more), every day of it.
   */
  const rangeFiltered = ({ query, plan }: { query: string; plan: PlanNode }) =>
    nodesOf(plan)
      .filter((node) => (node['Relation Name'] === 'bookings' || bookingIndexes.has(node['Index Name'] ?? '')) && /Scan/.test(node['Node Type']))
      .filter((node) => (node.Filter ?? '').includes('&&') && !(node['Index Cond'] ?? '').includes('&&'))
      .map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''} on ${node['Index Cond'] ?? 'nothing'}, filtering ${node.Filter} in: ${query.replace(/\s+/g, ' ').slice(0, 300)}`);

  it('a pool and a combined room: creates, slots with units, the schedule of a whole, and the guards the appends fire', async () => {
    const register = async (zone: string, extra: Record<string, unknown> = {}) => {
      await seedZone(server.database.db, data.workspace, zone);
      const registered = await ok(server.request('POST', '/booking/v1/resources', { token: admin(), body: { resourceType: 'zone', resourceId: zone, bookingPolicy: { maxAdvanceDays: 3650 }, ...extra } }), 201);
      return registered.id as string;
    };
    const pool = await register('plans-desks', { units: 40 });
    // Combined rooms refuse PROJECTIONS=async (503, docs/booking.md): that pass pins the pool's plans alone.
    const [east, west] = [await register('plans-east'), await register('plans-west')];
    const hall = process.env.PROJECTIONS !== 'async' ? await register('plans-hall', { parts: [east, west] }) : undefined;
    const at = (n: number) => hour(5, 7).add({ minutes: 30 * n });
    /** Each call a half-hour of its own, so that a request can be made twice. */
    let slot = 0;
    const create = (zone: string, extra: Record<string, unknown> = {}) => () => {
      const n = slot++;
      return ok(server.request('POST', '/booking/v1/bookings', { token: token(), body: bookingBody(zone, at(n).toString(), at(n + 1).toString(), extra) }), 201).then(() => undefined);
    };
    const range = `from=${encodeURIComponent(at(0).toString())}&to=${encodeURIComponent(at(12).toString())}`;
    const requests: [string, () => Promise<void>][] = [
      ['create on a pool', create('plans-desks', { units: 2 })],
      ['slots of a pool', () => ok(server.request('GET', `/booking/v1/resources/${pool}/available-slots?date=${data.denseDays[5]!.toString()}&slotMinutes=30&units=4`, { token: token() })).then(() => undefined)],
      ...(hall
        ? ([
            ['create on a part', create('plans-east')],
            ['create on a whole', create('plans-hall')],
            ['schedule of a whole', () => ok(server.request('GET', `/booking/v1/resources/${hall}/schedule?${range}`, { token: admin() })).then(() => undefined)],
          ] as [string, () => Promise<void>][])
        : []),
      ['free search of units', () => ok(server.request('GET', `/booking/v1/free-resources?${range.replace(/to=[^&]*/, `to=${encodeURIComponent(at(1).toString())}`)}&units=2`, { token: token() })).then(() => undefined)],
    ];
    for (const [what, work] of requests) {
      await expectNoWholesaleScan(what, work, { ofOneResource: !what.startsWith('free search') });
      const plans = await nestedPlansOf(work);
      expect(plans, `${what}: auto_explain saw no statement`).to.not.be.empty;
      expect(plans.flatMap(rangeFiltered), what).to.deep.equal([]);
    }
  });

  it('the schedule, the free slots and the list', async () => {
    const id = await resourceId();
    const day = data.denseDays[2]!.toString();
    const range = `from=${encodeURIComponent(hour(2, 0).toString())}&to=${encodeURIComponent(hour(3, 0).toString())}`;
    await expectNoWholesaleScan('schedule', () => ok(server.request('GET', `/booking/v1/resources/${id}/schedule?${range}`, { token: admin() })).then(() => undefined));
    await expectNoWholesaleScan('slots', () => ok(server.request('GET', `/booking/v1/resources/${id}/available-slots?date=${day}&slotMinutes=30`, { token: token() })).then(() => undefined));
    await expectNoWholesaleScan('list', () => ok(server.request('GET', `/booking/v1/bookings?resourceId=b1-f1-r1&${range}`, { token: admin() })).then(() => undefined));
  });
});
