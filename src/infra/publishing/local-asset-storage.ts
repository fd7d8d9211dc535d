import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AssetStorage } from './asset-storage.js';

/** The path under which the API serves the folder read-only. */
export const localAssetsPath = '/assets';

const safeKey = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

function fileOf(dir: string, key: string): string {
  if (!safeKey.test(key) || key.includes('..')) throw new Error(`unsafe asset key "${key}"`);
  return path.join(dir, key);
}

/** Files under `dir` (DATA_DIR/assets), answered as `/assets/<key>` relative to the service's base URL. */
export function createLocalAssetStorage(dir: string): AssetStorage {
  return {
    async put(key, bytes) {
      const file = fileOf(dir, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed, so the folder never serves a half-written image.
      const partial = `${file}.${randomUUID()}.partial`;
      await fs.writeFile(partial, bytes, { flag: 'wx' });
      await fs.rename(partial, file);
      return `${localAssetsPath}/${key}`;
    },
    async remove(key) {
      await fs.rm(fileOf(dir, key), { force: true });
    },
  };
}
