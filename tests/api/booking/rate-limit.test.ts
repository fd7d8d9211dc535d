import { expect } from 'chai';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { platformKey } from '../../support/test-keys.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

const resources = '/booking/v1/resources';

/** `"<name>";r=<remaining>;t=<seconds>` read into its parts. */
function parseRateLimit(header: string | null): { name: string; r: number; t: number } {
  const match = /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(header ?? '');
  if (!match) throw new Error(`RateLimit header not as expected: ${header}`);
  return { name: match[1]!, r: Number(match[2]), t: Number(match[3]) };
}

describe('rate limits (contract §18)', function () {
  this.timeout(60_000);

  describe('with RATE_LIMIT_PER_MINUTE=5', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '5' });
    });
    after(() => server.stop());

    it('tells the policy and a remaining count that goes down with each request', async () => {
      const token = server.token({ sub: 'counted' });
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await server.request('GET', resources, { token }));
      for (const answer of answers) {
        expect(answer.status).to.equal(200);
        expect(answer.headers.get('ratelimit-policy')).to.equal('"per-sub";q=5;w=60');
      }
      const limits = answers.map((answer) => parseRateLimit(answer.headers.get('ratelimit')));
      expect(limits.map((limit) => limit.name)).to.deep.equal(['per-sub', 'per-sub', 'per-sub']);
      expect(limits.map((limit) => limit.r)).to.deep.equal([4, 3, 2]);
      expect(limits.map((limit) => limit.t)).to.deep.equal([0, 0, 0]);
    });

    it('counts a calendar feed token on its own, apart from its creator, and refuses it past the limit', async () => {
      const creator = server.token({ sub: 'subscriber' });
      const created = await server.request('POST', '/booking/v1/calendar-feeds', { token: creator, body: {} });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const feed = `/booking/v1/bookings/calendar.ics?token=${encodeURIComponent(created.body.token as string)}`;
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await server.request('GET', feed, { token: null }));
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200, 429]);
      expect(answers[0]!.headers.get('ratelimit-policy')).to.equal('"per-feed-token";q=5;w=60');
      expect(parseRateLimit(answers[4]!.headers.get('ratelimit'))).to.include({ name: 'per-feed-token', r: 0 });
      expect(Number(answers[5]!.headers.get('retry-after'))).to.be.greaterThan(0);
      // The creator's own requests have their own count: one used by the create.
      const own = await server.request('GET', '/booking/v1/calendar-feeds', { token: creator });
      expect(parseRateLimit(own.headers.get('ratelimit'))).to.include({ name: 'per-sub', r: 3 });
    });

    it('answers 429 with Retry-After past the limit, in the error shape, and writes nothing', async () => {
      const token = server.token({ sub: 'eager' });
      await registerZone(server, 'zone-limited');
      setClock(server, '2027-01-04T08:00:00Z');
      for (let i = 0; i < 5; i++) expect((await server.request('GET', resources, { token })).status).to.equal(200);
      const refused = await server.request('POST', '/booking/v1/bookings', { token, body: bookingBody('zone-limited', '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z') });
      expect(refused.status).to.equal(429);
      expect(refused.body).to.include({ statusCode: 429 });
      expect(refused.body.message).to.be.a('string');
      const retryAfter = Number(refused.headers.get('retry-after'));
      // One request is free again every 12 s.
      expect(retryAfter).to.be.within(1, 12);
      const limit = parseRateLimit(refused.headers.get('ratelimit'));
      expect(limit).to.deep.equal({ name: 'per-sub', r: 0, t: retryAfter });
      expect(refused.headers.get('ratelimit-policy')).to.equal('"per-sub";q=5;w=60');
      const stored = await server.database.db.selectFrom('bookings').select('id').where('resource_id', '=', 'zone-limited').execute();
      expect(stored).to.have.length(0);
    });

    it('counts each token subject on its own', async () => {
      const first = server.token({ sub: 'first' });
      const second = server.token({ sub: 'second', level: 'LV4' });
      for (let i = 0; i < 5; i++) await server.request('GET', resources, { token: first });
      expect((await server.request('GET', resources, { token: first })).status).to.equal(429);
      const other = await server.request('GET', resources, { token: second });
      expect(other.status).to.equal(200);
      expect(parseRateLimit(other.headers.get('ratelimit')).r).to.equal(4);
    });

    it('never limits health, metrics or docs', async () => {
      for (let i = 0; i < 12; i++) {
        for (const path of ['/booking/v1/health', '/metrics', '/booking/docs-yaml']) {
          const res = await server.request('GET', path, { token: null });
          expect(res.status, path).to.equal(200);
          expect(res.headers.get('ratelimit'), path).to.equal(null);
        }
      }
    });
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async () => {
    const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '0' });
    try {
      for (let i = 0; i < 10; i++) {
        const res = await server.request('GET', resources);
        expect(res.status).to.equal(200);
        expect(res.headers.get('ratelimit')).to.equal(null);
        expect(res.headers.get('ratelimit-policy')).to.equal(null);
      }
    } finally {
      await server.stop();
    }
  });

  it('allows 1200 requests a minute by default', async () => {
    const server = await startTestServer();
    try {
      const res = await server.request('GET', resources);
      expect(res.headers.get('ratelimit-policy')).to.equal('"per-sub";q=1200;w=60');
      expect(parseRateLimit(res.headers.get('ratelimit')).r).to.equal(1199);
    } finally {
      await server.stop();
    }
  });

  it('lets no more than the limit through when a busy client is served from batches of tokens', async () => {
    const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '300' });
    try {
      const token = server.token({ sub: 'busy' });
      const started = Date.now();
      const statuses: number[] = [];
      let sent = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (sent < 400) {
            sent += 1;
            statuses.push((await server.request('GET', resources, { token })).status);
          }
        }),
      );
      const seconds = (Date.now() - started) / 1_000;
      const allowed = statuses.filter((status) => status === 200).length;
      expect(statuses.filter((status) => status !== 200 && status !== 429)).to.deep.equal([]);
      // 300 at the start, 5 more every second; a process gives up at most a few tokens it took in advance.
      expect(allowed).to.be.at.most(300 + Math.ceil(seconds * 5));
      expect(allowed).to.be.at.least(290);
      expect(statuses.filter((status) => status === 429).length).to.be.at.least(400 - 300 - Math.ceil(seconds * 5));
    } finally {
      await server.stop();
    }
  });

  describe('across two service processes', function () {
    this.timeout(120_000);
    let server: TestServer;
    let children: ServiceProcess[] = [];

    before(async function () {
      server = await startTestServer();
      if (!server.database.isServer) this.skip();
      const env = {
        ...server.database.env,
        APP_ENV: 'production',
        PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
        DATA_DIR: `/tmp/booking-test-${process.pid}-children`,
        DB_POOL_SIZE: '4',
        WEB_CONCURRENCY: '1',
        RATE_LIMIT_PER_MINUTE: '6',
      };
      children = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    });
    after(async () => {
      await Promise.all(children.map((child) => child.stop()));
      await server?.stop();
    });

    it('counts one limit for both', async () => {
      const token = server.token({ sub: 'everywhere' });
      const get = (i: number) => fetch(`${children[i % 2]!.url}${resources}`, { headers: { authorization: `Bearer ${token}` } });
      // 10 at once, 5 to each: separate counts would let all 10 through. One refill (10 s) may land during the burst.
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => get(i)));
      const allowed = answers.filter((res) => res.status === 200);
      const refused = answers.filter((res) => res.status === 429);
      expect(allowed.length + refused.length).to.equal(10);
      expect(allowed.length).to.be.within(6, 7);
      for (const res of refused) expect(Number(res.headers.get('retry-after'))).to.be.within(1, 10);
      for (const res of answers) expect(parseRateLimit(res.headers.get('ratelimit')).r).to.be.within(0, 5);
    });
  });
});
