import { expect } from 'chai';
import { isValidIdempotencyKey, verdictOnHeldKey } from '../../../src/domain/request/idempotency-key.js';

describe('Idempotency-Key values', () => {
  it('are 1 to 255 printable ASCII characters', () => {
    expect(isValidIdempotencyKey('a')).to.equal(true);
    expect(isValidIdempotencyKey(' ~')).to.equal(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).to.equal(true);
    for (const bad of ['', 'x'.repeat(256), 'a\tb', 'a\nb', 'clé', 'a\u0000', '\u007f']) expect(isValidIdempotencyKey(bad), JSON.stringify(bad)).to.equal(false);
  });
});

describe('a key held by an earlier request', () => {
  it('replays a completed request, refuses another request, and asks a repeat in flight to wait', () => {
    expect(verdictOnHeldKey({ fingerprint: 'f', state: 'done' }, 'f')).to.equal('replay');
    expect(verdictOnHeldKey({ fingerprint: 'f', state: 'in_flight' }, 'f')).to.equal('in_flight');
    expect(verdictOnHeldKey({ fingerprint: 'f', state: 'done' }, 'g')).to.equal('reused');
    expect(verdictOnHeldKey({ fingerprint: 'f', state: 'in_flight' }, 'g')).to.equal('reused');
  });
});
