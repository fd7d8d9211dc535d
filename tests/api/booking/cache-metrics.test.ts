import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

describe('cache metrics at GET /metrics', function () {
  this.timeout(120_000);
  let server: TestServer;
  let zone: string;
  const range = `from=${encodeURIComponent('2027-01-05T00:00:00Z')}&to=${encodeURIComponent('2027-01-06T00:00:00Z')}`;

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    zone = await registerZone(server, 'zone-cache-metrics');
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-cache-metrics', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z') });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  });
  after(() => server.stop());

  /** Every `metric{cache="…"} value` line of a scrape, by cache name (the caches are the process's, shared with other suites). */
  async function scrape(metric: string): Promise<Map<string, number>> {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).to.equal(200);
    const lines = (await res.text()).split('\n').filter((line) => line.startsWith(`${metric}{cache="`));
    return new Map(lines.map((line) => [/cache="([^"]+)"/.exec(line)![1]!, Number(line.split(' ').at(-1))]));
  }

  it('counts a schedule rendered as a miss and the same schedule read again as a hit, and reports the answers held', async () => {
    const [hitsBefore, missesBefore] = [await scrape('cache_hits_total'), await scrape('cache_misses_total')];
    const schedule = () => server.request('GET', `/booking/v1/resources/${zone}/schedule?${range}`);
    expect((await schedule()).status).to.equal(200);
    expect((await schedule()).status).to.equal(200);
    const [hits, misses, entries, bytes] = [await scrape('cache_hits_total'), await scrape('cache_misses_total'), await scrape('cache_entries'), await scrape('cache_bytes')];
    expect(hits.get('schedule-answers')! - (hitsBefore.get('schedule-answers') ?? 0)).to.equal(1);
    expect(misses.get('schedule-answers')! - (missesBefore.get('schedule-answers') ?? 0)).to.equal(1);
    expect(entries.get('schedule-answers')).to.be.at.least(1);
    expect(bytes.get('schedule-answers')).to.be.greaterThan(0);
    // The same token sent again is verified once.
    expect(hits.get('verified-tokens')! - (hitsBefore.get('verified-tokens') ?? 0)).to.be.at.least(1);
  });
});
