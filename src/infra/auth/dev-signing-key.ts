import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type DevSigningKey = { privateKeyPem: string; publicKeyPem: string; kid: string };

/**
 * The development key pair under DATA_DIR, created on first use; never used in production.
 * Several processes may start at once on a new DATA_DIR: the private key is published with a
 * hard link (atomic, and refused when another process got there first), and the public half is
 * always derived from it, so every process ends up with the same pair.
 */
export function ensureDevSigningKey(dataDir: string): DevSigningKey {
  const dir = path.join(dataDir, 'dev-keys');
  const privatePath = path.join(dir, 'private.pem');
  if (!fs.existsSync(privatePath)) createPrivateKey(dir, privatePath);
  const privateKeyPem = fs.readFileSync(privatePath, 'utf8');
  const publicKeyPem = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  const publicPath = path.join(dir, 'public.pem');
  if (!fs.existsSync(publicPath) || fs.readFileSync(publicPath, 'utf8') !== publicKeyPem) fs.writeFileSync(publicPath, publicKeyPem);
  return { privateKeyPem, publicKeyPem, kid: createHash('sha256').update(publicKeyPem).digest('hex').slice(0, 16) };
}

function createPrivateKey(dir: string, privatePath: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const draft = `${privatePath}.${process.pid}.draft`;
  fs.writeFileSync(draft, privateKey, { mode: 0o600 });
  try {
    fs.linkSync(draft, privatePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.unlinkSync(draft);
  }
}
