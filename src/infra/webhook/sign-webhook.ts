import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`. A `whsec_`
 * secret carries the key bytes in base64; any other secret is used as its UTF-8 bytes.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
