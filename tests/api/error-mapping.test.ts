import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import express from 'express';
import { httpErrorHandler } from '../../src/api/http-error-handler.js';
import { DomainError } from '../../src/domain/domain-error.js';
import type { DeviceDirectory } from '../../src/infra/device-service/device-directory.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The error handler answers with their own 4xx only the errors the service knows (its DomainError,
 * the OpenAPI validator's, body-parser's by their type, express's undecodable path); an error from a
 * dependency keeps its status to itself.
 */
describe('error mapping', function () {
  this.timeout(60_000);
  let server: TestServer;
  let devices: DeviceDirectory;
  before(async () => {
    server = await startTestServer();
    devices = server.services.devices;
  });
  afterEach(() => {
    server.services.devices = devices;
  });
  after(() => server.stop());

  /** The device directory throws `failure` from deep inside a resource registration. */
  const registerWhileDevicesThrow = async (failure: Error) => {
    server.services.devices = {
      lookup: async () => {
        throw failure;
      },
    };
    return server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'zone-1' } });
  };

  describe('a foreign error is the service’s failure, whatever status it carries', () => {
    it('a device service’s 404 (statusCode) answers 500 without its message', async () => {
      const res = await registerWhileDevicesThrow(Object.assign(new Error('GET http://devices.internal/zones/zone-1: Not Found'), { statusCode: 404 }));
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ statusCode: 500, message: 'internal error' });
    });

    it('a storage bucket’s 403 (status, code and errors) answers 500 without its message or errors', async () => {
      const denied = Object.assign(new Error('svc@project.iam.gserviceaccount.com does not have storage.objects.create access'), {
        status: 403,
        code: 403,
        errors: [{ path: 'bucket', message: 'forbidden' }],
      });
      const res = await registerWhileDevicesThrow(denied);
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ statusCode: 500, message: 'internal error' });
    });

    it('a foreign error that borrows a body-parser type with another status answers 500', async () => {
      const res = await registerWhileDevicesThrow(Object.assign(new Error('quota'), { type: 'entity.too.large', status: 429 }));
      expect(res.body).to.deep.equal({ statusCode: 500, message: 'internal error' });
    });

    it('a 4xx-carrying error of a lost connection answers 503, as any unavailable dependency', async () => {
      const res = await registerWhileDevicesThrow(Object.assign(new Error('socket hang up'), { statusCode: 404, code: 'ECONNRESET' }));
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ statusCode: 503, message: 'a dependency is unavailable; try again later' });
    });
  });

  describe('the errors the service knows keep their status', () => {
    it('its own DomainError: a device service that cannot answer is 503, an unknown zone 422', async () => {
      const down = await registerWhileDevicesThrow(new DomainError('dependency_unavailable', 'device service unavailable: HTTP 502'));
      expect(down.body).to.deep.equal({ statusCode: 503, message: 'device service unavailable: HTTP 502' });
      server.services.devices = { lookup: async () => null };
      const unknown = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'zone-1' } });
      expect(unknown.status).to.equal(422);
      expect(unknown.body).to.include({ statusCode: 422, reason: 'resource_not_found' });
    });

    it('body-parser: malformed JSON 400, too large 413, another charset or an unknown encoding 415', async () => {
      const post = (body: string | Uint8Array, headers: Record<string, string> = {}) => server.request('POST', '/booking/v1/resources', { body: body as string, headers });
      expect((await post('{')).body).to.deep.equal({ statusCode: 400, message: 'request body is not a valid JSON object' });
      expect((await post(JSON.stringify({ a: 'x'.repeat(300_000) }))).body).to.deep.equal({ statusCode: 413, message: 'request entity too large' });
      expect((await post('{}', { 'content-type': 'application/json; charset=latin1' })).body).to.deep.equal({ statusCode: 415, message: 'unsupported charset "LATIN1"' });
      expect((await post('{}', { 'content-encoding': 'zz' })).body).to.deep.equal({ statusCode: 415, message: 'unsupported content encoding "zz"' });
    });

    it('body-parser: a body that does not decompress as its Content-Encoding says is 400; one that does is read', async () => {
      const corrupt = await server.request('POST', '/booking/v1/resources', { body: 'not gzip', headers: { 'content-encoding': 'gzip' } });
      expect(corrupt.status).to.equal(400);
      expect(corrupt.body.message).to.match(/does not decode as its Content-Encoding says/);
      const read = await fetch(`${server.url}/booking/v1/resources`, {
        method: 'POST',
        body: gzipSync('{}'),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: `Bearer ${server.token()}` },
      });
      expect(read.status).to.equal(400);
      expect(((await read.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).to.deep.equal(['/body/resourceType']);
    });

    it('the OpenAPI validator: schema 400 with errors, undocumented path 404, undocumented method 405', async () => {
      const schema = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone' } });
      expect(schema.status).to.equal(400);
      expect(schema.body.errors).to.deep.equal([{ path: '/body/resourceId', message: "must have required property 'resourceId'" }]);
      expect((await server.request('GET', '/booking/v1/nothing')).status).to.equal(404);
      expect((await server.request('PATCH', '/booking/v1/bookings/bulk', { body: {} })).status).to.equal(405);
      expect((await server.request('GET', '/device/v1/devices/%zz')).status).to.equal(400);
    });

    it('authentication: 401', async () => {
      expect((await server.request('GET', '/booking/v1/bookings', { token: null })).body).to.deep.equal({ statusCode: 401, message: 'unauthorized: missing bearer token' });
    });
  });

  // The validator answers an undecodable path first in every area; express's own 400 is for routes outside them.
  it('express: a path parameter that is not valid percent-encoding is 400', async () => {
    const app = express();
    app.get('/things/:id', (_req, res) => {
      res.json({});
    });
    app.use(httpErrorHandler);
    const listening = app.listen(0);
    await new Promise((resolve) => listening.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/things/%zz`);
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ statusCode: 400, message: "Failed to decode param '%zz'" });
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });
});
