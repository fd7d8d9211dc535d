import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLocalAssetStorage } from '../../../src/infra/publishing/local-asset-storage.js';
import { assetStorageContract } from './asset-storage-contract.js';

describe('local asset storage', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assets-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  assetStorageContract(async () => ({
    storage: createLocalAssetStorage(dir),
    async read(url) {
      expect(url).to.match(/^\/assets\//);
      const file = path.join(dir, url.slice('/assets/'.length));
      return fs.existsSync(file) ? { bytes: fs.readFileSync(file), contentType: 'image/png' } : null;
    },
  }));

  it('answers URLs under /assets, relative to the service', async () => {
    expect(await createLocalAssetStorage(dir).put('applications/1-ab/icon.png', Buffer.from('x'), 'image/png')).to.equal('/assets/applications/1-ab/icon.png');
  });

  it('never writes outside its folder', async () => {
    const storage = createLocalAssetStorage(dir);
    for (const key of ['../escape.png', '/etc/escape.png', 'a/../../escape.png', 'A/Upper.png', '']) {
      let refused = false;
      await storage.put(key, Buffer.from('x'), 'image/png').catch(() => (refused = true));
      expect(refused, key).to.equal(true);
    }
    expect(fs.existsSync(path.join(dir, '..', 'escape.png'))).to.equal(false);
  });

  it('leaves no partial file behind', async () => {
    const storage = createLocalAssetStorage(dir);
    await storage.put('applications/2-cd/icon.png', Buffer.alloc(1024, 1), 'image/png');
    expect(fs.readdirSync(path.join(dir, 'applications', '2-cd'))).to.deep.equal(['icon.png']);
  });
});
