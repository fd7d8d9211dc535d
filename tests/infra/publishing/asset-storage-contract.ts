import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { AssetStorage } from '../../../src/infra/publishing/asset-storage.js';

export type AssetStorageUnderTest = {
  storage: AssetStorage;
  /** The stored bytes and content type behind a URL the storage answered, or null when gone. */
  read(url: string): Promise<{ bytes: Buffer; contentType: string | null } | null>;
};

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** What every asset storage does; run against the local folder always and GCS when configured. */
export function assetStorageContract(setup: () => Promise<AssetStorageUnderTest>): void {
  let subject: AssetStorageUnderTest;
  before(async () => {
    subject = await setup();
  });

  const key = () => `applications/contract-${randomUUID()}/icon.png`;

  it('stores bytes under a key and answers a URL that reads them back', async () => {
    const url = await subject.storage.put(key(), png, 'image/png');
    const stored = await subject.read(url);
    expect(stored?.bytes.equals(png)).to.equal(true);
    expect(stored?.contentType).to.match(/^image\/png/);
  });

  it('removes an asset, and removing it again is no error', async () => {
    const k = key();
    const url = await subject.storage.put(k, png, 'image/png');
    await subject.storage.remove(k);
    expect(await subject.read(url)).to.equal(null);
    await subject.storage.remove(k);
  });
}
