import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { HTTP_METHODS, isObject, loadOpenApi, resolve, type Doc, type Json } from '../../support/openapi-document.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/**
 * CONTRACT §2: a non-LV1 token naming a workspace other than its own answers 400 naming
 * `workspace` on every /booking/v1 route alike. The routes are read from openapi/booking.yaml, so
 * an operation added later that takes `workspace` is walked too (and needs a sample below).
 */

const start = new Date(Date.now() + 3 * 86_400_000);
start.setUTCHours(10, 0, 0, 0);
const startTime = start.toISOString();
const endTime = new Date(start.getTime() + 3_600_000).toISOString();

/** A request that passes the schema, for each operation taking a `workspace` in its body. */
const bodies: Record<string, Json> = {
  'post /booking/v1/resources': { resourceType: 'zone', resourceId: 'zone-1' },
  'post /booking/v1/bookings': { resourceType: 'zone', resourceId: 'zone-1', title: 'Sync', startTime, endTime },
  'post /booking/v1/bookings/bulk': { resourceType: 'zone', resourceId: 'zone-1', title: 'Sync', startTime, endTime, recurrenceRule: 'FREQ=DAILY;COUNT=2' },
  'post /booking/v1/quotas': { limit: 2, unit: 'bookings', per: 'day' },
  'post /booking/v1/blackouts': { from: startTime, to: endTime, reason: 'Closed' },
  'post /booking/v1/waitlist': { resourceType: 'zone', resourceId: 'zone-1', title: 'Sync', startTime, endTime },
  'post /booking/v1/bundles': { title: 'Board', startTime, endTime, items: ['zone-1', 'zone-2'].map((resourceId) => ({ resourceType: 'zone', resourceId })) },
};

/** Query parameters an operation requires besides `workspace`. */
const queries: Record<string, string> = {
  'get /booking/v1/free-resources': `from=${encodeURIComponent(startTime)}&to=${encodeURIComponent(endTime)}`,
};

type Operation = { key: string; method: string; path: string; inQuery: boolean; inBody: boolean };

function hasWorkspaceProperty(doc: Doc, schema: unknown, seen = new Set<unknown>()): boolean {
  const node = resolve(doc, schema);
  if (!isObject(node) || seen.has(node)) return false;
  seen.add(node);
  if (isObject(node.properties) && 'workspace' in node.properties) return true;
  return ['allOf', 'oneOf', 'anyOf'].some((k) => Array.isArray(node[k]) && (node[k] as unknown[]).some((s) => hasWorkspaceProperty(doc, s, seen)));
}

function operationsNamingWorkspace(): Operation[] {
  const doc = loadOpenApi('booking.yaml');
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/booking/v1')) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) => resolve(doc, p) as Json);
      const inQuery = parameters.some((p) => p.in === 'query' && p.name === 'workspace');
      const inBody = hasWorkspaceProperty(doc, (op.requestBody as Json | undefined)?.content?.['application/json']?.schema);
      if (inQuery || inBody) found.push({ key: `${method} ${path}`, method: method.toUpperCase(), path, inQuery, inBody });
    }
  }
  return found;
}

describe('a foreign workspace on every /booking/v1 route (CONTRACT §2)', () => {
  let server: TestServer;
  const foreign = randomUUID();
  const operations = operationsNamingWorkspace();

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('finds the operations that take a workspace in the OpenAPI description', () => {
    expect(operations.map((o) => o.key)).to.include.members(['get /booking/v1/bookings', 'get /booking/v1/resources', 'post /booking/v1/bookings', 'get /booking/v1/events']);
    for (const op of operations.filter((o) => o.inBody)) expect(bodies, `a sample body for ${op.key}`).to.have.property(op.key);
  });

  for (const level of ['LV2', 'LV3', 'LV4'] as const) {
    it(`answers ${level} naming another workspace with 400 naming workspace, in the query and in the body`, async () => {
      const token = server.token({ level, groups: ['g-1'] });
      for (const op of operations) {
        if (op.path.includes('{')) throw new Error(`${op.key}: give its path parameters a sample`);
        if (op.inQuery) {
          const query = [queries[op.key], `workspace=${foreign}`].filter(Boolean).join('&');
          const res = await server.request(op.method, `${op.path}?${query}`, { token, ...(op.inBody ? { body: bodies[op.key] } : {}) });
          expect(res.status, `${op.key} ?workspace`).to.equal(400);
          expect(res.body.message, `${op.key} ?workspace`).to.contain('workspace');
        }
        if (op.inBody) {
          const res = await server.request(op.method, op.path + (queries[op.key] ? `?${queries[op.key]}` : ''), { token, body: { ...bodies[op.key], workspace: foreign } });
          expect(res.status, `${op.key} body.workspace`).to.equal(400);
          expect(res.body.message, `${op.key} body.workspace`).to.contain('workspace');
        }
      }
    });
  }

  it('lets a token name its own workspace, and LV1 name any', async () => {
    const own = await server.request('GET', `/booking/v1/bookings?workspace=${server.workspace}`, { token: server.token({ level: 'LV2' }) });
    expect(own.status).to.equal(200);
    const lv1 = await server.request('GET', `/booking/v1/bookings?workspace=${foreign}`, { token: server.token({ level: 'LV1', workspace: null }) });
    expect(lv1.status).to.equal(200);
    expect(lv1.body.total).to.equal(0);
  });
});
