import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { signWebhook } from '../../../src/infra/webhook/sign-webhook.js';

describe('webhook signatures (Standard Webhooks)', () => {
  const body = JSON.stringify({ id: 'evt-1', event: 'booking.create' });
  // Taken at each call: the verifier refuses timestamps older than 5 minutes, and a slow run may
  // reach these tests that long after the file was loaded.
  const headers = (secret: string, timestamp = Math.floor(Date.now() / 1000)) => ({
    'webhook-id': 'evt-1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, 'evt-1', timestamp, body),
  });

  it('treats a whsec_ secret as base64 key bytes', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    expect(new Webhook(secret).verify(body, headers(secret))).to.deep.equal(JSON.parse(body));
  });

  it('uses any other secret as its UTF-8 bytes', () => {
    const secret = 'plain shared secret';
    expect(new Webhook(secret, { format: 'raw' }).verify(body, headers(secret))).to.deep.equal(JSON.parse(body));
  });

  it('fails verification for a changed body', () => {
    const secret = `whsec_${Buffer.from('another key of thirty-two bytes!').toString('base64')}`;
    expect(() => new Webhook(secret).verify(`${body} `, headers(secret))).to.throw();
  });
});
