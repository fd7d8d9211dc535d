import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

describe('schedule ETag and If-None-Match', function () {
  this.timeout(120_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let admin: string;
  let zone: string;
  const range = `from=${encodeURIComponent('2027-01-05T00:00:00+01:00')}&to=${encodeURIComponent('2027-01-06T00:00:00+01:00')}&tz=Europe/Berlin`;

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    alice = server.token({ level: 'LV4', sub: 'alice' });
    bob = server.token({ level: 'LV4', sub: 'bob' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
    zone = await registerZone(server, 'zone-etag');
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-etag', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { title: 'Alice’s' }), token: alice });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  });
  after(() => server.stop());

  const schedule = (token: string, headers: Record<string, string> = {}, query = range) =>
    server.request('GET', `/booking/v1/resources/${zone}/schedule?${query}`, { token, headers });

  it('answers an ETag, and 304 without a body while nothing changed', async () => {
    const first = await schedule(admin);
    const tag = first.headers.get('etag');
    expect(first.status).to.equal(200);
    expect(tag).to.match(/^"[^"]+"$/);
    expect(first.body.bookings).to.have.length(1);
    const again = await schedule(admin, { 'if-none-match': tag! });
    expect(again.status).to.equal(304);
    expect(again.body).to.equal(null);
    expect(again.headers.get('etag')).to.equal(tag);
    const listed = await schedule(admin, { 'if-none-match': `"other", W/${tag}` });
    expect(listed.status).to.equal(304);
    const repeated = await schedule(admin);
    expect(repeated.status).to.equal(200);
    expect(repeated.body).to.deep.equal(first.body);
  });

  it('a repeated answer comes gzipped to a client that accepts gzip: the same bytes, a tag of its own that revalidates', async () => {
    const url = `${server.url}/booking/v1/resources/${zone}/schedule?${range}`;
    const get = (encoding: string, headers: Record<string, string> = {}) => fetch(url, { headers: { authorization: `Bearer ${admin}`, 'accept-encoding': encoding, ...headers } });
    await (await get('identity')).arrayBuffer();
    const plain = await get('identity');
    const zipped = await get('gzip, deflate, br');
    expect(plain.headers.get('content-encoding')).to.equal(null);
    expect(zipped.headers.get('content-encoding')).to.equal('gzip');
    expect(zipped.headers.get('vary')).to.equal('Accept-Encoding');
    // fetch inflates the body: equal bytes once decoded.
    expect(Buffer.from(await zipped.arrayBuffer()).equals(Buffer.from(await plain.arrayBuffer()))).to.equal(true);
    const zippedTag = zipped.headers.get('etag')!;
    expect(zippedTag).to.not.equal(plain.headers.get('etag'));
    for (const [encoding, tag] of [['gzip', zippedTag], ['identity', zippedTag], ['gzip', plain.headers.get('etag')!]] as const) {
      const again = await get(encoding, { 'if-none-match': tag });
      expect(again.status).to.equal(304);
      expect(again.headers.get('etag')).to.equal(tag);
    }
  });

  it('a write on the resource changes the tag and the answer', async () => {
    const before = await schedule(admin);
    const created = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-etag', '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z'), token: bob });
    expect(created.status).to.equal(201);
    const after = await schedule(admin, { 'if-none-match': before.headers.get('etag')! });
    expect(after.status).to.equal(200);
    expect(after.headers.get('etag')).not.to.equal(before.headers.get('etag'));
    expect(after.body.bookings.map((b: any) => b.id)).to.include(created.body.id);
  });

  it('each privacy view has its own tag: another user neither gets 304 nor the details', async () => {
    const own = await schedule(alice);
    expect(own.body.bookings.find((b: any) => b.title === 'Alice’s')).to.not.equal(undefined);
    const other = await schedule(bob, { 'if-none-match': own.headers.get('etag')! });
    expect(other.status).to.equal(200);
    expect(other.headers.get('etag')).not.to.equal(own.headers.get('etag'));
    expect(other.body.bookings.map((b: any) => b.title)).not.to.include('Alice’s');
  });

  it('a user whose sub is "*" gets no admin’s cached answer', async () => {
    const full = await schedule(admin);
    expect(full.body.bookings.map((b: any) => b.title)).to.include('Alice’s');
    const star = await schedule(server.token({ level: 'LV4', sub: '*' }));
    expect(star.status).to.equal(200);
    expect(star.headers.get('etag')).not.to.equal(full.headers.get('etag'));
    expect(star.body.bookings.map((b: any) => b.title)).not.to.include('Alice’s');
  });

  it('another range, zone or status filter has another tag', async () => {
    const tags = new Set<string>();
    for (const query of [range, `${range}&status=cancelled`, range.replace('Europe/Berlin', 'Asia/Kathmandu'), range.replace('06T00', '07T00')]) {
      const res = await schedule(admin, {}, query);
      expect(res.status).to.equal(200);
      tags.add(res.headers.get('etag')!);
    }
    expect(tags.size).to.equal(4);
  });
});
