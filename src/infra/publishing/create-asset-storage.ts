import path from 'node:path';
import { Storage } from '@google-cloud/storage';
import type { Config } from '../config.js';
import type { AssetStorage } from './asset-storage.js';
import { createGcsAssetStorage } from './gcs-asset-storage.js';
import { createLocalAssetStorage } from './local-asset-storage.js';

/** DATA_DIR/assets, served read-only at /assets while STORAGE_BUCKET is unset. */
export const localAssetsDir = (config: Config) => path.join(config.dataDir, 'assets');

/** The GCS bucket STORAGE_BUCKET (credentials from the environment, as @google-cloud/storage finds them), else the local folder. */
export function createAssetStorage(config: Config): AssetStorage {
  return config.storageBucket ? createGcsAssetStorage(new Storage().bucket(config.storageBucket)) : createLocalAssetStorage(localAssetsDir(config));
}
