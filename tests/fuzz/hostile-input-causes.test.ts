import { expect } from 'chai';
import sinon from 'sinon';
import { numericQueryParameters } from '../../src/api/refuse-hostile-input.js';
import { DomainError } from '../../src/domain/domain-error.js';
import { validateRecordInput } from '../../src/domain/record/validate-record-input.js';
import { deviceKind } from '../../src/projections/record/device-kind.js';
import { deviceBody } from '../api/record/record-api.js';
import { loadOpenApi, operations, resolve, type Json } from '../support/openapi-document.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const nested = (levels: number, inner = '1') => `${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;

/** The six causes of 500s that issue 9's fuzzing found: each is a 400 in the contract's shape, before any SQL. */
describe('hostile input refused at the edge', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  /** Sends the request and checks the answer is 400 { statusCode, message, errors } and no query ran. */
  const refused = async (method: string, path: string, body?: string) => {
    const queries = sinon.spy(server.services.db.getExecutor(), 'executeQuery');
    try {
      const res = await server.request(method, path, { body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.statusCode).to.equal(400);
      expect(res.body.message).to.be.a('string');
      expect(res.body.errors).to.be.an('array').that.is.not.empty;
      expect(queries.callCount, 'queries run for refused input').to.equal(0);
      return res.body as { message: string; errors: { path: string; message: string }[] };
    } finally {
      queries.restore();
    }
  };

  it('NUL in a body string, a query value, a path segment or a property name', async () => {
    await refused('POST', '/booking/v1/bookings', JSON.stringify({ resourceType: 'zone', resourceId: 'a\u0000b', startTime: '2030-01-01T10:00:00Z', endTime: '2030-01-01T11:00:00Z' }));
    await refused('GET', '/booking/v1/bookings?resourceId=%00');
    await refused('GET', '/booking/v1/bookings?bookerProfileId=x%00');
    await refused('GET', '/booking/v1/resources?groupId=%00');
    await refused('GET', '/device/v1/zones/a%00b');
    await refused('POST', '/device/v1/devices', JSON.stringify(deviceBody('d1', server.workspace, { extra: { 'k\u0000': 1 } })));
  });

  it('an unpaired surrogate anywhere in a body', async () => {
    const body = await refused('POST', '/device/v1/devices', JSON.stringify(deviceBody('d1', server.workspace, { extra: { note: 'x\ud800' } })));
    expect(body.errors[0]!.path).to.equal('/body/extra/note');
    await refused('POST', '/booking/v1/bookings/bulk', '{"resourceType":"zone","resourceId":"z","title":"\\udc00","startTime":"2030-01-06T09:00:00Z","endTime":"2030-01-06T10:00:00Z","recurrenceRule":"FREQ=DAILY;COUNT=2"}');
  });

  it('object-shaped query parameters, while name[] and name[i] stay lists', async () => {
    await refused('GET', '/device/v1/devices?fields[a]=1');
    await refused('GET', '/device/v1/devices/d1?select[a]=1');
    await refused('GET', '/catalog/v1/projects?filter[0][a]=1');
    await refused('GET', '/device/v1/zones?fields%5Ba%5D=1');
    const lists = await server.request('GET', '/device/v1/devices?filter[]=id||$notnull&sort[0]=id,ASC');
    expect(lists.status, JSON.stringify(lists.body)).to.equal(200);
  });

  it('numeric parameters that are not finite or beyond 2^53', async () => {
    for (const value of ['1e400', '-1e400', 'Infinity', 'NaN', '9007199254740993']) {
      await refused('GET', `/booking/v1/bookings?page=${value}`);
      await refused('GET', `/booking/v1/resources?limit=${value}`);
      await refused('GET', `/device/v1/devices?offset=${value}`);
    }
    expect((await server.request('GET', '/booking/v1/bookings?page=2&limit=5')).status).to.equal(200);
  });

  it('JSON nested deeper than 64 levels, even 10,000 deep; 64 levels still pass the guard', async () => {
    const deep = await refused('POST', '/device/v1/devices', `{"id":"d1","extra":${nested(10_000)}}`);
    expect(deep.message).to.match(/nested deeper than 64/);
    await refused('POST', '/device/v1/devices', `{"extra":${'['.repeat(64)}${']'.repeat(64)}}`);
    const atLimit = await server.request('POST', '/device/v1/devices', { body: JSON.stringify(deviceBody('d64', server.workspace, { extra: JSON.parse(nested(63)) })) });
    expect(atLimit.status, JSON.stringify(atLimit.body)).to.equal(201);
  });

  it('a body number that JSON reads as Infinity', async () => {
    await refused('POST', '/device/v1/devices', JSON.stringify(deviceBody('d2', server.workspace)).replace('"timeout":300', '"timeout":1e400'));
  });
});

describe('record input on its own', () => {
  it('refuses a value nested 100,000 levels without overflowing the stack', () => {
    let extra: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) extra = { a: extra };
    const body = deviceBody('d1', '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77', { extra });
    expect(() => validateRecordInput(deviceKind, body, 'create'))
      .to.throw(DomainError)
      .with.property('message', "Invalid Device: field 'extra' cannot hold the NUL character");
  });

  it('refuses an unpaired surrogate in a value or a key, and takes a paired one', () => {
    const body = (extra: unknown) => deviceBody('d1', '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77', { extra });
    expect(() => validateRecordInput(deviceKind, body({ a: ['\udfff'] }), 'create')).to.throw(/cannot hold an unpaired surrogate/);
    expect(() => validateRecordInput(deviceKind, body({ '\ud800': 1 }), 'create')).to.throw(/cannot hold an unpaired surrogate/);
    expect(validateRecordInput(deviceKind, body({ emoji: '\ud83d\ude00' }), 'create').extra).to.deep.equal({ emoji: '😀' });
  });
});

describe('the guard’s numeric parameters', () => {
  it('are every integer or number query parameter of the four OpenAPI documents', () => {
    const declared = new Set<string>();
    for (const file of ['booking.yaml', 'devices.yaml', 'catalog.yaml', 'publishing.yaml']) {
      const doc = loadOpenApi(file);
      for (const { path, op } of operations(doc)) {
        for (const raw of [...((doc.paths[path]!.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])]) {
          const parameter = resolve(doc, raw) as Json;
          const type = (resolve(doc, parameter.schema) as Json | undefined)?.type;
          if (parameter.in === 'query' && (type === 'integer' || type === 'number')) declared.add(parameter.name as string);
        }
      }
    }
    expect([...numericQueryParameters].sort()).to.deep.equal([...declared].sort());
  });
});
