import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type JwksServer = { url: string; kid: string; privateKey: string; hits: () => number; close(): Promise<void> };

/** A platform key-set endpoint on loopback that counts how often it is fetched. */
export async function startJwksServer(): Promise<JwksServer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const kid = 'platform-key-1';
  const jwk = { ...createPublicKey(publicKey).export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    kid,
    privateKey,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
