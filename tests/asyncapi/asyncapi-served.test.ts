import { expect } from 'chai';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asyncApiText } from '../support/published-event-schemas.js';

describe('The AsyncAPI document over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('is served as YAML at /booking/docs-asyncapi without a token', async () => {
    const res = await server.request('GET', '/booking/docs-asyncapi', { token: null });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/yaml/);
    expect(res.body).to.equal(asyncApiText);
    expect(parse(res.body).asyncapi).to.equal('3.0.0');
  });
});
