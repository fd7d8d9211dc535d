import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { loadOpenApi, operations, type Doc } from '../support/openapi-document.js';
import { deviceBody } from '../api/record/record-api.js';
import { seedZone } from '../support/device-records.js';
import { publisherToken, startPublishingServer } from '../api/publishing/publishing-api.js';
import type { TestServer } from '../support/test-server.js';
import { documentedResponses, type ResponseRules } from './documented-responses.js';
import { edgeSweep } from './edge-sweep.js';
import { requestArbitrary, type FuzzRequest, type OperationTarget } from './fuzz-request.js';
import type { Pools } from './schema-arbitrary.js';

/** Requests per run: a few thousand in CI; FUZZ_RUNS=50000 for a long hunt, FUZZ_SEED to replay one. */
const runs = Number(process.env.FUZZ_RUNS || 2500);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2_147_483_647;
const files = ['booking.yaml', 'devices.yaml', 'catalog.yaml', 'publishing.yaml'];

type Answer = { status: number; contentType: string; body: unknown; text: string };
type Finding = { problem: string; request: FuzzRequest & { tokenLabel: string }; answer: Answer };

/** The request as a curl command line (token shortened: any token of that level reproduces it). */
function printable(base: string, r: FuzzRequest & { tokenLabel: string }): string {
  const body = r.body === undefined ? '' : ` -H 'content-type: ${r.contentType}' --data-binary '${r.body.length > 400 ? `${r.body.slice(0, 400)}…(${r.body.length} chars)` : r.body.replace(/'/g, `'\\''`)}'`;
  return `curl -X ${r.method} '${base}${r.url}' -H 'authorization: Bearer <${r.tokenLabel} token>'${body}   # ${r.mutations.join('; ') || 'valid'}`;
}

async function send(base: string, r: FuzzRequest): Promise<Answer> {
  const response = await fetch(`${base}${r.url}`, {
    method: r.method,
    redirect: 'manual',
    headers: { ...(r.token ? { authorization: `Bearer ${r.token}` } : {}), ...(r.contentType ? { 'content-type': r.contentType } : {}) },
    body: r.body,
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let body: unknown = text;
  if (contentType.includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, contentType, body, text };
}

/** Every way an answer can break the contract (§3, §12) or its OpenAPI description; empty when it keeps both. */
function problemsOf(answer: Answer, rules: ResponseRules): string[] {
  const problems: string[] = [];
  if (answer.status >= 500 && answer.status !== 503) problems.push(`${answer.status} answered`);
  if (answer.status === 503) problems.push('503 although the database is up');
  if (answer.status >= 400) {
    const body = answer.body as { statusCode?: unknown; message?: unknown } | null;
    if (typeof body !== 'object' || body === null || body.statusCode !== answer.status || typeof body.message !== 'string') {
      problems.push(`error body not { statusCode, message }: ${answer.text.slice(0, 200)}`);
    }
  }
  const status = String(answer.status);
  const rule = rules.has(status) ? rules.get(status) : rules.has(`${status[0]}XX`) ? rules.get(`${status[0]}XX`) : rules.get('default');
  if (rule === undefined) problems.push(`status ${status} is not documented`);
  else if (rule && answer.contentType.includes('json') && !rule(answer.body)) {
    const first = rule.errors?.[0];
    problems.push(`body does not match the documented ${status} schema: ${first?.instancePath || '/'} ${first?.message} ${JSON.stringify(first?.params)}`);
  }
  return problems;
}

/** Records to hit: zones, devices, bookable resources, bookings, a series and catalog records, ids pooled by collection and field. */
async function seed_(server: TestServer): Promise<Pools> {
  const strings = new Map<string, string[]>();
  const add = (key: string, value: unknown) => strings.set(key, [...(strings.get(key) ?? []), String(value)]);
  const ok = (what: string, res: { status: number; body: any }) => {
    if (res.status >= 300) throw new Error(`seeding ${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const admin = server.token({ level: 'LV1', workspace: null, sub: 'admin-1' });
  for (const id of ['fuzz-zone-1', 'fuzz-zone-2']) {
    ok('zone', await server.request('POST', '/device/v1/zones', { body: { id, name: `Zone ${id}`, workspace: server.workspace } }));
    add('zones', id);
    add('zoneId', id);
    add('parentZoneId', id);
  }
  for (const id of ['fuzz-device-1', 'fuzz-device-2']) {
    ok('device', await server.request('POST', '/device/v1/devices', { body: deviceBody(id, server.workspace) }));
    add('devices', id);
  }
  await seedZone(server.database.db, server.workspace, 'fuzz-zone-3');
  for (const zone of ['fuzz-zone-1', 'fuzz-zone-3']) {
    const resource = ok('resource', await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: zone } }));
    add('resources', resource.id);
    add('resourceId', zone);
  }
  // LV2 and LV4 approve this one's bookings (contract §24), so that their delegations get made too.
  const approved = { resourceType: 'zone', resourceId: 'fuzz-zone-2', bookingPolicy: { autoConfirm: false, approvers: ['fuzz-LV2', 'fuzz-LV4'] } };
  add('resources', ok('approved resource', await server.request('POST', '/booking/v1/resources', { body: approved })).id);
  // Within the default booking horizon (180 days), a whole hour from now on.
  const at = (days: number, hour: number) => new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + (days * 24 + hour) * 3_600_000).toISOString();
  for (const day of [10, 11, 12]) {
    const booking = ok('booking', await server.request('POST', '/booking/v1/bookings', { body: { resourceType: 'zone', resourceId: 'fuzz-zone-1', title: 'Fuzz', startTime: at(day, 0), endTime: at(day, 1) } }));
    add('bookings', booking.id);
    add('bookingId', booking.id);
  }
  const series = ok('series', await server.request('POST', '/booking/v1/bookings/bulk', { body: { resourceType: 'zone', resourceId: 'fuzz-zone-3', title: 'Weekly', startTime: at(20, 0), endTime: at(20, 1), recurrenceRule: 'FREQ=WEEKLY;COUNT=4' } }));
  add('series', series.parent?.id ?? series.id);
  const catalog = (path: string, body: unknown) => server.request('POST', `/catalog/v1${path}`, { body, token: admin });
  const publisher = ok('publisher', await catalog('/publishers', { email: 'fuzz@example.com', name: 'Fuzz studio' }));
  add('publishers', publisher.id);
  add('publisherId', publisher.id);
  const project = ok('project', await catalog('/projects', { appName: 'fuzz', appVersion: '1.0.0', publisherId: publisher.id }));
  add('projects', project.id);
  add('projectId', project.id);
  const application = ok('application', await catalog('/applications', { name: 'fuzz', displayName: 'Fuzz', version: '1.0.0', projectId: project.id }));
  add('applications', application.id);
  add('applicationId', application.id);
  const purchase = ok('purchase', await server.request('POST', '/catalog/v1/purchases', { body: { applicationId: application.id } }));
  add('purchases', purchase.id);
  // Query-language values that name real fields of some kind, so that projections and joins get answered.
  for (const fields of ['id', 'name', 'id,name', 'parentZoneId', 'appName,appVersion', 'email', 'status,version', 'applicationId']) {
    add('fields', fields);
    add('select', fields);
  }
  ['name||$eq||Zone fuzz-zone-1', 'id||$notnull', 'type||$eq||sensor', 'id||$gt||0'].forEach((filter) => add('filter', filter));
  ['id,ASC', 'name,DESC', 'id,DESC'].forEach((sort) => add('sort', sort));
  ['parentZone', 'children', 'publisher', 'project', 'application', 'parentZone||name'].forEach((join) => add('join', join));
  add('s', '{"id":{"$notnull":true}}');
  add('provider', 'github');
  add('provider', 'google');
  add('provider', 'oidc');
  return { strings };
}

describe('fuzzing every documented operation', function () {
  this.timeout(600_000);
  let server: TestServer;
  let targets: (OperationTarget & { rules: ResponseRules })[];
  let pools: Pools;
  let tokens: fc.Arbitrary<string>;
  let workspaceAdmin: string;

  before(async () => {
    // Publishing on, GitHub sign-in configured against a port nothing listens on: no request leaves the machine.
    // No rate limit (tests/api/booking/rate-limit.test.ts holds it): a run's thousands of requests
    // by a few tokens would otherwise get 429s, documented everywhere, in place of the answers to judge.
    const nowhere = 'http://127.0.0.1:9';
    server = await startPublishingServer({ RATE_LIMIT_PER_MINUTE: '0', GITHUB_CLIENT_ID: 'fuzz', GITHUB_CLIENT_SECRET: 'fuzz', GITHUB_AUTHORIZE_URL: nowhere, GITHUB_TOKEN_URL: nowhere, GITHUB_API_URL: nowhere });
    pools = await seed_(server);
    const other = randomUUID();
    const labelled = [
      ...(['LV1', 'LV2', 'LV3', 'LV4', 'LV5'] as const).map((level) => `${level} ${server.token({ level, sub: `fuzz-${level}`, groups: ['g1'] })}`),
      `LV1-admin ${server.token({ level: 'LV1', workspace: null, sub: 'admin-1' })}`,
      `LV2-other-workspace ${server.token({ level: 'LV2', workspace: other })}`,
      `LV5-other-workspace ${server.token({ level: 'LV5', workspace: other })}`,
      `publisher ${publisherToken(Number(pools.strings.get('publishers')![0]), 'fuzz@example.com')}`,
      'no-token ',
      'garbage not.a.jwt',
    ];
    tokens = fc.constantFrom(...labelled);
    workspaceAdmin = labelled[1]!;
    targets = files.flatMap((file) => {
      const doc: Doc = loadOpenApi(file);
      const rulesOf = documentedResponses(doc, file);
      return operations(doc).map((operation) => ({ ...operation, doc, file, rules: rulesOf(operation.path, operation.method) }));
    });
  });
  after(() => server?.stop());

  /** The first request of each distinct problem (by operation and kind), and how many requests were sent, by status class. */
  function findingsLog() {
    const findings = new Map<string, Finding>();
    const byStatus: Record<number, number> = {};
    let sent = 0;
    return {
      record(target: OperationTarget & { rules: ResponseRules }, r: FuzzRequest & { tokenLabel: string }, answer: Answer) {
        sent++;
        byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
        for (const problem of problemsOf(answer, target.rules)) {
          const key = `${target.label}: ${problem.replace(/: .*/s, '')}`;
          if (!findings.has(key)) findings.set(key, { problem: `${target.label}: ${problem}`, request: r, answer });
        }
      },
      assertNone(what: string) {
        console.log(`      ${what}: ${sent} requests; ${Object.entries(byStatus).map(([status, n]) => `${status} × ${n}`).join(', ')}`);
        const report = [...findings.values()].map((f) => `${f.problem}\n    ${printable(server.url, f.request)}\n    → ${f.answer.status} ${f.answer.text.slice(0, 300)}`);
        expect(report, `${findings.size} distinct problems in ${sent} requests (FUZZ_SEED=${seed}):\n${report.join('\n')}\n`).to.deep.equal([]);
      },
    };
  }

  it('answers every edge of every operation (impossible instants, fractions, each maximum and one past it) as documented', async () => {
    const log = findingsLog();
    // Reads first and deletions last, before the random requests: each edge meets the seeded records still there.
    const rank = ['get', 'head', 'post', 'put', 'patch', 'delete'];
    const ordered = [...targets].sort((a, b) => rank.indexOf(a.method) - rank.indexOf(b.method));
    for (const target of ordered) {
      for (const r of edgeSweep(target, pools, workspaceAdmin, seed)) log.record(target, r, await send(server.url, r));
    }
    log.assertNone('edges');
  });

  it(`answers ${runs} generated requests without a 5xx, in the error shape, as documented (seed ${seed})`, async () => {
    const log = findingsLog();
    const request = fc.constantFrom(...targets).chain((target) => requestArbitrary(target, pools, tokens).map((r) => ({ target, r })));
    await fc.assert(
      fc.asyncProperty(request, async ({ target, r }) => log.record(target, r, await send(server.url, r))),
      { numRuns: runs, seed, endOnFailure: true },
    );
    log.assertNone('fuzz');
  });
});
