import type { AssetStorage } from './asset-storage.js';

/** The part of @google-cloud/storage's Bucket this adapter uses. */
export type GcsBucket = {
  file(name: string): {
    save(data: Buffer, options: { contentType: string; resumable: boolean; preconditionOpts: { ifGenerationMatch: number }; metadata: { cacheControl: string } }): Promise<void>;
    delete(options: { ignoreNotFound: boolean }): Promise<unknown>;
    publicUrl(): string;
  };
};

/** Objects in a Google Cloud Storage bucket; the URL is the object's public URL (readable as the bucket's IAM allows). */
export function createGcsAssetStorage(bucket: GcsBucket): AssetStorage {
  return {
    async put(key, bytes, contentType) {
      const file = bucket.file(key);
      // Generation 0: never overwrite an object, which also makes the library's retries safe.
      await file.save(bytes, {
        contentType,
        resumable: false,
        preconditionOpts: { ifGenerationMatch: 0 },
        metadata: { cacheControl: 'public, max-age=31536000, immutable' },
      });
      return file.publicUrl();
    },
    async remove(key) {
      await bucket.file(key).delete({ ignoreNotFound: true });
    },
  };
}
