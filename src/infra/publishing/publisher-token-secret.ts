import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

/**
 * PUBLISHER_TOKEN_SECRET, or in development a secret generated once into DATA_DIR; null in
 * production without one (publishing is then off, the rest of the service runs).
 */
export function publisherTokenSecretFor(config: Config): string | null {
  if (config.publisherTokenSecret) return config.publisherTokenSecret;
  if (config.appEnv !== 'development') return null;
  const dir = path.join(config.dataDir, 'dev-keys');
  const file = path.join(dir, 'publisher-token-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // wx: when two processes start at once, the second keeps the first one's secret.
    try {
      fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}
