import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { deviceKind } from '../../../src/projections/record/device-kind.js';
import { zoneKind } from '../../../src/projections/record/zone-kind.js';
import { loadOpenApi, openApiText, openObjects, operations, type Json } from '../../support/openapi-document.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

describe('openapi/devices.yaml', () => {
  const doc = loadOpenApi('devices.yaml');

  it('is a valid OpenAPI 3.0.3 document', async () => {
    expect(doc.openapi).to.equal('3.0.3');
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  it('describes every record operation of contract §10 and the three device operations', () => {
    const actual = Object.fromEntries(Object.entries(doc.paths as Json).map(([path, item]) => [path, methods.filter((m) => item[m]).sort()]));
    expect(actual).to.deep.equal({
      '/device/docs-yaml': ['get'],
      '/device/docs': ['get'],
      '/device/v1/devices': ['get', 'post'],
      '/device/v1/devices/bulk': ['post'],
      '/device/v1/devices/export': ['post'],
      '/device/v1/devices/self': ['put'],
      '/device/v1/devices/{id}': ['delete', 'get', 'patch', 'put'],
      '/device/v1/devices/{id}/workspace': ['post'],
      '/device/v1/devices/{id}/apikey': ['post'],
      '/device/v1/zones': ['get', 'post'],
      '/device/v1/zones/bulk': ['post'],
      '/device/v1/zones/{id}': ['delete', 'get', 'patch', 'put'],
    });
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

  it('requires every spec 2.1 field in the Device schema, closed to others', () => {
    const device = doc.components.schemas.Device as Json;
    expect(device.required).to.have.members(Object.keys(deviceKind.fields));
    expect(Object.keys(device.properties)).to.have.members(Object.keys(deviceKind.fields));
    expect(device.additionalProperties).to.equal(false);
    expect(Object.keys(doc.components.schemas.DevicePatch.properties)).to.have.members(Object.keys(deviceKind.fields));
    expect(doc.components.schemas.DeviceExport.properties.excludeFields.items.enum).to.have.members(Object.keys(deviceKind.fields));
    expect(Object.keys(doc.components.schemas.ZoneInput.properties)).to.have.members(Object.keys(zoneKind.fields));
  });

  it('requires the whole list envelope', () => {
    for (const list of ['DeviceList', 'ZoneList']) {
      expect(doc.components.schemas[list].required, list).to.have.members(['data', 'count', 'total', 'page', 'pageCount']);
    }
  });

  it('documents the X-Workspace header, the API key and the special operations', () => {
    expect(doc.info.description).to.include('X-Workspace');
    expect(doc.components.securitySchemes.deviceApiKey).to.deep.include({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(doc.paths['/device/v1/devices/self']!.put.security).to.deep.equal([{ deviceApiKey: [] }]);
    for (const path of ['/device/v1/devices/export', '/device/v1/devices/{id}/workspace', '/device/v1/devices/{id}/apikey']) {
      expect(doc.paths[path]!.post.description, path).to.be.a('string').with.length.greaterThan(100);
    }
  });

  describe('served by the service', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.stop());

    it('at /device/docs-yaml without a token', async () => {
      const res = await server.request('GET', '/device/docs-yaml', { token: null });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/yaml/);
      expect(res.body).to.equal(openApiText('devices.yaml'));
    });

    it('validating requests: unknown query parameters and body fields are 400', async () => {
      expect((await server.request('GET', '/device/v1/devices?include_deleted=1')).status).to.equal(400);
      expect((await server.request('POST', '/device/v1/zones', { body: { id: 'z', name: 'Z', workspace: server.workspace, color: 'red' } })).status).to.equal(400);
      expect((await server.request('POST', '/device/v1/devices/x/workspace', { body: { workspace: server.workspace } })).status).to.equal(400);
    });
  });
});
