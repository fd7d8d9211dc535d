import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { startTestServer, type TestResponse, type TestServer } from '../../support/test-server.js';

type Created = { id: string; username: string; password: string | null; label: string; createdBy: string; createdAt: string; expiresAt: string };

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
const dayMs = 24 * 3600_000;

/** A request under /dav/ as a calendar client sends it. No CalDAV route may exist yet: passing authentication is "not 401". */
const dav = (node: TestServer, authorization?: string) => node.request('PROPFIND', '/dav/principals/', { token: null, headers: authorization ? { authorization, depth: '0' } : { depth: '0' } });

function expectChallenge(res: TestResponse) {
  expect(res.status, JSON.stringify(res.body)).to.equal(401);
  // Two WWW-Authenticate lines; fetch joins them with ", ".
  expect(res.headers.get('www-authenticate')).to.equal('Basic realm="workspace-booking", Bearer');
  expect(res.body).to.include({ statusCode: 401 });
  expect(res.body.message).to.be.a('string');
}

function expectSignedIn(res: TestResponse, policy: 'per-username' | 'per-sub') {
  expect(res.status, JSON.stringify(res.body)).to.not.be.oneOf([401, 403, 429]);
  expect(res.status).to.be.below(500);
  // §18's limit counted the request, per username for a password and per sub for a token.
  expect(res.headers.get('ratelimit-policy')).to.match(new RegExp(`^"${policy}";q=\\d+;w=60$`));
}

describe('calendar passwords (contract §25)', function () {
  this.timeout(180_000);
  let server: TestServer;
  /** A second node on the same database, with its own caches (and CALENDAR_PASSWORD_DAYS=7). */
  let second: TestServer;
  let alice: string;
  let bob: string;
  let admin: string;

  const create = async (token: string, label = 'Thunderbird on my laptop', node = server): Promise<Created> => {
    const res = await node.request('POST', '/booking/v1/calendar-passwords', { token, body: { label } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as Created;
  };
  const list = async (token: string) => {
    const res = await server.request('GET', '/booking/v1/calendar-passwords?limit=100', { token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res;
  };
  const remove = (id: string, token: string) => server.request('DELETE', `/booking/v1/calendar-passwords/${id}`, { token });
  const rows = () => server.database.db.selectFrom('calendar_passwords').selectAll().execute();

  before(async () => {
    server = await startTestServer();
    second = await startTestServer({ CALENDAR_PASSWORD_DAYS: '7' }, { database: server.database, workspace: server.workspace });
    alice = server.token({ level: 'LV4', sub: 'alice' });
    bob = server.token({ level: 'LV4', sub: 'bob' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
  });
  after(async () => {
    await second?.close();
    await server?.stop();
  });

  describe('creating one', () => {
    it('answers the password once, with a generated username naming the workspace and sub, expiring CALENDAR_PASSWORD_DAYS later', async () => {
      const created = await create(alice);
      expect(created).to.have.all.keys('id', 'username', 'password', 'label', 'createdBy', 'createdAt', 'expiresAt');
      expect(created.username).to.match(new RegExp(`^alice\\.${server.workspace}\\.[a-z2-7]{12}$`));
      expect(created.password).to.match(/^wbdav_[A-Za-z0-9_-]{32}$/);
      expect(created).to.include({ label: 'Thunderbird on my laptop', createdBy: 'alice' });
      expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).to.equal(365 * dayMs);
      const again = await create(alice);
      expect(again.username).to.not.equal(created.username);
      expect(again.password).to.not.equal(created.password);
      // The second node runs with CALENDAR_PASSWORD_DAYS=7.
      const short = await create(alice, 'phone', second);
      expect(Date.parse(short.expiresAt) - Date.parse(short.createdAt)).to.equal(7 * dayMs);
    });

    it('keeps a salted scrypt hash and the claims of the token that made it, never the password', async () => {
      const lead = server.token({ level: 'LV3', sub: 'lead|7', groups: ['floor-2', 'floor-3'], email: 'lead@example.org' });
      const created = await create(lead, 'DAVx5');
      expect(created.username).to.match(new RegExp(`^lead_7\\.${server.workspace}\\.`));
      const row = (await rows()).find((r) => r.id === created.id)!;
      expect(row).to.include({ username: created.username, label: 'DAVx5', workspace: server.workspace, owner_sub: 'lead|7', owner_level: 3, owner_email: 'lead@example.org' });
      expect(row.owner_groups).to.deep.equal(['floor-2', 'floor-3']);
      expect(row.password_hash).to.match(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
      const secretPart = created.password!.slice('wbdav_'.length);
      expect(JSON.stringify(await rows())).to.not.include(secretPart);
    });

    it('answers a replay by Idempotency-Key with the same record and no password, and keeps none in the idempotency record', async () => {
      const headers = { 'idempotency-key': `pw-${randomUUID()}` };
      const first = await server.request('POST', '/booking/v1/calendar-passwords', { token: alice, body: { label: 'retried' }, headers });
      expect(first.status).to.equal(201);
      expect(first.body.password).to.match(/^wbdav_/);
      const replay = await server.request('POST', '/booking/v1/calendar-passwords', { token: alice, body: { label: 'retried' }, headers });
      expect(replay.status).to.equal(201);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body).to.deep.equal({ ...first.body, password: null });
      const kept = await sql<{ row: unknown }>`select to_jsonb(k) as row from idempotency_keys k`.execute(server.database.db);
      expect(JSON.stringify(kept.rows)).to.include(first.body.id).and.not.include(first.body.password.slice(6));
      expect((await rows()).filter((r) => r.label === 'retried')).to.have.length(1);
    });

    it('lets every level make one, guests (LV5) too', async () => {
      const guest = await create(server.token({ level: 'LV5', sub: 'guest' }), 'room panel');
      expectSignedIn(await dav(server, basic(guest.username, guest.password!)), 'per-username');
    });

    it('refuses a missing, empty, too long or control-character label, or another field, with 400 and writes nothing', async () => {
      const before = (await rows()).length;
      for (const body of [{}, { label: '' }, { label: 'x'.repeat(101) }, { label: 'a\nb' }, { label: 'ok', workspace: randomUUID() }, { label: 7 }]) {
        const res = await server.request('POST', '/booking/v1/calendar-passwords', { token: alice, body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.statusCode).to.equal(400);
      }
      expect((await create(alice, 'x'.repeat(100))).label).to.have.length(100);
      expect((await rows()).length).to.equal(before + 1);
    });
  });

  describe('signing in under /dav/', () => {
    it('passes with the calendar password (counted per username) or with a platform token (per sub)', async () => {
      const created = await create(alice);
      expectSignedIn(await dav(server, basic(created.username, created.password!)), 'per-username');
      expectSignedIn(await dav(second, basic(created.username, created.password!)), 'per-username');
      expectSignedIn(await dav(server, `Bearer ${alice}`), 'per-sub');
    });

    it('answers 401 with both challenges without credentials, or with wrong ones', async () => {
      const created = await create(alice);
      const otherSecret = (await create(bob)).password!;
      expectChallenge(await dav(server));
      expectChallenge(await dav(server, basic(created.username, otherSecret)));
      expectChallenge(await dav(server, basic(created.username, '')));
      expectChallenge(await dav(server, basic(`alice.${server.workspace}.aaaaaaaaaaaa`, created.password!)));
      expectChallenge(await dav(server, basic('a\u0000b', created.password!)));
      expectChallenge(await dav(server, 'Basic not-base64!'));
      expectChallenge(await dav(server, 'Bearer not-a-jwt'));
      expectChallenge(await dav(server, `Bearer ${server.token({ sub: 'x' }).slice(0, -4)}AAAA`));
      expectChallenge(await dav(server, 'Digest username="alice"'));
    });

    it('is refused everywhere but /dav/: Basic on /booking/v1 answers 401, even with a valid calendar password', async () => {
      const created = await create(alice);
      for (const path of ['/booking/v1/calendar-passwords', '/booking/v1/resources', '/booking/v1/bookings']) {
        const res = await server.request('GET', path, { token: null, headers: { authorization: basic(created.username, created.password!) } });
        expect(res.status, path).to.equal(401);
        expect(res.body.message).to.include('/dav/');
      }
      const write = await server.request('POST', '/booking/v1/calendar-passwords', { token: null, body: { label: 'x' }, headers: { authorization: basic(created.username, created.password!) } });
      expect(write.status).to.equal(401);
      const devices = await server.request('GET', '/device/v1/devices', { token: null, headers: { authorization: basic(created.username, created.password!) } });
      expect(devices.status).to.equal(401);
    });
  });

  describe('listing', () => {
    it('shows the caller its own, LV2 the whole workspace, another workspace none; never a password or a hash', async () => {
      const mine = await create(alice, 'list: alice');
      const bobs = await create(bob, 'list: bob');
      const ownList = await list(alice);
      const ids = (res: TestResponse) => (res.body.data as Created[]).map((p) => p.id);
      expect(ids(ownList)).to.include(mine.id).and.not.include(bobs.id);
      expect(ownList.body).to.include.keys('count', 'total', 'page', 'pageCount');
      const entry = (ownList.body.data as Created[]).find((p) => p.id === mine.id)!;
      expect(entry).to.deep.equal({ id: mine.id, username: mine.username, label: 'list: alice', createdBy: 'alice', createdAt: mine.createdAt, expiresAt: mine.expiresAt });
      expect(ids(await list(admin))).to.include.members([mine.id, bobs.id]);
      const elsewhere = server.token({ level: 'LV2', sub: 'admin', workspace: randomUUID() });
      expect(ids(await list(elsewhere))).to.not.include.members([mine.id]);
      expect(ids(await list(elsewhere))).to.not.include(bobs.id);
      for (const res of [ownList, await list(admin)]) {
        const text = JSON.stringify(res.body);
        expect(text).to.not.include('wbdav_');
        expect(text).to.not.include('$scrypt');
        expect(text).to.not.include(mine.password!.slice(6));
      }
    });
  });

  describe('deleting', () => {
    it('is its creator\'s or an LV2\'s of its workspace; anyone else gets 404', async () => {
      const created = await create(alice, 'delete: by others');
      expect((await remove(created.id, bob)).status).to.equal(404);
      expect((await remove(created.id, server.token({ level: 'LV3', sub: 'lead' }))).status).to.equal(404);
      expect((await remove(created.id, server.token({ level: 'LV2', sub: 'admin', workspace: randomUUID() }))).status).to.equal(404);
      expect((await remove(randomUUID(), alice)).status).to.equal(404);
      expectSignedIn(await dav(server, basic(created.username, created.password!)), 'per-username');
      expect((await remove(created.id, admin)).status).to.equal(204);
      expectChallenge(await dav(server, basic(created.username, created.password!)));
      expect((await remove(created.id, alice)).status).to.equal(404);
      expect((await server.request('DELETE', '/booking/v1/calendar-passwords/not-a-uuid', { token: alice })).status).to.equal(400);
    });

    it('answers 401 at once afterwards, on every node, though both had just let it in', async () => {
      const created = await create(alice, 'delete: everywhere');
      const authorization = basic(created.username, created.password!);
      expectSignedIn(await dav(server, authorization), 'per-username');
      expectSignedIn(await dav(second, authorization), 'per-username');
      expect((await remove(created.id, alice)).status).to.equal(204);
      expectChallenge(await dav(second, authorization));
      expectChallenge(await dav(server, authorization));
      expect((await rows()).map((r) => r.id)).to.not.include(created.id);
    });
  });

  it('answers 401 at once on every node once it has expired', async () => {
    const created = await create(alice, 'expiring');
    const authorization = basic(created.username, created.password!);
    expectSignedIn(await dav(server, authorization), 'per-username');
    expectSignedIn(await dav(second, authorization), 'per-username');
    await server.database.db.updateTable('calendar_passwords').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', created.id).execute();
    for (const node of [server, second]) {
      const res = await dav(node, authorization);
      expectChallenge(res);
      expect(res.body.message).to.include('expired');
    }
  });

  it('answers 429 with Retry-After to repeated wrong passwords for one username, on every node, while a password already checked keeps working', async () => {
    const created = await create(alice, 'brute force target');
    const good = basic(created.username, created.password!);
    expectSignedIn(await dav(server, good), 'per-username');
    const wrong = async (node: TestServer) => dav(node, basic(created.username, (await create(bob, 'wrong')).password!));
    // Fifteen wrong at once: ten checks a minute are allowed, then one every six seconds.
    const wrongPasswords = await Promise.all(Array.from({ length: 15 }, async () => basic(created.username, (await create(bob, 'wrong')).password!)));
    const burst = await Promise.all(wrongPasswords.map((authorization) => dav(server, authorization)));
    const refused = burst.filter((res) => res.status === 429);
    // Ten checks a minute, the good password's first one among them: nine, and a refill or two should
    // the burst be spread over seconds on a loaded machine.
    expect(burst.filter((res) => res.status === 401).length).to.be.within(9, 12);
    expect(refused.length).to.equal(15 - burst.filter((res) => res.status === 401).length);
    for (const res of refused) {
      expect(Number(res.headers.get('retry-after'))).to.be.within(1, 6);
      expect(res.body.statusCode).to.equal(429);
    }
    // The bucket is shared: the other node refuses too.
    const elsewhere = await Promise.all([wrong(second), wrong(second), wrong(second), wrong(second)]);
    expect(elsewhere.filter((res) => res.status === 429).length).to.be.at.least(2);
    // The password the first node checked before goes on working there.
    expectSignedIn(await dav(server, good), 'per-username');
    // Another username's checks are not affected.
    const other = await create(alice, 'unaffected');
    expectSignedIn(await dav(server, basic(other.username, other.password!)), 'per-username');
  });
});
