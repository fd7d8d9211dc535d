import { expect } from 'chai';
import { twoGenerationMap } from '../../../src/infra/cache/two-generation-map.js';

describe('two-generation map', () => {
  it('keeps at most two generations, and an entry read from the old one survives the next turn', () => {
    const cache = twoGenerationMap<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3); // a and b age
    expect(cache.get('a')).to.equal(1); // a moves back: young holds c, a
    cache.set('d', 4); // c and a age, b is dropped
    expect(cache.get('b')).to.equal(undefined);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).to.deep.equal([1, 3, 4]);
  });
});
