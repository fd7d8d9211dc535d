import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import express, { type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { HTTP_METHODS, isObject, loadOpenApi, openObjects, operations, resolve, type Doc, type Json } from '../support/openapi-document.js';

const SPEC_PATH = fileURLToPath(new URL('../../openapi/booking.yaml', import.meta.url));

const loadDoc = () => loadOpenApi('booking.yaml');

/** Paths (inside request bodies) of every schema carrying a `default`. */
function defaultsIn(doc: Doc, schema: unknown, where: string, seen = new Set<unknown>()): string[] {
  const s = resolve(doc, schema);
  if (!isObject(s) || seen.has(s)) return [];
  seen.add(s);
  const found = 'default' in s ? [where] : [];
  if (isObject(s.properties)) {
    for (const [name, prop] of Object.entries(s.properties)) {
      found.push(...defaultsIn(doc, prop, `${where}.${name}`, seen));
    }
  }
  if (s.items !== undefined) found.push(...defaultsIn(doc, s.items, `${where}[]`, seen));
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[k])) {
      (s[k] as unknown[]).forEach((b, i) => found.push(...defaultsIn(doc, b, `${where}.${k}[${i}]`, seen)));
    }
  }
  return found;
}

function requestSchemas(doc: Doc): { label: string; schema: unknown }[] {
  const out: { label: string; schema: unknown }[] = [];
  for (const { path, method, op } of operations(doc)) {
    if (op.requestBody === undefined) continue;
    const body = resolve(doc, op.requestBody);
    if (!isObject(body) || !isObject(body.content)) continue;
    for (const [mediaType, media] of Object.entries(body.content)) {
      if (isObject(media) && media.schema !== undefined) {
        out.push({ label: `${method.toUpperCase()} ${path} (${mediaType})`, schema: media.schema });
      }
    }
  }
  return out;
}

const EXPECTED: Record<string, string[]> = {
  // spec §4.1
  '/booking/v1/resources': ['get', 'post'],
  '/booking/v1/resources/{id}': ['delete', 'get', 'patch'],
  '/booking/v1/resources/{id}/schedule': ['get'],
  '/booking/v1/resources/{id}/available-slots': ['get'],
  // spec §4.2
  '/booking/v1/bookings': ['get', 'post'],
  '/booking/v1/bookings/{id}': ['get', 'patch'],
  '/booking/v1/bookings/{id}/confirm': ['patch'],
  '/booking/v1/bookings/{id}/cancel': ['patch'],
  '/booking/v1/bookings/{id}/checkin': ['patch'],
  '/booking/v1/bookings/{id}/checkout': ['patch'],
  '/booking/v1/bookings/bulk': ['post'],
  '/booking/v1/bookings/series/{parentId}/cancel': ['patch'],
  // spec §4.3
  '/booking/v1/health': ['get'],
  // contract extras (§6, §8, §9) and docs
  '/booking/v1/bookings/series/{parentId}': ['patch'],
  '/booking/v1/webhooks/dead-letters': ['get'],
  '/booking/v1/webhooks/dead-letters/{id}/redeliver': ['post'],
  // contract §17
  '/booking/v1/blackouts': ['get', 'post'],
  '/booking/v1/blackouts/{id}': ['delete'],
  // contract §13
  '/booking/v1/bookings/{id}/history': ['get'],
  // contract §22
  '/booking/v1/bundles': ['post'],
  '/booking/v1/bundles/{id}': ['get', 'patch'],
  '/booking/v1/bundles/{id}/cancel': ['patch'],
  '/booking/v1/resources/{id}/history': ['get'],
  '/booking/v1/events': ['get'],
  // contract §16
  '/booking/v1/free-resources': ['get'],
  '/booking/docs-yaml': ['get'],
  '/booking/docs-asyncapi': ['get'],
  '/booking/docs': ['get'],
  // contract §12
  '/metrics': ['get'],
  // contract §14
  '/booking/v1/analytics/utilization': ['get'],
  // contract §18
  '/booking/v1/calendar-feeds': ['get', 'post'],
  '/booking/v1/calendar-feeds/{id}': ['delete'],
  '/booking/v1/resources/{id}/calendar.ics': ['get'],
  '/booking/v1/bookings/calendar.ics': ['get'],
  // contract §25
  '/booking/v1/calendar-passwords': ['get', 'post'],
  '/booking/v1/calendar-passwords/{id}': ['delete'],
  // contract §17
  '/booking/v1/quotas': ['get', 'post'],
  '/booking/v1/quotas/usage': ['get'],
  '/booking/v1/quotas/{id}': ['delete'],
  // contract §24
  '/booking/v1/approvals': ['get'],
  '/booking/v1/approval-delegations': ['get', 'post'],
  '/booking/v1/approval-delegations/{id}': ['delete'],
  '/booking/v1/waitlist': ['get', 'post'],
  '/booking/v1/waitlist/{id}': ['delete', 'get'],
};

/** Read by a bearer JWT or by a calendar feed token in the query (contract §18). */
const FEEDS = ['GET /booking/v1/resources/{id}/calendar.ics', 'GET /booking/v1/bookings/calendar.ics'];

const PUBLIC = ['GET /booking/v1/health', 'GET /metrics', 'GET /booking/docs-yaml', 'GET /booking/docs-asyncapi', 'GET /booking/docs'];

const REQUIRED_SCHEMAS = [
  'Error', 'ConflictError', 'PolicyError', 'Availability', 'BookingPolicy', 'ResourceCreate',
  'ResourceUpdate', 'Resource', 'BookingCreate', 'BookingReschedule', 'CancelRequest', 'Booking',
  'SeriesCreate', 'SeriesUpdate', 'SeriesCreated', 'SeriesPreview', 'SeriesCancelled', 'Schedule',
  'AvailableSlots', 'Health', 'DeadLetter', 'EventEnvelope', 'ResourceList', 'BookingList',
  'DeadLetterList',
];

describe('openapi/booking.yaml', () => {
  let doc: Doc;

  before(() => {
    doc = loadDoc();
  });

  it('is a valid OpenAPI 3.0.3 document', async () => {
    expect(doc.openapi).to.equal('3.0.3');
    // validate() dereferences in place: give it its own copy.
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  it('describes every endpoint of spec §4 and of the contract with the expected methods', () => {
    const actual: Record<string, string[]> = {};
    for (const { path, method } of operations(doc)) (actual[path] ??= []).push(method);
    for (const methods of Object.values(actual)) methods.sort();
    expect(actual).to.deep.equal(EXPECTED);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations(doc).map(({ path, method, op }) => {
      expect(op.operationId, `${method.toUpperCase()} ${path}`).to.be.a('string').and.not.empty;
      return op.operationId as string;
    });
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('closes every request body schema (additionalProperties: false, nested and through $refs)', () => {
    const bodies = requestSchemas(doc);
    expect(bodies.length).to.be.greaterThanOrEqual(8);
    const problems = bodies.flatMap(({ label, schema }) => openObjects(doc, schema, label));
    expect(problems).to.deep.equal([]);
  });

  it('puts no defaults into request bodies that would be injected into merged fields', () => {
    // express-openapi-validator runs ajv with useDefaults: a default inside bookingPolicy
    // would overwrite stored policy fields on a partial PATCH.
    const found = requestSchemas(doc).flatMap(({ label, schema }) => defaultsIn(doc, schema, label));
    for (const where of found) expect(where, where).to.match(/\.availability\.timeZone$/);
  });

  it('uses bearer JWT globally, bearer or feed token on the calendar feeds and no security on health and docs', () => {
    const schemes = (doc.components.securitySchemes ?? {}) as Json;
    expect(schemes.bearerAuth).to.deep.include({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.security).to.deep.equal([{ bearerAuth: [] }]);
    for (const { path, method, op } of operations(doc)) {
      const label = `${method.toUpperCase()} ${path}`;
      if (PUBLIC.includes(label)) expect(op.security, label).to.deep.equal([]);
      else if (FEEDS.includes(label)) expect(op.security, label).to.deep.equal([{ bearerAuth: [] }, { feedToken: [] }]);
      else expect(op.security, label).to.equal(undefined);
    }
  });

  it('types every path id as uuid', () => {
    for (const { path, method, op } of operations(doc)) {
      const item = doc.paths[path] as Json;
      const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])]
        .map((p) => resolve(doc, p) as Json)
        .filter((p) => p.in === 'path');
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(params.map((p) => p.name), `${method} ${path}`).to.have.members(names);
      for (const p of params) {
        expect(resolve(doc, p.schema), `${method} ${path} {${String(p.name)}}`).to.deep.include({
          type: 'string',
          format: 'uuid',
        });
      }
    }
  });

  it('lists error responses through #/components/responses', () => {
    const responses = doc.components.responses as Json;
    for (const name of ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'PolicyViolation', 'ServiceUnavailable']) {
      expect(responses, name).to.have.property(name);
    }
    for (const { path, method, op } of operations(doc)) {
      if (PUBLIC.includes(`${method.toUpperCase()} ${path}`)) continue;
      const rs = op.responses as Record<string, Json>;
      expect(rs, `${method} ${path}`).to.include.keys('400', '401', '403');
      for (const [code, r] of Object.entries(rs)) {
        if (Number(code) >= 400) {
          expect(r.$ref, `${method} ${path} ${code}`).to.match(/^#\/components\/responses\//);
        }
      }
    }
  });

  it('defines the named component schemas', () => {
    expect(doc.components.schemas).to.include.keys(...REQUIRED_SCHEMAS);
  });

  it('requires every booking field and every list envelope field', async () => {
    const deref = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as Doc;
    const schemas = deref.components.schemas as Record<string, Json>;
    expect(schemas.Booking?.required).to.have.members([
      'id', 'bookableResourceId', 'isSeriesParent', 'resourceId', 'resourceType', 'workspace', 'bookerProfileId', 'bookerEmail', 'createdBy', 'title',
      'startTime', 'endTime', 'bufferBeforeMinutes', 'bufferAfterMinutes', 'units', 'status', 'recurrenceRule', 'recurrenceParentId', 'exceptionOf',
      'confirmedBy', 'confirmedAt', 'cancelledBy', 'cancelledAt', 'onBehalfOf', 'reason', 'checkedInAt',
      'checkedOutAt', 'createdAt', 'updatedAt', 'archivedAt', 'bundleId', 'calendarUid',
    ]);
    for (const list of ['ResourceList', 'BookingList', 'DeadLetterList']) {
      const required = ((schemas[list]?.allOf as Json[]) ?? []).flatMap((s) => (s.required as string[]) ?? []);
      expect(required, list).to.have.members(['data', 'count', 'total', 'page', 'pageCount']);
    }
  });
});

describe('openapi/booking.yaml with express-openapi-validator', () => {
  let server: Server;
  let base: string;

  before(async () => {
    const app = express();
    app.use(express.json());
    app.use(
      OpenApiValidator.middleware({
        apiSpec: SPEC_PATH,
        validateRequests: true,
        validateResponses: false,
        validateSecurity: false,
      }),
    );
    app.use((req: Request, res: Response) => {
      res.status(200).json({ body: req.body ?? null, query: req.query });
    });
    app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
      res.status(err.status ?? 500).json({ statusCode: err.status ?? 500, message: err.message });
    });
    server = createServer(app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(base + path, {
      method,
      headers: {
        authorization: 'Bearer test',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  const uuid = '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';
  const booking = {
    resourceType: 'zone',
    resourceId: 'zone-42',
    title: 'Weekly sync',
    startTime: '2026-12-01T09:00:00Z',
    endTime: '2026-12-01T10:00:00Z',
  };

  it('accepts the contract examples', async () => {
    const resource = {
      resourceType: 'zone',
      resourceId: 'zone-42',
      workspace: uuid,
      capacity: 8,
      groupId: 'g-1',
      availability: {
        timeZone: 'Europe/Berlin',
        hours: { monday: [{ start: '08:00', end: '18:00' }], tuesday: [], friday: [{ start: '20:00', end: '24:00' }] },
      },
      bookingPolicy: { maxDurationMinutes: 240 },
    };
    expect((await call('POST', '/booking/v1/resources', resource)).status).to.equal(200);
    expect((await call('POST', '/booking/v1/bookings', booking)).status).to.equal(200);
    const series = {
      ...booking,
      startTime: '2026-12-01T09:00:00+01:00',
      endTime: '2026-12-01T09:15:00+01:00',
      recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=30',
      timeZone: 'Europe/Berlin',
    };
    const dry = await call('POST', '/booking/v1/bookings/bulk?dryRun=true', series);
    expect(dry.status).to.equal(200);
    expect(dry.json.query).to.deep.equal({ dryRun: true });
    expect((await call('PATCH', `/booking/v1/bookings/${uuid}/cancel`, { reason: 'moved' })).status).to.equal(200);
    expect((await call('PATCH', `/booking/v1/bookings/${uuid}/cancel`)).status).to.equal(200);
    expect((await call('PATCH', `/booking/v1/bookings/${uuid}/confirm`)).status).to.equal(200);
    expect((await call('PATCH', `/booking/v1/bookings/series/${uuid}`, { title: 'x' })).status).to.equal(200);
    expect((await call('PATCH', `/booking/v1/bookings/series/${uuid}/cancel`)).status).to.equal(200);
    expect((await call('POST', `/booking/v1/webhooks/dead-letters/${uuid}/redeliver`)).status).to.equal(200);
    const schedule = await call(
      'GET',
      `/booking/v1/resources/${uuid}/schedule?from=2026-03-29T00:00:00%2B01:00&to=2026-03-30T00:00:00Z&tz=Europe/Berlin&status=pending&status=confirmed`,
    );
    expect(schedule.status).to.equal(200);
    const oneStatus = await call(
      'GET',
      `/booking/v1/resources/${uuid}/schedule?from=2026-03-29T00:00:00Z&to=2026-03-30T00:00:00Z&status=confirmed`,
    );
    expect(oneStatus.status).to.equal(200);
    expect((oneStatus.json.query as Json).status).to.deep.equal(['confirmed']);
  });

  it('takes raw `:` and `/` in time and tz query parameters', async () => {
    const list = await call('GET', '/booking/v1/bookings?from=2026-03-29T00:00:00Z&to=2026-03-30T00:00:00%2B02:00');
    expect(list.status).to.equal(200);
    expect(list.json.query).to.deep.include({ from: '2026-03-29T00:00:00Z', to: '2026-03-30T00:00:00+02:00' });
    const slots = await call('GET', `/booking/v1/resources/${uuid}/available-slots?date=2026-03-29&tz=America/New_York`);
    expect(slots.status).to.equal(200);
  });

  it('applies query defaults', async () => {
    const list = await call('GET', '/booking/v1/bookings');
    expect(list.status).to.equal(200);
    expect(list.json.query).to.deep.equal({ page: 1, limit: 20 });
    const slots = await call('GET', `/booking/v1/resources/${uuid}/available-slots?date=2026-03-29`);
    expect(slots.status).to.equal(200);
    expect((slots.json.query as Json).slotMinutes).to.equal(30);
  });

  it('does not inject policy defaults into a partial PATCH', async () => {
    const res = await call('PATCH', `/booking/v1/resources/${uuid}`, { bookingPolicy: { autoConfirm: false } });
    expect(res.status).to.equal(200);
    expect(res.json.body).to.deep.equal({ bookingPolicy: { autoConfirm: false } });
    const clear = await call('PATCH', `/booking/v1/resources/${uuid}`, {
      availability: null,
      capacity: null,
      groupId: null,
      bookingPolicy: { maxBookingsPerUser: null },
    });
    expect(clear.status).to.equal(200);
  });

  const rejected: [string, string, string, unknown?][] = [
    ['mass assignment on resource PATCH', 'PATCH', `/booking/v1/resources/${uuid}`, { workspace: uuid }],
    ['empty resource PATCH', 'PATCH', `/booking/v1/resources/${uuid}`, {}],
    ['unknown policy field', 'PATCH', `/booking/v1/resources/${uuid}`, { bookingPolicy: { foo: 1 } }],
    ['bad window end', 'POST', '/booking/v1/resources', {
      resourceType: 'zone', resourceId: 'z', availability: { hours: { monday: [{ start: '08:00', end: '24:30' }] } },
    }],
    ['unknown weekday', 'POST', '/booking/v1/resources', {
      resourceType: 'zone', resourceId: 'z', availability: { hours: { Monday: [] } },
    }],
    ['status on booking create', 'POST', '/booking/v1/bookings', { ...booking, status: 'confirmed' }],
    ['time without offset', 'POST', '/booking/v1/bookings', { ...booking, startTime: '2026-12-01T09:00:00' }],
    ['missing title', 'POST', '/booking/v1/bookings', { ...booking, title: undefined }],
    ['unknown reschedule field', 'PATCH', `/booking/v1/bookings/${uuid}`, { resourceId: 'other' }],
    ['non-uuid id', 'GET', '/booking/v1/bookings/not-a-uuid'],
    ['limit over 100', 'GET', '/booking/v1/bookings?limit=101'],
    ['unknown query parameter', 'GET', '/booking/v1/bookings?sort=title'],
    ['a raw + in a time offset', 'GET', '/booking/v1/bookings?from=2026-03-29T00:00:00+01:00'],
    ['too long tz', 'GET', `/booking/v1/resources/${uuid}/available-slots?date=2026-03-29&tz=${'A'.repeat(65)}`],
    ['schedule without to', 'GET', `/booking/v1/resources/${uuid}/schedule?from=2026-03-29T00:00:00Z`],
    ['bad slot length', 'GET', `/booking/v1/resources/${uuid}/available-slots?date=2026-03-29&slotMinutes=2`],
    ['long cancel reason', 'PATCH', `/booking/v1/bookings/${uuid}/cancel`, { reason: 'x'.repeat(501) }],
    ['series without rule', 'POST', '/booking/v1/bookings/bulk', booking],
  ];
  for (const [label, method, path, body] of rejected) {
    it(`rejects ${label} with 400`, async () => {
      expect((await call(method, path, body)).status).to.equal(400);
    });
  }
});
