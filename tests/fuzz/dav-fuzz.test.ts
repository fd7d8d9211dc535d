import { expect } from 'chai';
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { bookingBody, registerZone, setClock } from '../api/booking/booking-api.js';

/** Requests per run; FUZZ_RUNS for a longer hunt, FUZZ_SEED to replay one. */
const runs = Math.max(100, Math.floor(Number(process.env.FUZZ_RUNS || 2500) / 8));
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2_147_483_647;

const methods = ['OPTIONS', 'GET', 'HEAD', 'PROPFIND', 'REPORT', 'PROPPATCH', 'MKCALENDAR', 'PUT', 'DELETE', 'POST', 'PATCH', 'COPY', 'MOVE', 'LOCK'];
const namespaces = ['DAV:', 'urn:ietf:params:xml:ns:caldav', 'http://calendarserver.org/ns/', 'urn:workspace-booking', 'urn:x-unknown', ''];
const names = ['propfind', 'prop', 'allprop', 'propname', 'displayname', 'getetag', 'calendar-data', 'calendar-query', 'calendar-multiget', 'sync-collection', 'sync-token', 'sync-level', 'filter', 'comp-filter', 'time-range', 'href', 'principal-property-search', 'property-search', 'match', 'free-busy-query', 'resourcetype', 'x'];
const texts = ['', '1', 'infinite', '20270301T000000Z', 'urn:workspace-booking:sync:1-1', 'urn:workspace-booking:sync:99999999999999999999-1', '/dav/calendars/', '%', '&amp;', '&lt;', '&#0;', '&#x1F600;', '\u0000', 'ROOM', 'VEVENT', 'VCALENDAR', '../..'];

type XmlTree = { ns: string; name: string; attributes: [string, string][]; children: XmlTree[]; text: string };

/** Trees at most `depth` levels deep (deeper nesting is its own body shape below). */
const treeOf = (depth: number): fc.Arbitrary<XmlTree> =>
  fc.record({
    ns: fc.constantFrom(...namespaces),
    name: fc.constantFrom(...names),
    attributes: fc.array(fc.tuple(fc.constantFrom('name', 'start', 'end', 'test', 'xml:lang'), fc.constantFrom(...texts, 'VEVENT', 'anyof')), { maxLength: 2 }),
    children: depth === 0 ? fc.constant([]) : fc.array(treeOf(depth - 1), { maxLength: 3 }),
    text: fc.constantFrom(...texts),
  });
const tree = treeOf(4);

const render = (node: XmlTree): string => {
  const attributes = node.attributes.map(([n, v]) => ` ${n}="${v.replace(/"/g, '&quot;')}"`).join('');
  return `<${node.name}${node.ns ? ` xmlns="${node.ns}"` : ''}${attributes}>${node.text.replace(/</g, '&lt;')}${node.children.map(render).join('')}</${node.name}>`;
};

/** Whole bodies: generated trees, and the hostile shapes (DOCTYPE, entities, cut, deep, not XML). */
const bodies = fc.oneof(
  { weight: 6, arbitrary: tree.map(render) },
  { weight: 1, arbitrary: tree.map((t) => `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${render(t)}`) },
  { weight: 1, arbitrary: fc.tuple(tree.map(render), fc.nat()).map(([text, n]) => text.slice(0, n % (text.length + 1))) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((n) => `${'<a xmlns="DAV:">'.repeat(n)}${'</a>'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

describe('fuzzing /dav/ (contract §25): no 5xx, every refusal in its shape, every multistatus well-formed XML', function () {
  this.timeout(600_000);
  let server: TestServer;
  let room: string;
  let booking: string;

  before(async () => {
    server = await startTestServer();
    room = await registerZone(server, 'fuzz-dav-room');
    setClock(server, '2027-03-01T08:00:00Z');
    const created = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('fuzz-dav-room', '2027-03-02T09:00:00Z', '2027-03-02T10:00:00Z') });
    booking = created.body.id;
  });
  after(() => server.stop());

  it('holds for random requests', async () => {
    const segments = fc.constantFrom('dav', 'principals', 'users', 'resources', 'calendars', 'user-1', room, 'bookings', 'inbox', 'outbox', `${booking}.ics`, 'x.ics', '%ZZ', '..', '%2F', '');
    const paths = fc.oneof(
      fc.constantFrom('/dav/', '/dav/principals/', '/dav/principals/resources/', `/dav/calendars/resources/${room}/bookings/`, `/dav/calendars/resources/${room}/bookings/${booking}.ics`, '/dav/calendars/users/user-1/outbox/', '/.well-known/caldav'),
      fc.array(segments, { maxLength: 6 }).map((s) => `/dav/${s.join('/')}`),
    );
    const tokens = { user: server.token({ level: 'LV4', sub: 'user-1' }), admin: server.token({ level: 'LV2', sub: 'admin' }), none: null };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), paths, bodies, fc.constantFrom(undefined, '0', '1', 'infinity', 'x'), fc.constantFrom(...(Object.keys(tokens) as (keyof typeof tokens)[])), async (method, path, body, depth, who) => {
        const token = tokens[who];
        const response = await fetch(`${server.url}${path}`, {
          method,
          redirect: 'manual',
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(depth ? { depth } : {}), ...(body !== undefined ? { 'content-type': 'application/xml' } : {}) },
          body: method === 'GET' || method === 'HEAD' ? undefined : body,
        });
        const text = await response.text();
        const type = response.headers.get('content-type') ?? '';
        const where = `${method} ${path} (${who}, depth ${depth}): ${response.status} ${text.slice(0, 300)}\nbody: ${String(body).slice(0, 300)}`;
        expect(response.status, where).to.be.below(500);
        if (type.startsWith('application/xml')) {
          const parser = new SaxesParser({ xmlns: true });
          expect(() => parser.write(text).close(), where).not.to.throw();
        } else if (response.status >= 400 && method !== 'HEAD') {
          const parsed = JSON.parse(text) as { statusCode?: unknown; message?: unknown };
          expect(parsed.statusCode, where).to.equal(response.status);
          expect(parsed.message, where).to.be.a('string');
        }
      }),
      { numRuns: runs, seed },
    );
  });
});
