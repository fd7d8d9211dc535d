import { Ajv } from 'ajv';
import { expect } from 'chai';
import { isObject, loadOpenApi, operations, resolve, type Doc, type Json } from '../support/openapi-document.js';

const isLimited = (path: string, method: string) => path.startsWith('/booking/v1/') && !(method === 'get' && path === '/booking/v1/health');
const isWrite = (path: string, method: string) => path.startsWith('/booking/v1/') && (method === 'post' || method === 'patch');

/** Whether the documented JSON body of a response accepts `body` (refs resolved against the document). */
function accepts(doc: Doc, response: unknown, body: unknown): boolean {
  const resolved = resolve(doc, response) as Json;
  const schema = resolved.content?.['application/json']?.schema;
  const ajv = new Ajv({ strict: false, validateSchema: false, logger: false });
  ajv.addSchema(doc as object, 'booking.yaml');
  const pointer = isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref : null;
  const validate = pointer ? ajv.getSchema(`booking.yaml${pointer}`) : ajv.compile({ ...schema, components: doc.components });
  return Boolean(validate?.(body));
}

// Routes added later are held to the same rules: the middleware applies to every one of them.
describe('openapi/booking.yaml: retries and rate limits (contract §18)', () => {
  const doc = loadOpenApi('booking.yaml');

  it('references the shared Idempotency-Key parameter from every POST and PATCH under /booking/v1', () => {
    const parameter = doc.components.parameters.IdempotencyKey as Json;
    expect(parameter).to.include({ name: 'Idempotency-Key', in: 'header' });
    expect(parameter.schema).to.include({ minLength: 1, maxLength: 255 });
    for (const { path, method, op } of operations(doc).filter((o) => isWrite(o.path, o.method))) {
      const refs = ((op.parameters ?? []) as Json[]).map((p) => p.$ref);
      expect(refs, `${method} ${path}`).to.include('#/components/parameters/IdempotencyKey');
    }
  });

  it('documents the Idempotent-Replayed header on every success and the 409/422 idempotency answers of every write', () => {
    for (const { path, method, op } of operations(doc).filter((o) => isWrite(o.path, o.method))) {
      const responses = op.responses as Record<string, Json>;
      for (const [status, response] of Object.entries(responses).filter(([s]) => s.startsWith('2'))) {
        const headers = (resolve(doc, response) as Json).headers as Json | undefined;
        expect(headers?.['Idempotent-Replayed']?.$ref, `${method} ${path} ${status}`).to.equal('#/components/headers/IdempotentReplayed');
      }
      const inFlight = { statusCode: 409, message: 'still running', reason: 'idempotency_key_in_flight' };
      const reused = { statusCode: 422, message: 'reused', reason: 'idempotency_key_reused' };
      expect(accepts(doc, responses['409'], inFlight), `${method} ${path} 409`).to.equal(true);
      expect(accepts(doc, responses['422'], reused), `${method} ${path} 422`).to.equal(true);
    }
  });

  it('documents 429 with Retry-After and the RateLimit headers on every limited operation, and on no public one', () => {
    for (const { path, method, op } of operations(doc)) {
      const responses = op.responses as Record<string, Json>;
      if (!isLimited(path, method)) {
        expect(responses, `${method} ${path}`).not.to.have.property('429');
        continue;
      }
      expect(responses['429']?.$ref, `${method} ${path}`).to.equal('#/components/responses/TooManyRequests');
    }
    const tooMany = doc.components.responses.TooManyRequests as Json;
    expect(Object.keys(tooMany.headers)).to.have.members(['Retry-After', 'RateLimit-Policy', 'RateLimit']);
  });
});
