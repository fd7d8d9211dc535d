import fs from 'node:fs';
import vm from 'node:vm';
import { expect } from 'chai';
import { parse } from 'yaml';
import { swaggerUiInitScript } from '../../src/api/openapi-documents.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Runs a Swagger UI start script as the page would and answers the spec it hands to Swagger UI. */
function specOf(script: string): unknown {
  let spec: unknown;
  const window: { onload?: () => void; ui?: unknown } = {};
  const SwaggerUIBundle = Object.assign((options: { spec: unknown }) => ((spec = options.spec), {}), { presets: { apis: {} }, plugins: { DownloadUrl: {} } });
  vm.runInNewContext(script, { window, SwaggerUIBundle, SwaggerUIStandalonePreset: {} });
  window.onload!();
  return spec;
}

describe('the documentation pages', () => {
  it('keep replacement patterns, script ends and line separators of a document intact', () => {
    const document = { info: { description: 'a $` b $\' c $& d $$ e $1 </script> f \u2028 g \u2029 h' } };
    expect(specOf(swaggerUiInitScript(document))).to.deep.equal(document);
  });

  describe('served', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.stop());

    for (const [docsPath, file] of [['/booking/docs', 'booking.yaml'], ['/device/docs', 'devices.yaml'], ['/catalog/docs', 'catalog.yaml'], ['/publish/docs', 'publishing.yaml']]) {
      it(`${docsPath} starts Swagger UI with openapi/${file} as it is`, async () => {
        const page = await fetch(`${server.url}${docsPath}/`);
        expect(page.status).to.equal(200);
        expect(await page.text()).to.include('swagger-ui-init.js');
        const script = await fetch(`${server.url}${docsPath}/swagger-ui-init.js`);
        expect(script.headers.get('content-type')).to.match(/javascript/);
        expect(specOf(await script.text())).to.deep.equal(parse(fs.readFileSync(`openapi/${file}`, 'utf8')));
      });
    }

    it('GET / names the service and links the documentation, as JSON or HTML', async () => {
      const json = await server.request('GET', '/', { token: null, headers: { accept: 'application/json' } });
      expect(json.status).to.equal(200);
      expect(json.body).to.deep.include({ service: 'workspace-booking', version: JSON.parse(fs.readFileSync('package.json', 'utf8')).version, health: '/booking/v1/health', metrics: '/metrics' });
      expect(json.body.docs.device).to.deep.equal({ ui: '/device/docs', openapi: '/device/docs-yaml' });
      expect(json.body.docs.events).to.equal('/booking/docs-asyncapi');
      const html = await server.request('GET', '/', { token: null, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(html.headers.get('content-type')).to.match(/text\/html/);
      for (const link of ['/booking/docs', '/device/docs', '/catalog/docs', '/publish/docs', '/booking/docs-asyncapi', '/booking/v1/health', '/metrics']) {
        expect(html.body).to.include(`href="${link}"`);
      }
    });
  });
});
