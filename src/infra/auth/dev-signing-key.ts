import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type DevSigningKey = { privateKeyPem: string; publicKeyPem: string; kid: string };

/** The development key pair under DATA_DIR, created on first use; never used in production. */
export function ensureDevSigningKey(dataDir: string): DevSigningKey {
  const dir = path.join(dataDir, 'dev-keys');
  const privatePath = path.join(dir, 'private.pem');
  const publicPath = path.join(dir, 'public.pem');
  if (!fs.existsSync(privatePath) || !fs.existsSync(publicPath)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    fs.writeFileSync(privatePath, privateKey, { mode: 0o600 });
    fs.writeFileSync(publicPath, publicKey);
  }
  const publicKeyPem = fs.readFileSync(publicPath, 'utf8');
  return {
    privateKeyPem: fs.readFileSync(privatePath, 'utf8'),
    publicKeyPem,
    kid: createHash('sha256').update(publicKeyPem).digest('hex').slice(0, 16),
  };
}
