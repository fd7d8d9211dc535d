import { expect } from 'chai';
import { bucketKeyOf, passwordChecksBucketKeyOf, policyNameOf, rateLimitHeaders } from '../../../src/domain/request/rate-limit.js';

describe('rate-limit headers', () => {
  const policy = { name: 'per-sub', perMinute: 1200 };

  it('tell the policy and the whole tokens left, with nothing to wait for while one is left', () => {
    expect(rateLimitHeaders(policy, { tokens: 1187.6, allowed: true })).to.deep.equal({
      policy: '"per-sub";q=1200;w=60',
      limit: '"per-sub";r=1187;t=0',
      retryAfterSeconds: null,
    });
  });

  it('count the seconds until the bucket refills to a whole token, and ask a refused request to wait them', () => {
    // 1200 a minute: a token every 50 ms; 0.5 missing is 25 ms, rounded up to a second.
    expect(rateLimitHeaders(policy, { tokens: 0.5, allowed: false })).to.deep.equal({
      policy: '"per-sub";q=1200;w=60',
      limit: '"per-sub";r=0;t=1',
      retryAfterSeconds: 1,
    });
    // 3 a minute: a token every 20 s; 0.25 left → 15 s.
    expect(rateLimitHeaders({ name: 'per-sub', perMinute: 3 }, { tokens: 0.25, allowed: false })).to.include({ limit: '"per-sub";r=0;t=15', retryAfterSeconds: 15 });
  });

  it('tell an allowed request that took the last token how long until the next', () => {
    expect(rateLimitHeaders({ name: 'per-sub', perMinute: 6 }, { tokens: 0, allowed: true })).to.deep.include({ limit: '"per-sub";r=0;t=10', retryAfterSeconds: null });
  });

  it('keep token subjects and feed tokens in key spaces and policies of their own', () => {
    expect(bucketKeyOf({ kind: 'sub', sub: 'feed-token:x' })).not.to.equal(bucketKeyOf({ kind: 'feed-token', id: 'x' }));
    expect(policyNameOf({ kind: 'sub', sub: 'a' })).to.equal('per-sub');
    expect(policyNameOf({ kind: 'feed-token', id: 'a' })).to.equal('per-feed-token');
  });

  it('keep calendar passwords per username, apart from token subjects and from the username\'s password checks', () => {
    const keys = [
      bucketKeyOf({ kind: 'calendar-password', username: 'alice.ws.abc' }),
      bucketKeyOf({ kind: 'sub', sub: 'alice.ws.abc' }),
      bucketKeyOf({ kind: 'sub', sub: 'calendar-password:alice.ws.abc' }),
      passwordChecksBucketKeyOf('alice.ws.abc'),
    ];
    expect(new Set(keys).size).to.equal(4);
    expect(policyNameOf({ kind: 'calendar-password', username: 'a' })).to.equal('per-username');
  });
});
