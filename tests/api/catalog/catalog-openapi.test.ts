import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { applicationStatuses } from '../../../src/domain/catalog/application-status.js';
import type { RecordKind } from '../../../src/domain/record/record-kind.js';
import { applicationKind } from '../../../src/projections/record/catalog/application-kind.js';
import { projectKind } from '../../../src/projections/record/catalog/project-kind.js';
import { publisherKind } from '../../../src/projections/record/catalog/publisher-kind.js';
import { purchaseKind } from '../../../src/projections/record/catalog/purchase-kind.js';
import { loadOpenApi, openApiText, openObjects, operations, type Json } from '../../support/openapi-document.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;
const kinds: [string, string, RecordKind][] = [
  ['projects', 'Project', projectKind],
  ['applications', 'Application', applicationKind],
  ['purchases', 'Purchase', purchaseKind],
  ['publishers', 'Publisher', publisherKind],
];

describe('openapi/catalog.yaml', () => {
  const doc = loadOpenApi('catalog.yaml');

  it('is a valid OpenAPI 3.0.3 document', async () => {
    expect(doc.openapi).to.equal('3.0.3');
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  it('describes the record operations of every catalog kind, the released list, the status move and the read-only marketplace', () => {
    const actual = Object.fromEntries(Object.entries(doc.paths as Json).map(([path, item]) => [path, methods.filter((m) => item[m]).sort()]));
    const expected: Json = { '/catalog/docs-yaml': ['get'], '/catalog/docs': ['get'] };
    for (const [path] of kinds) {
      expected[`/catalog/v1/${path}`] = ['get', 'post'];
      expected[`/catalog/v1/${path}/bulk`] = ['post'];
      expected[`/catalog/v1/${path}/{id}`] = ['delete', 'get', 'patch', 'put'];
    }
    expected['/catalog/v1/applications/released'] = ['get'];
    expected['/catalog/v1/applications/{id}/status'] = ['patch'];
    expected['/catalog/v1/marketplace'] = ['get'];
    expected['/catalog/v1/marketplace/{id}'] = ['get'];
    expect(actual).to.deep.equal(expected);
  });

  it('gives every operation a unique operationId and error responses through components', () => {
    const ids = operations(doc).map(({ op }) => op.operationId as string);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const { label, op } of operations(doc)) {
      if (label.includes('/docs')) continue;
      expect(op.responses, label).to.include.keys('400', '401', '403');
      for (const [code, response] of Object.entries(op.responses as Json)) {
        if (Number(code) >= 400) expect((response as Json).$ref, `${label} ${code}`).to.match(/^#\/components\/responses\//);
      }
    }
  });

  it('closes every request body to properties it does not name', () => {
    const open = operations(doc).flatMap(({ label, op }) => (op.requestBody ? openObjects(doc, op.requestBody.content['application/json'].schema, label) : []));
    expect(open).to.deep.equal([]);
  });

  it('matches the kinds: records answer every field, bodies take the writable ones only, package never appears', () => {
    for (const [, name, kind] of kinds) {
      const writable = Object.entries(kind.fields).filter(([, spec]) => !spec.readOnly).map(([field]) => field);
      expect(doc.components.schemas[name].required, name).to.deep.equal(Object.keys(kind.fields));
      expect(Object.keys(doc.components.schemas[`${name}Input`].properties), name).to.have.members(writable);
      expect(Object.keys(doc.components.schemas[`${name}Patch`].properties), name).to.have.members(writable);
      const required = (doc.components.schemas[`${name}Input`].required as string[]).filter((field) => {
        const spec = kind.fields[field]!;
        return spec.optional || spec.default !== undefined;
      });
      expect(required, `${name}: required in the schema but optional in the kind`).to.deep.equal([]);
    }
    expect(doc.components.schemas.ApplicationStatus.enum).to.deep.equal([...applicationStatuses]);
    expect(JSON.stringify(doc.components.schemas)).not.to.match(/"package"|oauth/);
  });

  describe('served by the service', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.stop());

    it('at /catalog/docs-yaml and /catalog/docs without a token', async () => {
      const res = await server.request('GET', '/catalog/docs-yaml', { token: null });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/yaml/);
      expect(res.body).to.equal(openApiText('catalog.yaml'));
      expect((await server.request('GET', '/catalog/docs/', { token: null })).status).to.equal(200);
    });

    it('validating requests: unknown query parameters and body fields, wrong types are 400', async () => {
      const admin = server.token({ level: 'LV1', workspace: null });
      const bad: [string, string, unknown][] = [
        ['GET', '/catalog/v1/projects?include_deleted=1', undefined],
        ['POST', '/catalog/v1/publishers', { email: 'a@example.com', role: 'admin' }],
        ['POST', '/catalog/v1/publishers', { email: 'not-an-email' }],
        ['POST', '/catalog/v1/projects', { appName: 'a', appVersion: 1 }],
        ['POST', '/catalog/v1/projects/bulk', [{ appName: 'a', appVersion: '1' }]],
        ['GET', '/catalog/v1/marketplace?page=0', undefined],
        ['PATCH', '/catalog/v1/projects/1', {}],
        ['GET', '/catalog/v1/applications/released?page=0', undefined],
      ];
      for (const [method, path, body] of bad) {
        const res = await server.request(method, path, { body, token: admin });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).to.equal(400);
        expect(res.body.statusCode).to.equal(400);
      }
    });
  });
});
