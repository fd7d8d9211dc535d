import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { boundedCache } from '../../../src/infra/cache/bounded-cache.js';
import { processRegistry } from '../../../src/infra/metrics/process-metrics.js';

/** The value of `metric{cache="name"}` as /metrics would write it. */
async function metricOf(metric: string, name: string): Promise<number | undefined> {
  const text = await processRegistry.getSingleMetricAsString(metric);
  const line = text.split('\n').find((l) => l.startsWith(`${metric}{cache="${name}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('a bounded cache', () => {
  it('never holds more entries than its bound, the least recently used going first', () => {
    const cache = boundedCache<string, number>('test-entries', { maxEntries: 3 });
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    expect(cache.get('a')).to.equal(0);
    cache.set('d', 3);
    cache.set('e', 4);
    expect(cache.size).to.equal(3);
    expect(['a', 'b', 'c', 'd', 'e'].map((key) => cache.get(key))).to.deep.equal([0, undefined, undefined, 3, 4]);
  });

  it('never holds more bytes than its bound, and keeps no value larger than it', () => {
    const cache = boundedCache<string, Buffer>('test-bytes', { maxBytes: 100, bytesOf: (value) => value.length });
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, Buffer.alloc(30));
    expect(cache.size).to.equal(3);
    expect(cache.get('k9')).to.have.length(30);
    expect(cache.get('k6')).to.equal(undefined);
    cache.set('huge', Buffer.alloc(101));
    expect(cache.get('huge')).to.equal(undefined);
  });

  it('in two generations, holds at most its bound', () => {
    const cache = boundedCache<string, number>('test-generations', { maxEntries: 4, generations: true });
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, i);
    expect(cache.size).to.be.at.most(4);
    expect(cache.get('k99')).to.equal(99);
    expect(cache.get('k0')).to.equal(undefined);
  });

  it('counts hits and misses (a stale or expired entry is a miss) and reports its size in the metrics', async () => {
    const cache = boundedCache<string, { revision: number }>('test-counted', { maxEntries: 10 });
    cache.set('a', { revision: 1 });
    cache.set('b', { revision: 1 }, { ttlMs: 5 });
    expect(cache.get('a')).to.deep.equal({ revision: 1 });
    expect(cache.get('a', (kept) => kept.revision === 2)).to.equal(undefined);
    expect(cache.get('nothing')).to.equal(undefined);
    await sleep(20);
    expect(cache.get('b')).to.equal(undefined);
    expect(cache.remember('c', () => ({ revision: 3 }))).to.deep.equal({ revision: 3 });
    expect(cache.remember('c', () => ({ revision: 4 }))).to.deep.equal({ revision: 3 });
    expect(await metricOf('cache_hits_total', 'test-counted')).to.equal(2);
    expect(await metricOf('cache_misses_total', 'test-counted')).to.equal(4);
    expect(await metricOf('cache_entries', 'test-counted')).to.equal(cache.size);
    expect(await metricOf('cache_bytes', 'test-counted')).to.equal(undefined);
  });

  it('reports the bytes held by a cache bounded in bytes', async () => {
    const cache = boundedCache<string, Buffer>('test-counted-bytes', { maxBytes: 1_000, bytesOf: (value) => value.length + 10 });
    cache.set('a', Buffer.alloc(40));
    cache.set('b', Buffer.alloc(50));
    expect(await metricOf('cache_bytes', 'test-counted-bytes')).to.equal(110);
    expect(await metricOf('cache_entries', 'test-counted-bytes')).to.equal(2);
  });
});
