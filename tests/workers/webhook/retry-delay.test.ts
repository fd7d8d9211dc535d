import { expect } from 'chai';
import { contractRetryDelaysMs, retryDelay } from '../../../src/workers/webhook/retry-delay.js';

describe('webhook retry schedule', () => {
  it('waits 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 24 h, then gives up', () => {
    const minute = 60_000;
    const hour = 60 * minute;
    const schedule = contractRetryDelaysMs.map((_, i) => retryDelay(i + 1, contractRetryDelaysMs, 0));
    expect(schedule).to.deep.equal([5_000, 30_000, 2 * minute, 10 * minute, 30 * minute, hour, 3 * hour, 6 * hour, 12 * hour, 24 * hour]);
    expect(retryDelay(11, contractRetryDelaysMs, 0)).to.equal(null);
  });

  it('spreads each pause by the jitter ratio', () => {
    expect(retryDelay(1, contractRetryDelaysMs, 0.1, () => 0)).to.equal(4_500);
    expect(retryDelay(1, contractRetryDelaysMs, 0.1, () => 1)).to.equal(5_500);
  });
});
