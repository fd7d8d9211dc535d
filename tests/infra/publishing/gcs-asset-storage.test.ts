import { Storage } from '@google-cloud/storage';
import { expect } from 'chai';
import sinon from 'sinon';
import { createGcsAssetStorage, type GcsBucket } from '../../../src/infra/publishing/gcs-asset-storage.js';
import { assetStorageContract } from './asset-storage-contract.js';

describe('GCS asset storage (stubbed bucket)', () => {
  // Its own sandbox: the stubs are made when the file loads, and another file's sinon.restore() empties the default one.
  const sandbox = sinon.createSandbox();
  const file = { save: sandbox.stub().resolves(), delete: sandbox.stub().resolves([{}]), publicUrl: sandbox.stub() };
  const bucket = { file: sandbox.stub().returns(file) };
  const storage = createGcsAssetStorage(bucket as unknown as GcsBucket);
  beforeEach(() => sandbox.resetHistory());

  it('saves the object in one request, never overwriting, with its content type, and answers its public URL', async () => {
    file.publicUrl.returns('https://storage.googleapis.com/apps-bucket/applications/1-ab/icon.png');
    const bytes = Buffer.from('png bytes');
    const url = await storage.put('applications/1-ab/icon.png', bytes, 'image/png');
    expect(url).to.equal('https://storage.googleapis.com/apps-bucket/applications/1-ab/icon.png');
    sinon.assert.calledOnceWithExactly(bucket.file, 'applications/1-ab/icon.png');
    sinon.assert.calledOnce(file.save);
    const [data, options] = file.save.firstCall.args;
    expect(data).to.equal(bytes);
    expect(options).to.deep.include({ contentType: 'image/png', resumable: false, preconditionOpts: { ifGenerationMatch: 0 } });
  });

  it('passes a failure of the bucket on', async () => {
    file.save.rejects(new Error('403 forbidden'));
    let failed: unknown;
    await storage.put('applications/2-cd/icon.png', Buffer.from('x'), 'image/png').catch((error: unknown) => (failed = error));
    expect((failed as Error).message).to.equal('403 forbidden');
    file.save.resolves();
  });

  it('removes an object, ignoring one that is gone', async () => {
    await storage.remove('applications/1-ab/icon.png');
    sinon.assert.calledOnceWithExactly(bucket.file, 'applications/1-ab/icon.png');
    sinon.assert.calledOnceWithExactly(file.delete, { ignoreNotFound: true });
  });

  it('fits the real library’s Bucket', () => {
    const real: GcsBucket = new Storage({ projectId: 'typing-only' }).bucket('typing-only');
    expect(real.file('x').publicUrl()).to.equal('https://storage.googleapis.com/typing-only/x');
  });
});

// Runs only against a real bucket: STORAGE_BUCKET and credentials (GOOGLE_APPLICATION_CREDENTIALS) set.
const bucketName = process.env.STORAGE_BUCKET;
const hasCredentials = Boolean(process.env.GOOGLE_APPLICATION_CREDENTIALS);
(bucketName && hasCredentials ? describe : describe.skip)('GCS asset storage (real bucket)', () => {
  const bucket = new Storage().bucket(bucketName ?? 'unset');
  assetStorageContract(async () => ({
    storage: createGcsAssetStorage(bucket),
    async read(url) {
      const name = decodeURIComponent(new URL(url).pathname.split('/').slice(2).join('/'));
      const object = bucket.file(name);
      const [exists] = await object.exists();
      if (!exists) return null;
      const [[bytes], [metadata]] = await Promise.all([object.download(), object.getMetadata()]);
      return { bytes, contentType: metadata.contentType ?? null };
    },
  }));
});
