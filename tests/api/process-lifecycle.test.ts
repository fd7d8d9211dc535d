import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startServiceProcess } from '../support/service-process.js';

describe('the service process', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'booking-lifecycle-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with zero configuration in development mode and stops cleanly on SIGTERM', async function () {
    this.timeout(60_000);
    const service = await startServiceProcess({ DATA_DIR: dataDir });
    const health = await fetch(`${service.url}/booking/v1/health`);
    expect(health.status).to.equal(200);
    expect(health.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const echoed = await fetch(`${service.url}/booking/v1/health`, { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).to.equal('trace-123');
    expect(service.output()).to.match(/development mode/);
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
    expect(service.output()).to.match(/shutting down/);
  });
});
