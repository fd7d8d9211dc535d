import { expect } from 'chai';
import { requestsOf } from '../../../src/infra/kafka/requests-of.js';

describe('cutting messages into requests a broker takes (requestsOf)', () => {
  type Sample = { key: string; value: string; headers: { ce_id: string } };
  const message = (n: number, bytes: number): Sample => ({ key: `k${n % 3}`, value: 'é'.repeat(bytes / 2), headers: { ce_id: `${n}` } });
  const bytesOf = (m: Sample) => Buffer.byteLength(m.value) + m.key.length + 'ce_id'.length + m.headers.ce_id.length;

  it('keeps the order, counts bytes (not characters), and puts no more than the bound in a request', () => {
    const messages = Array.from({ length: 100 }, (_, n) => message(n, 1_000));
    const requests = requestsOf(messages, 10_000);
    expect(requests.flat()).to.deep.equal(messages);
    // About 1,009 bytes a message (value, key, header): 9 to a request.
    expect(requests.map((r) => r.length)).to.deep.equal([...Array(11).fill(9), 1]);
    for (const request of requests as Sample[][]) expect(request.reduce((sum, m) => sum + bytesOf(m), 0)).to.be.at.most(10_000);
  });

  it('sends a message larger than the bound alone, and nothing for no messages', () => {
    const [small, large] = [message(1, 100), message(2, 50_000)];
    expect(requestsOf([small, large, small], 10_000)).to.deep.equal([[small], [large], [small]]);
    expect(requestsOf([], 10_000)).to.deep.equal([]);
  });
});
