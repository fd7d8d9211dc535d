import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { platformKey } from '../support/test-keys.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Inputs that once reached the database or a library unchecked: each must be a 4xx, never a 500. */
describe('hostile input', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('answers 401 to a signed token whose workspace is not a uuid', async () => {
    const token = jwt.sign({ sub: 'x', roles: ['LV2'], workspace: 'not-a-uuid' }, platformKey.privateKey, { algorithm: 'RS256', expiresIn: 60 });
    expect((await server.request('GET', '/booking/v1/bookings', { token })).status).to.equal(401);
  });

  it('answers 400 to a page number beyond what an offset can hold', async () => {
    expect((await server.request('GET', '/booking/v1/bookings?page=100000000000000000000')).status).to.equal(400);
  });

  for (const path of ['/device/v1/devices/a%00b', '/device/v1/zones/a%00b']) {
    it(`answers 400 to a NUL character in the record id of ${path}`, async () => {
      expect((await server.request('GET', path)).status).to.equal(400);
    });
  }

  it('answers 400 to a NUL character in a device id of the key operation', async () => {
    expect((await server.request('POST', '/device/v1/devices/a%00b/apikey')).status).to.equal(400);
  });
});
